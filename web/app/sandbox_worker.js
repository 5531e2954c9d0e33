// The page's sandbox: a module worker where the learner's code runs, only to
// be traced (web/checker/sandbox_serve.js). Its bundle holds no problem data:
// the page sends the code, then asks for traces at argument shapes, and
// computes every verdict itself from the programs it gets back.

import * as sl from 'shardlab';
import { serveSandbox } from '../checker/sandbox_serve.js';

globalThis.__shardlab = sl;

// `import * as sl from 'shardlab'` and `import { P } from 'shardlab'` become
// reads of this worker's instance (a module from a blob cannot import by name).
function bindImports(code) {
  return code
    .replace(/import\s+\*\s+as\s+(\w+)\s+from\s+['"]shardlab['"];?/g, 'const $1 = globalThis.__shardlab;')
    .replace(/import\s+\{([^}]*)\}\s+from\s+['"]shardlab['"];?/g, (_, names) => `const {${names.replace(/\s+as\s+/g, ': ')}} = globalThis.__shardlab;`);
}

let started = false;

self.onmessage = async ({ data }) => {
  if (!data?.init || started) return;
  started = true;
  let receive = null;
  self.onmessage = ({ data: m }) => receive?.(m);
  // Held until this worker goes (even by self.close()): how the page knows it has.
  await new Promise((held) => navigator.locks.request(data.init.lock, () => (held(), new Promise(() => {}))));
  serveSandbox({
    sources: data.init.sources,
    post: (m) => self.postMessage(m),
    onMessage: (f) => {
      receive = f;
    },
    async load() {
      let mod;
      const url = URL.createObjectURL(new Blob([bindImports(data.init.code)], { type: 'text/javascript' }));
      try {
        mod = await import(/* @vite-ignore */ url);
      } catch (e) {
        throw new Error(`your code does not load: ${e.name}: ${e.message}`);
      } finally {
        URL.revokeObjectURL(url);
      }
      if (typeof mod.default !== 'function') throw new Error('your code has no default export: write `export default function solve(...) { ... }`');
      return mod.default;
    },
  });
};
