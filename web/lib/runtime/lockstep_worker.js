// The lockstep worker: loads the module without threads and runs programs on
// host arrays, stepping every device through each equation (exec/lockstep.h).
// A program arrives once, as its JSON form, rebuilt by the core's reader
// (ir/json_read.h) and kept under its id until the page releases it. Works as
// a browser module worker and as a Node worker_thread. (No top-level await:
// bundlers may emit workers as scripts.)

import { instantiateModule, isNode } from './load_module.js';

// The page's own programs, read without the limits untrusted ones get.
const TRUSTED = { maxTextBytes: 2 ** 31, maxEquations: 2 ** 31, maxValueBytes: 2 ** 53, maxTotalBytes: 2 ** 53, maxWork: 1e300 };
// Programs already rebuilt, by id.
const programs = new Map();
let resolveInit;
const options = new Promise((r) => (resolveInit = r));
const Module = options.then(({ memoryMB }) =>
  instantiateModule(memoryMB ? { INITIAL_MEMORY: memoryMB * 1024 * 1024 } : {}, { threads: false }),
);

async function handle(msg, reply) {
  if (msg.init) {
    resolveInit(msg.init);
    return;
  }
  try {
    const M = await Module;
    if (msg.ping) {
      reply({ id: msg.id, outputs: [] });
      return;
    }
    if (msg.release) {
      programs.get(msg.release)?.delete();
      programs.delete(msg.release);
      return;
    }
    if (msg.json) {
      programs.get(msg.programId)?.delete(); // sent again after a failed run
      programs.set(msg.programId, M.programFromJson(msg.json, TRUSTED));
    }
    const program = programs.get(msg.programId);
    if (!program) throw Object.assign(new Error(`the lockstep worker does not hold program ${msg.programId}`), { name: 'DeviceError' });
    const outputs = M.interpretProgram(program, msg.inputs);
    reply({ id: msg.id, outputs }, outputs.map((o) => o.data.buffer));
  } catch (e) {
    reply({ id: msg.id, error: { name: e?.name ?? 'Error', message: e?.message ?? String(e) } });
  }
}

if (isNode) {
  import('node:worker_threads').then(({ parentPort, workerData }) => {
    resolveInit(workerData ?? {});
    parentPort.on('message', (msg) => handle(msg, (m, t) => parentPort.postMessage(m, t)));
  });
} else {
  self.onmessage = (e) => handle(e.data, (m, t) => self.postMessage(m, t));
}
