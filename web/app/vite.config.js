// The checker page: `npm run dev:app` (dev server) and `npm run build:app`
// (a static site in build/app). Both servers send the page's headers
// (headers.js): the two that make the page cross-origin isolated, so the
// devices are 8 Web Worker threads, and its Content-Security-Policy; the
// sandbox worker's script gets its own, stricter policy.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { headersFor, isSandboxWorker, PAGE_HEADERS } from './headers.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

// Middleware giving the sandbox worker's script its policy: Vite sets the
// configured headers in several places (setHeader, and writeHead's object),
// so the policy is forced in both for that response.
function sandboxWorkerPolicy({ dev }) {
  return (req, res, next) => {
    if (isSandboxWorker(req.url ?? '')) {
      const csp = headersFor(req.url, { dev })['Content-Security-Policy'];
      const isCsp = (name) => String(name).toLowerCase() === 'content-security-policy';
      const setHeader = res.setHeader.bind(res);
      const writeHead = res.writeHead.bind(res);
      res.setHeader = (name, value) => setHeader(name, isCsp(name) ? csp : value);
      res.writeHead = (code, ...rest) => {
        const fields = rest.find((r) => r && typeof r === 'object');
        for (const name of Object.keys(fields ?? {})) if (isCsp(name)) fields[name] = csp;
        return writeHead(code, ...rest);
      };
      setHeader('Content-Security-Policy', csp);
    }
    next();
  };
}

export default defineConfig({
  plugins: [
    {
      name: 'sandbox-worker-policy',
      configureServer: (server) => void server.middlewares.use(sandboxWorkerPolicy({ dev: true })),
      configurePreviewServer: (server) => void server.middlewares.use(sandboxWorkerPolicy({ dev: false })),
    },
  ],
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  resolve: { alias: { shardlab: `${root}web/lib/index.js` } },
  server: { headers: PAGE_HEADERS, fs: { allow: [root] } },
  preview: { headers: PAGE_HEADERS },
  // Pyodide is loaded as its files, handed to the sandbox worker (pyodide_sources.js), not pre-bundled.
  optimizeDeps: { exclude: ['pyodide'] },
  worker: { format: 'es' },
  build: { outDir: `${root}build/app`, emptyOutDir: true, target: 'es2022' },
});
