// jax-js's side of the peer cases (cases.mjs), on its wasm device: each case
// one jit-compiled function, gradients by jax-js's grad. jax-js counts
// references: a call consumes its arguments, so every call passes `.ref`s.
import { blockUntilReady, grad, init, jit, nn, numpy as np, valueAndGrad } from '@jax-js/jax';
import { caseHandle, LR } from './cases.mjs';

/** Starts the wasm device (with its worker pool, one worker per core, where a page has Workers and SharedArrayBuffer). */
export async function load() {
  const devices = await init('wasm');
  const pool = typeof Worker !== 'undefined' && typeof SharedArrayBuffer !== 'undefined';
  return { backend: `${devices.includes('wasm') ? 'wasm' : devices.join(',')}, ${pool ? `a pool of ${navigator.hardwareConcurrency} workers` : 'one thread'}` };
}

/** The case's function of the input arrays, returning {key: array}. */
function program(name) {
  if (name.startsWith('matmul')) return (a, b) => ({ c: np.matmul(a, b) });
  if (name === 'mlp-train-step') {
    const loss = (p, x, y) => np.mean(np.square(np.matmul(nn.relu(np.matmul(x, p.w1).add(p.b1)), p.w2).add(p.b2).sub(y)));
    return (w1, b1, w2, b2, x, y) => {
      const g = grad(loss)({ w1: w1.ref, b1: b1.ref, w2: w2.ref, b2: b2.ref }, x, y);
      return { w1: w1.sub(g.w1.mul(LR)), b1: b1.sub(g.b1.mul(LR)), w2: w2.sub(g.w2.mul(LR)), b2: b2.sub(g.b2.mul(LR)) };
    };
  }
  return (w, b, x, y) => {
    const n = x.shape[0];
    const loss = (p) => np.sum(np.square(np.matmul(x, p.w).add(p.b).sub(y))).div(n);
    const [l, g] = valueAndGrad(loss)({ w: w.ref, b: b.ref });
    return { w: w.sub(g.w.mul(LR)), b: b.sub(g.b.mul(LR)), loss: l };
  };
}

/** Case `name` with `inputs` ({name: {data, shape}}): {run, output, dispose}. */
export async function setup(name, inputs) {
  const args = Object.values(inputs).map(({ data, shape }) => np.array(data).reshape(shape));
  const fn = jit(program(name));
  return caseHandle({
    call: () => blockUntilReady(fn(...args.map((a) => a.ref))),
    read: (a) => a.data(), // data() consumes the array
    free: (a) => a.dispose(),
    dispose: () => {
      for (const a of args) a.dispose();
      fn.dispose();
    },
  });
}
