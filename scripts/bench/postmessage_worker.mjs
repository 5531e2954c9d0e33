// One device of the postMessage baseline: for each all-reduce it posts its
// block to the coordinator (a structured-clone copy, as a web developer would
// write it) and waits for the summed result.
import { parentPort, workerData } from 'node:worker_threads';

const { n, reps, device } = workerData;
const block = new Float32Array(n).fill(device + 1);
let remaining = reps;
parentPort.on('message', (msg) => {
  if (msg === 'start' || msg instanceof Float32Array) {
    if (remaining-- === 0) {
      parentPort.postMessage('done');
      return;
    }
    parentPort.postMessage(block);
  }
});
