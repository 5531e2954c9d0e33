// Loads the Emscripten module (web/lib/wasm/shardlab_wasm.js, a UMD script
// built by CMake) in Node, in a page and in a worker, and returns the factory.

const WASM_DIR = new URL('../wasm/', import.meta.url);

/** True when running under Node.js (main thread or worker_thread). */
export const isNode = typeof process === 'object' && !!process.versions?.node && typeof window === 'undefined';

/**
 * Instantiates the module with the given Module overrides.
 * In Node the .js is required (it is CommonJS) and the .wasm read from disk;
 * in browsers the script text is fetched and evaluated, and the pthread
 * workers are told where the script lives (mainScriptUrlOrBlob).
 */
export async function instantiateModule(overrides, { threads = true } = {}) {
  const name = threads ? 'shardlab_wasm' : 'shardlab_wasm_st';
  if (isNode) {
    const { createRequire } = await import('node:module');
    const { readFileSync } = await import('node:fs');
    const { fileURLToPath } = await import('node:url');
    const require = createRequire(import.meta.url);
    const jsPath = fileURLToPath(new URL(`${name}.js`, WASM_DIR));
    let factory;
    try {
      factory = require(jsPath);
    } catch (e) {
      throw new Error(`shardlab: cannot load ${jsPath} (${e.message}); build it with 'npm run build'`);
    }
    const wasmBinary = readFileSync(fileURLToPath(new URL(`${name}.wasm`, WASM_DIR)));
    return factory({ wasmBinary, ...overrides });
  }
  // Literal `new URL(..., import.meta.url)` calls, so bundlers (Vite) see and
  // ship the three files next to the bundle.
  const scriptUrl = threads
    ? new URL('../wasm/shardlab_wasm.js', import.meta.url).href
    : new URL('../wasm/shardlab_wasm_st.js', import.meta.url).href;
  const wasmUrl = threads
    ? new URL('../wasm/shardlab_wasm.wasm', import.meta.url).href
    : new URL('../wasm/shardlab_wasm_st.wasm', import.meta.url).href;
  const workerUrl = threads ? await sameOrigin(new URL('../wasm/shardlab_wasm.worker.js', import.meta.url).href) : null;
  const response = await fetch(scriptUrl);
  if (!response.ok) throw new Error(`shardlab: cannot fetch ${scriptUrl} (HTTP ${response.status}); build it with 'npm run build'`);
  const text = await response.text();
  // The script declares `var createShardLabModule = ...`; evaluate it in a function scope.
  const factory = new Function(`${text}\nreturn createShardLabModule;`)();
  const files = { [`${name}.wasm`]: wasmUrl, [`${name}.worker.js`]: workerUrl };
  return factory({
    mainScriptUrlOrBlob: scriptUrl,
    locateFile: (path) => files[path] ?? new URL(path, WASM_DIR).href,
    ...overrides,
  });
}

// A bundler may inline a small file as a data: URL; a worker started from one
// has an opaque origin and cannot load the module, so make it a blob: URL.
async function sameOrigin(url) {
  if (!url.startsWith('data:')) return url;
  const text = await (await fetch(url)).text();
  return URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));
}
