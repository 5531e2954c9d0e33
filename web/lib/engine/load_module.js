// Loads the Emscripten module (web/lib/wasm/shardlab_wasm.js, a UMD script
// built by CMake) in Node, in a page and in a worker, and returns the factory.

const WASM_DIR = new URL('../wasm/', import.meta.url);

/** True when running under Node.js (main thread or worker_thread). */
export const isNode = typeof process === 'object' && !!process.versions?.node && typeof window === 'undefined';

/**
 * Instantiates the module with the given Module overrides.
 * In Node the .js is required (it is CommonJS) and the .wasm read from disk;
 * in browsers the script text is fetched and evaluated, and the pthread
 * workers are told where the script lives (mainScriptUrlOrBlob). `sources`
 * (from moduleSources, browsers only) is the module already fetched: then
 * nothing is fetched here, for a worker whose policy allows no connections.
 * `testBuild` (with threads: web/lib/testing.js) loads the test build, which
 * adds the test hooks (submitFault, submitRepeated) to the same module.
 */
export async function instantiateModule(overrides, { threads = true, sources, testBuild = false } = {}) {
  if (testBuild && !threads) throw new Error('shardlab: the test build of the module has threads');
  const name = testBuild ? 'shardlab_wasm_test' : threads ? 'shardlab_wasm' : 'shardlab_wasm_st';
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
  if (sources) {
    if (threads) throw new Error('shardlab: a module handed over (sources) runs without threads');
    return instantiateFrom(sources, overrides);
  }
  const urls = testBuild ? testModuleUrls() : moduleUrls(threads);
  const workerUrl = threads ? await sameOrigin(urls.worker) : null;
  const factory = evaluate(await fetchText(urls.script));
  const files = { [`${name}.wasm`]: urls.wasm, [`${name}.worker.js`]: workerUrl };
  return factory({
    mainScriptUrlOrBlob: urls.script,
    locateFile: (path) => files[path] ?? new URL(path, WASM_DIR).href,
    ...overrides,
  });
}

/**
 * The module without threads, fetched and compiled here ({script, wasm}: the
 * script's text and a WebAssembly.Module), to hand to a worker (postMessage)
 * that runs it with init({executor: 'lockstep', sources, blocking: true}).
 */
export async function moduleSources() {
  const urls = moduleUrls(false);
  const [script, bytes] = await Promise.all([fetchText(urls.script), fetchBytes(urls.wasm)]);
  return { script, wasm: await WebAssembly.compile(bytes) };
}

// Literal `new URL(..., import.meta.url)` calls, so bundlers (Vite) see and
// ship the files next to the bundle.
function moduleUrls(threads) {
  if (threads) {
    return {
      script: new URL('../wasm/shardlab_wasm.js', import.meta.url).href,
      wasm: new URL('../wasm/shardlab_wasm.wasm', import.meta.url).href,
      worker: new URL('../wasm/shardlab_wasm.worker.js', import.meta.url).href,
    };
  }
  return {
    script: new URL('../wasm/shardlab_wasm_st.js', import.meta.url).href,
    wasm: new URL('../wasm/shardlab_wasm_st.wasm', import.meta.url).href,
  };
}

// The test build's files, which the package does not ship: no literal
// `new URL` a bundler would follow.
function testModuleUrls() {
  const url = (suffix) => new URL(`shardlab_wasm_test${suffix}`, WASM_DIR).href;
  return { script: url('.js'), wasm: url('.wasm'), worker: url('.worker.js') };
}

async function fetchOk(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`shardlab: cannot fetch ${url} (HTTP ${response.status}); build it with 'npm run build'`);
  return response;
}
const fetchText = async (url) => (await fetchOk(url)).text();
const fetchBytes = async (url) => (await fetchOk(url)).arrayBuffer();

// The script declares `var createShardLabModule = ...`; evaluate it in a function scope.
function evaluate(script) {
  return new Function(`${script}\nreturn createShardLabModule;`)();
}

// Instantiates the handed-over module. Emscripten waits for instantiateWasm's
// callback and would wait forever if instantiation failed, so that failure
// rejects here.
function instantiateFrom({ script, wasm }, overrides) {
  if (typeof script !== 'string' || !(wasm instanceof WebAssembly.Module)) {
    throw new TypeError('shardlab: sources must be {script: string, wasm: WebAssembly.Module} (from moduleSources())');
  }
  let failed;
  const failure = new Promise((_, reject) => (failed = reject));
  const ready = evaluate(script)({
    ...overrides,
    instantiateWasm(imports, done) {
      WebAssembly.instantiate(wasm, imports).then((instance) => done(instance, wasm), failed);
      return {};
    },
  });
  return Promise.race([ready, failure]);
}

// A bundler may inline a small file as a data: URL; a worker started from one
// has an opaque origin and cannot load the module, so make it a blob: URL.
async function sameOrigin(url) {
  if (!url.startsWith('data:')) return url;
  const text = await (await fetch(url)).text();
  return URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));
}
