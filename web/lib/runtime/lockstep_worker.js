// The lockstep worker: loads the module without threads and runs programs
// sent as their JSON form on host arrays, stepping every device through each
// equation (exec/lockstep.h). Works as a browser module worker and as a Node
// worker_thread.

import { instantiateModule, isNode } from './load_module.js';
import { replayProgram } from './replay.js';

const port = isNode ? (await import('node:worker_threads')).parentPort : self;
const listen = (f) => (isNode ? port.on('message', f) : (self.onmessage = (e) => f(e.data)));

let resolveInit;
const init = isNode ? Promise.resolve((await import('node:worker_threads')).workerData ?? {}) : new Promise((r) => (resolveInit = r));
const Module = init.then(({ memoryMB }) =>
  instantiateModule(memoryMB ? { INITIAL_MEMORY: memoryMB * 1024 * 1024 } : {}, { threads: false }),
);

// Programs already rebuilt, by their JSON text (a jit function sends the same one each call).
const programs = new Map();

listen(async (msg) => {
  if (msg.init) {
    resolveInit(msg.init);
    return;
  }
  try {
    const M = await Module;
    if (msg.ping) {
      port.postMessage({ id: msg.id, outputs: [] });
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
    port.postMessage({ id: msg.id, outputs }, outputs.map((o) => o.data.buffer));
  } catch (e) {
    port.postMessage({ id: msg.id, error: { name: e?.name ?? 'Error', message: e?.message ?? String(e) } });
  }
});
