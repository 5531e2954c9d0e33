// The lockstep worker: loads the module without threads and runs programs on
// host arrays, stepping every device through each equation (exec/lockstep_shard_map.h).
// A program arrives once, as its JSON form, rebuilt by the core's reader
// (ir/forms/json_read.h) and kept under its id until the page releases it; its
// outputs stay here under the ids the page gave them (resident arrays, each
// a global value {dtype, shape, data}) until the page reads or releases
// them, and a later run names them instead of sending them again. Works as
// a browser module worker and as a Node worker_thread. (No top-level await:
// bundlers may emit workers as scripts.)

import { instantiateModule, isNode } from './load_module.js';

// The page's own programs, read without the limits untrusted ones get.
const TRUSTED = { maxTextBytes: 2 ** 31, maxEquations: 2 ** 31, maxValueBytes: 2 ** 53, maxTotalBytes: 2 ** 53, maxWork: 1e300 };
// Programs already rebuilt, and resident arrays, by id.
const programs = new Map();
const arrays = new Map();
let resolveInit;
const options = new Promise((r) => (resolveInit = r));
const Module = options.then(({ memoryMB }) =>
  instantiateModule(memoryMB ? { INITIAL_MEMORY: memoryMB * 1024 * 1024 } : {}, { threads: false }),
);

function resident(id) {
  const a = arrays.get(id);
  if (!a) throw Object.assign(new Error(`the lockstep worker does not hold array ${id}`), { name: 'DeviceError' });
  return a;
}

async function handle(msg, reply) {
  if (msg.init) {
    resolveInit(msg.init);
    return;
  }
  try {
    const M = await Module;
    if (msg.ping) {
      reply({ id: msg.id, result: [] });
      return;
    }
    if (msg.timeline) {
      // After the runs posted before it: messages are handled in order.
      reply({ id: msg.id, result: msg.timeline === 'arm' ? (M.armTimeline(), []) : M.takeTimeline() });
      return;
    }
    if (msg.debug) {
      reply({ id: msg.id, result: M.takeDebugRecords() });
      return;
    }
    if (msg.release) {
      programs.get(msg.release)?.delete();
      programs.delete(msg.release);
      return;
    }
    if (msg.releaseArray) {
      arrays.delete(msg.releaseArray);
      return;
    }
    if (msg.read) {
      reply({ id: msg.id, result: resident(msg.read).data }); // a copy: it stays here
      return;
    }
    if (msg.json) {
      programs.get(msg.programId)?.delete(); // sent again after a failed run
      programs.set(msg.programId, M.programFromJson(msg.json, TRUSTED));
    }
    const program = programs.get(msg.programId);
    if (!program) throw Object.assign(new Error(`the lockstep worker does not hold program ${msg.programId}`), { name: 'DeviceError' });
    const outputs = M.interpretProgram(program, msg.inputs.map((x) => (x.ref ? resident(x.ref) : x)));
    outputs.forEach((o, i) => arrays.set(msg.outIds[i], o));
    reply({ id: msg.id, result: outputs.map(({ dtype, shape }) => ({ dtype, shape })) });
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
