// Python on ShardLab: starts Pyodide, installs the `jax` package of
// web/python/jax (pure Python, a binding over the JS API), and gives the
// JS module `_shardlab` it imports: the JS API (`sl`) and the few checks a
// binding cannot make from Python. Used by the checker's sandbox (to trace a
// learner's function) and by `shardlab run` (to run a script).

import * as sl from '../lib/index.js';
import * as arrayText from '../lib/api/core/array_text.js';
import { printFormat } from '../lib/api/core/debug_print.js';
import { DTYPE_INFO } from '../lib/dtypes.js';
import { camelCase } from '../lib/names.js';

/** Where the package goes in Pyodide's file system (put on sys.path). */
const PACKAGE_ROOT = '/lib/shardlab';

/**
 * A Python function's flat results and their treedef, as a JS tree node
 * whose aux is the treedef (opaque here): a jit's traced program keeps it
 * with its output structure, so the JS cache, the one jit cache, gives
 * Python back its structure with each call's outputs.
 */
class PythonTree {
  constructor(leaves, treedef) {
    this.leaves = leaves;
    this.treedef = treedef;
  }

  treeFlatten() {
    return [this.leaves, this.treedef];
  }

  static treeUnflatten(treedef, leaves) {
    return new PythonTree(leaves, treedef);
  }
}

/** What Python's binding reads from JS besides the API: which values are arrays, PythonTree, how JS spells JAX's names, the dtypes, how arrays and jax.debug.print print. */
const BRIDGE = {
  PythonTree,
  arrayText,
  printFormat,
  camelCase,
  dtypes: DTYPE_INFO,
  sl,
  isTracer: (x) => x instanceof sl.Tracer,
  isArray: (x) => x instanceof sl.Tracer || x instanceof sl.Array,
  isJsArray: (x) => Array.isArray(x),
  isKey: (x) => x instanceof sl.random.KeyArray,
  /** A JS Error with `name` and `message` (how a Python exception leaves a traced function). */
  error: (name, message) => Object.assign(new Error(message), { name }),
};

/**
 * Starts Python: `loadPyodide` is pyodide's loader, `options` its options
 * (indexURL, stdout, stderr, ...), `files` the package as {relative path:
 * text} (node_python.js reads them from disk; files_vite.js bundles them). Resolves to the
 * Pyodide API with the package importable (`import jax`).
 */
export async function startPython(loadPyodide, files, options = {}) {
  const pyodide = await loadPyodide(options);
  for (const [path, text] of Object.entries(files)) {
    const full = `${PACKAGE_ROOT}/${path}`;
    pyodide.FS.mkdirTree(full.slice(0, full.lastIndexOf('/')));
    pyodide.FS.writeFile(full, text);
  }
  pyodide.registerJsModule('_shardlab', BRIDGE);
  pyodide.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(PACKAGE_ROOT)})`);
  return pyodide;
}
