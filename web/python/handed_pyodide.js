// Pyodide started from files handed over instead of fetched: the page's
// sandbox worker may open no connection, so the page fetches Pyodide's core
// files once and posts them. Pyodide's loader fetches its wasm and standard
// library from `indexURL`; here those requests are answered from the
// handed-over bytes (every other request still goes to the network, which the
// worker's policy refuses), and its script module is imported from a blob.

const INDEX_URL = 'https://pyodide.invalid/';

/**
 * loadPyodide's options for handed-over `sources` ({asm: the text of
 * pyodide.asm.mjs, wasm and stdlib: ArrayBuffers of pyodide.asm.wasm and
 * the standard library's zip, lock: pyodide-lock.json's object}), merged into `options`.
 */
export async function handedPyodideOptions(sources, options = {}) {
  const files = {
    [`${INDEX_URL}pyodide.asm.wasm`]: { body: sources.wasm, type: 'application/wasm' },
    [`${INDEX_URL}python_stdlib.zip`]: { body: sources.stdlib, type: 'application/zip' },
  };
  const fetchFromNetwork = globalThis.fetch.bind(globalThis);
  globalThis.fetch = (url, init) => {
    const file = files[String(url)];
    return file ? Promise.resolve(new Response(file.body, { headers: { 'Content-Type': file.type } })) : fetchFromNetwork(url, init);
  };
  const url = URL.createObjectURL(new Blob([sources.asm], { type: 'text/javascript' }));
  try {
    const { default: createPyodideModule } = await import(/* @vite-ignore */ url);
    return { ...options, indexURL: INDEX_URL, lockFileContents: sources.lock, createPyodideModule };
  } finally {
    URL.revokeObjectURL(url);
  }
}
