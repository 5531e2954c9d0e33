// One warm Python (Pyodide with the jax package) per test file, as the
// checker's sandbox starts it, and the helpers the Python tests share.
import { startNodePython } from '../../web/python/node_python.js';
import { pythonSolution } from '../../web/python/solution.js';

let python = null;
const output = [];

/** The warm Python of this test file (started on first use); its prints are collected in `printed()`. */
export function warmPython() {
  python ??= startNodePython({ stdout: (s) => output.push(s), stderr: (s) => output.push(s) });
  return python;
}

/** What Python printed since the last call. */
export function printed() {
  return output.splice(0).join('\n');
}

/** The JS function of Python `source`'s function `name` (as the sandbox loads it). */
export async function pythonFunction(source, name = 'solution', filename = 'solution.py') {
  return pythonSolution(await warmPython(), source, filename, name);
}

/** Runs Python `code` in a fresh namespace; returns the value of its last expression (as Python's repr). */
export async function runPython(code) {
  const py = await warmPython();
  const ns = py.globals.get('dict')();
  try {
    const v = py.runPython(code, { globals: ns });
    return v?.toString?.() ?? v;
  } finally {
    ns.destroy();
  }
}
