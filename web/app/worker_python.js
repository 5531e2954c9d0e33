// Python in one of the page's workers (the checker's sandbox, the
// playground), started from Pyodide's files the page handed over
// (pyodide_sources.js): such a worker fetches nothing of Pyodide itself.

import { loadPyodide } from 'pyodide';
import { pythonFiles } from '../python/files_vite.js';
import { handedPyodideOptions } from '../python/handed_pyodide.js';
import { startPython } from '../python/host.js';

/** Pyodide with the `jax` package (host.js startPython), from the handed-over `sources`; `options` as loadPyodide's (stdout, stderr). */
export async function startHandedPython(sources, options) {
  return startPython(loadPyodide, pythonFiles(), await handedPyodideOptions(sources, options));
}
