// The wasm psum measurement, shared by Node (collectives.mjs) and the
// Chromium bench page (page.html): one job of `reps` back-to-back psums of n
// floats per device on 8 devices (web/lib/testing.js runRepeated, on a
// runtime of the test build: loadTestDevices), timed and divided by reps.

import { runRepeated } from '../../web/lib/testing.js';

/** Psums per job for n floats per device: the native benchmark's (tests/bench/collectives_bench.cc). */
export const repsFor = (n) => (n <= 1024 ? 2000 : n <= 65536 ? 400 : n <= 1 << 20 ? 40 : 10);

/** Per size: microseconds per psum in each of `repetitions` jobs ([{n, samples}]), on a runtime from `loadDevices` (loadTestDevices). */
export async function wasmPsumSamples(loadDevices, sizes, repetitions, reps = repsFor) {
  // The 2^22 case holds ~300 MB.
  const rt = await loadDevices({ memoryMB: Math.max(...sizes) >= 1 << 22 ? 512 : 256 });
  const mesh = rt.mesh([8], ['data']);
  const out = [];
  for (const n of sizes) {
    const r = reps(n);
    const x = rt.put(mesh, new Float32Array(8 * n).fill(1), [8 * n], ['data']);
    const psum = rt.collectiveProgram(mesh, x, { op: 'psum', axisName: 'data' }, []); // replicated, as psum's result
    const job = async () => (await runRepeated(rt, mesh, psum, [x], r))[0];
    (await job()).delete(); // warm-up: touch every page once
    const samples = [];
    for (let i = 0; i < repetitions; i++) {
      const t0 = performance.now();
      const y = await job();
      samples.push(((performance.now() - t0) * 1000) / r);
      y.delete();
    }
    psum.delete();
    x.delete();
    out.push({ n, samples });
  }
  rt.terminate();
  return out;
}
