// The checker page: `npm run dev:app` (dev server) and `npm run build:app`
// (a static site in build/app). Both servers send the page's headers
// (headers.js): the two that make the page cross-origin isolated, so the
// devices are 8 Web Worker threads, and its Content-Security-Policy.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { PAGE_HEADERS } from './headers.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  resolve: { alias: { shardlab: `${root}web/lib/index.js` } },
  server: { headers: PAGE_HEADERS, fs: { allow: [root] } },
  preview: { headers: PAGE_HEADERS },
  worker: { format: 'es' },
  build: { outDir: `${root}build/app`, emptyOutDir: true, target: 'es2022' },
});
