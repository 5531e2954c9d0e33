// TensorFlow.js's side of the peer cases (cases.mjs), on its wasm backend
// (XNNPACK): idiomatic TF.js, gradients by tf.grads; the backend is
// synchronous, so a call has finished when it returns.
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-core/dist/register_all_gradients.js';
import { getThreadsCount, setThreadsCount, setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { caseHandle, LR } from './cases.mjs';

/**
 * Selects the wasm backend (in a page, `wasmPaths` says where its .wasm files
 * are served); says what it runs: threads (TF.js uses them only in a
 * cross-origin isolated page, never in Node) and SIMD.
 */
export async function load({ wasmPaths } = {}) {
  if (wasmPaths) setWasmPaths(wasmPaths);
  // Its default is half the cores (one here); a thread per core is its best on this machine.
  if (globalThis.crossOriginIsolated) setThreadsCount(navigator.hardwareConcurrency);
  await tf.setBackend('wasm');
  await tf.ready();
  const simd = await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT');
  const threaded = await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT');
  return { backend: `${tf.getBackend()}, ${getThreadsCount()} thread${getThreadsCount() > 1 ? 's' : ''} (${threaded ? 'threaded' : 'single-threaded'} binary), ${simd ? 'SIMD' : 'no SIMD'}` };
}

/** The case's function of the input tensors, returning {key: tensor}. */
function program(name) {
  if (name.startsWith('matmul')) return (a, b) => ({ c: tf.matMul(a, b) });
  if (name === 'mlp-train-step') {
    const loss = (x, y) => (w1, b1, w2, b2) => tf.mean(tf.square(tf.sub(tf.add(tf.matMul(tf.relu(tf.add(tf.matMul(x, w1), b1)), w2), b2), y)));
    return (w1, b1, w2, b2, x, y) => {
      const g = tf.grads(loss(x, y))([w1, b1, w2, b2]);
      const p = [w1, b1, w2, b2].map((v, i) => tf.sub(v, tf.mul(g[i], LR)));
      return { w1: p[0], b1: p[1], w2: p[2], b2: p[3] };
    };
  }
  const loss = (x, y) => (w, b) => tf.div(tf.sum(tf.square(tf.sub(tf.add(tf.matMul(x, w), b), y))), x.shape[0]);
  return (w, b, x, y) => {
    const { value, grads } = tf.valueAndGrads(loss(x, y))([w, b]);
    return { w: tf.sub(w, tf.mul(grads[0], LR)), b: tf.sub(b, tf.mul(grads[1], LR)), loss: value };
  };
}

/** Case `name` with `inputs` ({name: {data, shape}}): {run, output, dispose}. */
export async function setup(name, inputs) {
  const args = Object.values(inputs).map(({ data, shape }) => tf.tensor(data, shape, 'float32'));
  const fn = program(name);
  return caseHandle({
    call: async () => tf.tidy(() => fn(...args)),
    read: async (t) => {
      const data = await t.data();
      t.dispose();
      return data;
    },
    free: (t) => t.dispose(),
    dispose: () => args.forEach((t) => t.dispose()),
  });
}
