// The page's side of its sandbox worker (sandbox_worker.js): a Sandbox
// (web/checker/sandbox.js) over a fresh module worker holding the learner's
// code. The worker's end — a crash, or its own self.close() — is seen at
// once through a Web Lock it holds from before the learner's code loads:
// the page's request for the same lock is granted when the worker goes.
// The worker's policy allows it no connections (headers.js), so the page
// hands it the module it runs, fetched and compiled once here.

import { moduleSources } from 'shardlab';
import { Sandbox } from '../checker/sandbox.js';

let sources = null;

/** A Sandbox running `code` (a module whose default export is the solution). */
export function startPageSandbox(code) {
  const worker = new Worker(new URL('./sandbox_worker.js', import.meta.url), { type: 'module' });
  const lock = `shardlab-sandbox-${crypto.randomUUID()}`;
  let gone = false;
  const sandbox = new Sandbox({
    post: (m) => worker.postMessage(m),
    kill: () => {
      gone = true;
      worker.terminate();
    },
  });
  const end = (how) => {
    if (gone) return;
    gone = true;
    sandbox.exited(how);
  };
  let watching = false;
  worker.onmessage = (e) => {
    // The worker sends nothing before it holds the lock.
    if (!watching) {
      watching = true;
      navigator.locks.request(lock, () => end('it closed'));
    }
    sandbox.receive(e.data);
  };
  worker.onmessageerror = () => sandbox.receive(undefined);
  worker.onerror = (e) => {
    e.preventDefault();
    end(`it crashed: ${e.message}`);
  };
  sources ??= moduleSources();
  sources.then(
    (module) => worker.postMessage({ init: { code, lock, sources: module } }),
    (e) => {
      sources = null; // try again next time
      end(`it could not be given the module: ${e.message}`);
    },
  );
  return sandbox;
}
