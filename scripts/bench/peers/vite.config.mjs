// Builds the peer benchmark's page (page.html) into build/bench/peers: Vite
// resolves the peers' packages (tfjs-core's ES build imports its files
// without extensions, which a browser cannot load as they are) and ShardLab.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  resolve: { alias: { shardlab: `${root}web/lib/index.js` } },
  worker: { format: 'es' },
  logLevel: 'error',
  // Not minified: TF.js's threaded backend starts its pthread workers from a copy of its own factory's source, which must keep its names.
  build: { outDir: `${root}build/bench/peers`, emptyOutDir: true, target: 'es2022', minify: false, rollupOptions: { input: fileURLToPath(new URL('page.html', import.meta.url)) } },
});
