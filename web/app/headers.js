// The HTTP headers the checker page is served with: one definition for the
// Vite dev and preview servers (vite.config.js) and scripts/serve.mjs, and
// the list a static host must send (README, "The checker page").

/** The two headers that make a page cross-origin isolated: SharedArrayBuffer, hence 8 device threads. */
export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/**
 * The Content-Security-Policy: scripts only from the site's own files, no
 * inline script and no event-handler attribute, so markup that got into the
 * page could not run. Each source beyond 'self' is there because the page
 * fails without it (measured in Chromium with Emscripten 3.1.6):
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  // 'unsafe-eval': Embind as Emscripten 3.1.6 builds it makes its function
  // wrappers with new Function at startup (EvalError without it, even with the
  // module's script loaded by <script src>), and engine/load_module.js
  // evaluates that script with new Function. It covers compiling the
  // WebAssembly too, so 'wasm-unsafe-eval' would add nothing.
  // blob:: the solution worker imports the learner's code from a blob: URL.
  "script-src 'self' 'unsafe-eval' blob:",
  // blob:: the pthread worker script, which a bundler inlines as a data: URL
  // (Vite: under 4 KiB), is started from a blob: URL made from it.
  "worker-src 'self' blob:",
  // data:: that data: URL is read with fetch to make the blob.
  "connect-src 'self' data:",
  // 'unsafe-inline': KaTeX's style attributes and CodeMirror's <style> element.
  "style-src 'self' 'unsafe-inline'",
  // data:: the KaTeX fonts small enough for the bundler to inline.
  "font-src 'self' data:",
  // data:: inlined images, and the test pages' empty icon (href="data:,").
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  // No other site may frame the page (a framed checker could be dressed as another, or clicked through).
  "frame-ancestors 'none'",
].join('; ');

/** Every header of the page: isolation, the CSP, and X-Frame-Options for browsers that predate frame-ancestors. */
export const PAGE_HEADERS = { ...ISOLATION_HEADERS, 'Content-Security-Policy': CONTENT_SECURITY_POLICY, 'X-Frame-Options': 'DENY' };

/**
 * The CSP of the sandbox worker, where the learner's code runs
 * (sandbox_worker.js), sent with its script: a dedicated worker obeys the
 * policy of its own script's response, not the page's. It may run its own
 * script, the learner's module (blob:) and the module the page hands it
 * ('unsafe-eval', as the page's), and nothing else: default-src 'none'
 * leaves it no connection of any kind (fetch, XMLHttpRequest, WebSocket,
 * EventSource), worker-src 'none' no nested worker (without it a worker from
 * a blob: URL falls back to script-src and starts), and no import of the site's other scripts,
 * whose chunks hold the problems. The built worker is one file with no
 * imports, so this policy needs no 'self'.
 */
export const SANDBOX_WORKER_POLICY = ["default-src 'none'", "script-src blob: 'unsafe-eval'", "worker-src 'none'"].join('; ');

/**
 * The same under Vite's dev server, which serves the worker's imports one
 * module at a time from the site: 'self' scripts too (so there the learner's
 * code could import the app's modules; the built page is what is published).
 */
export const DEV_SANDBOX_WORKER_POLICY = ["default-src 'none'", "script-src 'self' blob: 'unsafe-eval'", "worker-src 'none'"].join('; ');

/**
 * Whether a request path names the sandbox worker's script: built,
 * assets/sandbox_worker-<hash>.js; under the dev server, /sandbox_worker.js
 * (with ?worker_file&type=module).
 */
export function isSandboxWorker(path) {
  return /(^|\/)sandbox_worker(-[\w-]+)?\.js$/.test(path.split(/[?#]/, 1)[0]);
}

/** The headers for the response to `path`: the page's, with the sandbox worker's CSP for its script. */
export function headersFor(path, { dev = false } = {}) {
  if (!isSandboxWorker(path)) return PAGE_HEADERS;
  return { ...PAGE_HEADERS, 'Content-Security-Policy': dev ? DEV_SANDBOX_WORKER_POLICY : SANDBOX_WORKER_POLICY };
}
