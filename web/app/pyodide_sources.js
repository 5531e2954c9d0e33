// Pyodide's core files, from this site (Vite copies them from the pyodide
// npm package next to the bundle: nothing comes from a CDN), fetched once by
// the page and handed to the Python sandbox worker, which may not fetch. The
// standard library is the build's bytecode one (scripts/compile_python_stdlib.mjs).

import asmUrl from 'pyodide/pyodide.asm.mjs?url';
import wasmUrl from 'pyodide/pyodide.asm.wasm?url';
import stdlibUrl from '../python/stdlib_bytecode.zip?url';
import lock from 'pyodide/pyodide-lock.json';

let fetched = null;

// The body of `url` as an ArrayBuffer, reporting bytes received to `onBytes`.
async function fetchBytes(url, onBytes) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot fetch ${url} (HTTP ${response.status})`);
  const chunks = [];
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    onBytes(value.length);
  }
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out.buffer;
}

/**
 * The sources handedPyodideOptions takes ({asm, wasm, stdlib, lock}),
 * fetched once per page; `onProgress(fraction)` follows the download
 * (about 14 MB: the wasm and the standard library).
 */
function pyodideSources(onProgress = () => {}) {
  if (!fetched) {
    const TOTAL = 14.1e6; // bytes of the wasm and the stdlib, for the progress only
    let received = 0;
    const onBytes = (n) => onProgress(Math.min(1, (received += n) / TOTAL));
    fetched = Promise.all([fetch(asmUrl).then((r) => r.text()), fetchBytes(wasmUrl, onBytes), fetchBytes(stdlibUrl, onBytes)]).then(
      ([asm, wasm, stdlib]) => ({ asm, wasm, stdlib, lock }),
      (e) => {
        fetched = null; // try again next time
        throw e;
      },
    );
  }
  return fetched;
}

/**
 * pyodideSources for a worker about to start Python, telling `onStatus`
 * ({stage, fraction}) how far it got: 'Loading Python…' with the download's
 * fraction, then 'Starting Python…' once the files are here (the worker says
 * when Python is ready).
 */
export function pythonSourcesWithStatus(onStatus) {
  return pyodideSources((f) => onStatus({ stage: 'Loading Python…', fraction: f })).then((sources) => {
    onStatus({ stage: 'Starting Python…' });
    return sources;
  });
}

/** A Python start status as the page shows it: "Loading Python… 42%". */
export const statusText = ({ stage, fraction }) => (fraction === undefined ? stage : `${stage} ${Math.round(fraction * 100)}%`);
