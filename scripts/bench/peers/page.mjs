// The Chromium half of the peer benchmark (built by vite.config.mjs, driven
// by scripts/bench/chromium.mjs): ShardLab on its 8 devices (Web Workers),
// TensorFlow.js's wasm backend with threads and SIMD, and jax-js with its
// worker pool, each in its best configuration in a cross-origin isolated
// page, measured by the same code as in Node (measure.mjs).
import { makeHost } from './host.mjs';
import { measure } from './measure.mjs';
import * as shardlab from './shardlab.mjs';
import * as tfjs from './tfjs.mjs';
import * as jaxjs from './jaxjs.mjs';

const level = new URLSearchParams(location.search).get('level') ?? 'full';
try {
  if (!crossOriginIsolated) throw new Error('the page is not cross-origin isolated');
  const configs = {
    shardlab: await shardlab.load({ devices: 8 }),
    tfjs: await tfjs.load({ wasmPaths: '/node_modules/@tensorflow/tfjs-backend-wasm/dist/' }),
    jaxjs: await jaxjs.load(),
  };
  const host = { shardlab: makeHost(shardlab), tfjs: makeHost(tfjs), jaxjs: makeHost(jaxjs) };
  const libraries = [
    { impl: 'shardlab', ask: () => host.shardlab },
    { impl: 'tfjs-wasm', ask: () => host.tfjs },
    { impl: 'jax-js', ask: () => host.jaxjs },
  ];
  window.__bench = { rows: await measure(libraries, { level }), configs };
} catch (e) {
  window.__bench = { error: String(e?.stack ?? e) };
}
document.getElementById('status').textContent = 'done';
