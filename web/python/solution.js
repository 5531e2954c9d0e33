// A learner's Python solution as the checker's sandbox traces it: loaded in
// a fresh module of a running Python (host.js), and wrapped as a JS function
// whose calls run the Python function on the JS arguments (tracers) and
// return its result, or throw its exception as the learner would see it
// (type, message and the learner's own lines).

/**
 * The JS function of the Python function `functionName` (or the one public
 * function) of `source` (from file `filename`), in `py` (startPython's).
 * Throws an Error with the learner's traceback when the file cannot be
 * loaded (a syntax error, an exception at import, no such function).
 * Call `dispose()` on the function when done with it.
 */
export function pythonSolution(py, source, filename, functionName) {
  const host = py.pyimport('shardlab_host');
  let loaded;
  try {
    loaded = host.solution_caller(source, filename, functionName);
  } finally {
    host.destroy();
  }
  if (typeof loaded.error === 'string') throw new Error(loaded.error);
  const caller = loaded.call;
  const solution = (...args) => {
    const r = caller(args);
    if (r.error) throw Object.assign(new Error(r.error.message), { name: r.error.name });
    return r.value;
  };
  solution.dispose = () => caller.destroy();
  return solution;
}
