// The lockstep worker: loads the module without threads and runs programs
// sent as their JSON form on host arrays, stepping every device through each
// equation (exec/lockstep.h). Works as a browser module worker and as a Node
// worker_thread. (No top-level await: bundlers may emit workers as scripts.)

import { instantiateModule, isNode } from './load_module.js';
import { replayProgram } from './replay.js';

// Programs already rebuilt, by their JSON text (a jit function sends the same one each call).
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
    let program = programs.get(msg.json);
    if (!program) {
      program = replayProgram(M, JSON.parse(msg.json));
      if (programs.size >= 64) {
        const [key, old] = programs.entries().next().value;
        old.delete();
        programs.delete(key);
      }
      programs.set(msg.json, program);
    }
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
