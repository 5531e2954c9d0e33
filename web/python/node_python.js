// Python in Node: Pyodide with the `jax` package read from disk and the
// standard library as bytecode (scripts/compile_python_stdlib.mjs builds it;
// from source, Python would compile it on every start).

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadPyodide } from 'pyodide';
import { startPython } from './host.js';

const ROOT = fileURLToPath(new URL('./', import.meta.url));
const STDLIB = join(ROOT, 'stdlib_bytecode.zip');

// {path relative to web/python: text} of every .py file of the packages (jax, numpy) and the host's helper.
function pythonFiles() {
  const files = {};
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.py')) files[relative(ROOT, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(join(ROOT, 'jax'));
  walk(join(ROOT, 'numpy'));
  files['shardlab_host.py'] = readFileSync(join(ROOT, 'shardlab_host.py'), 'utf8');
  return files;
}

/** startPython (host.js) in Node; `options` go to loadPyodide (stdout, stderr, ...). */
export async function startNodePython(options = {}) {
  if (!existsSync(STDLIB)) throw new Error(`${STDLIB} is missing: build it with \`npm run build\` (scripts/compile_python_stdlib.mjs)`);
  return startPython(loadPyodide, pythonFiles(), { stdLibURL: STDLIB, ...options });
}
