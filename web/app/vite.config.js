// The checker page: `npm run dev:app` (dev server) and `npm run build:app`
// (a static site in build/app). Both servers send the two headers that make
// the page cross-origin isolated, so the devices are 8 Web Worker threads.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('../../', import.meta.url));
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  resolve: { alias: { shardlab: `${root}web/lib/index.js` } },
  server: { headers: isolation, fs: { allow: [root] } },
  preview: { headers: isolation },
  worker: { format: 'es' },
  build: { outDir: `${root}build/app`, emptyOutDir: true, target: 'es2022' },
});
