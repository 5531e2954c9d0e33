// One device of the plain-JS SharedArrayBuffer + Atomics baseline: the
// all-reduce a web developer would write without wasm. The 8 inputs and the
// result live in one SharedArrayBuffer; each round every device reduces its
// slice of the result (inputs in device order, float32 like the others) and
// a generation barrier on Atomics.wait/notify separates the rounds.
import { parentPort, workerData } from 'node:worker_threads';

const { sab, n, reps, device, devices } = workerData;
const ctl = new Int32Array(sab, 0, 2); // [arrived, generation]
const inputs = Array.from({ length: devices }, (_, d) => new Float32Array(sab, 8 + d * n * 4, n));
const out = new Float32Array(sab, 8 + devices * n * 4, n);
inputs[device].fill(device + 1);

// Spins briefly (the partner may be running), then sleeps on the generation word.
function barrier() {
  const gen = Atomics.load(ctl, 1);
  if (Atomics.add(ctl, 0, 1) === devices - 1) {
    Atomics.store(ctl, 0, 0);
    Atomics.add(ctl, 1, 1);
    Atomics.notify(ctl, 1);
    return;
  }
  for (let i = 0; i < 200; i++) if (Atomics.load(ctl, 1) !== gen) return;
  while (Atomics.load(ctl, 1) === gen) Atomics.wait(ctl, 1, gen);
}

const per = Math.ceil(n / devices);
const lo = Math.min(n, device * per);
const hi = Math.min(n, lo + per);
parentPort.once('message', () => {
  barrier();
  const t0 = performance.now();
  for (let r = 0; r < reps; r++) {
    for (let i = lo; i < hi; i++) {
      let acc = inputs[0][i];
      for (let d = 1; d < devices; d++) acc = Math.fround(acc + inputs[d][i]);
      out[i] = acc;
    }
    barrier(); // the whole result is there
    barrier(); // everyone has read it; the next round may overwrite
  }
  parentPort.postMessage(performance.now() - t0);
});
