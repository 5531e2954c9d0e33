// The work `npm run bench` gives ShardLab and its peers (TensorFlow.js's wasm
// backend, jax-js): the same cases, the same inputs, the same outputs, so
// each peer's result is checked against ShardLab's before anything is timed.
// Each library's implementation is a module beside this one (shardlab.mjs,
// tfjs.mjs, jaxjs.mjs) with `setup(name, data)` -> {run, output, dispose}.

/** The cases at their benchmark sizes and, for the agreement test, small ones. */
export const CASES = {
  'matmul-256': { dims: { M: 256, K: 256, N: 256 }, small: { M: 8, K: 16, N: 8 }, unit: 'GFLOP/s' },
  'matmul-1024': { dims: { M: 1024, K: 1024, N: 1024 }, small: { M: 16, K: 8, N: 16 }, unit: 'GFLOP/s' },
  // One SGD step of a two-layer MLP: h = relu(x W1 + b1), out = h W2 + b2, loss = mean((out - y)^2), lr = 0.01.
  'mlp-train-step': { dims: { B: 256, D: 1024, H: 4096, O: 1024 }, small: { B: 4, D: 8, H: 16, O: 4 }, unit: 'ms/step' },
  // The data-parallel linear step: loss = (1/N) sum_n |x_n W + b - y_n|^2, lr = 0.01.
  'data-parallel-step': { dims: { N: 65536, D: 256, K: 16 }, small: { N: 64, D: 4, K: 3 }, unit: 'ms/step' },
  // The same step at the seed problem's sizes: what a learner waits for per call.
  'seed-step': { dims: { N: 32, D: 4, K: 3 }, small: { N: 32, D: 4, K: 3 }, unit: 'us/call' },
};

/** The learning rate of both steps. */
export const LR = 0.01;

/** The size column of a case: "1024^3", "B=256,D=1024,H=4096,O=1024". */
export const sizeText = (dims) => (dims.M !== undefined && dims.M === dims.K && dims.K === dims.N ? `${dims.M}^3` : Object.entries(dims).map(([k, v]) => `${k}=${v}`).join(','));

// Deterministic values in [-scale, scale], without building nested JS arrays.
const filled = (n, scale, salt) => Float32Array.from({ length: n }, (_, i) => (scale * ((((i + salt) * 31) % 23) - 11)) / 11);

/** The inputs of case `name` at `dims`: {name: {data: Float32Array, shape}}, in the order the implementations take them. */
export function inputsOf(name, dims) {
  const a = (shape, scale, salt) => ({ data: filled(shape.reduce((p, q) => p * q, 1), scale, salt), shape });
  if (name.startsWith('matmul')) return { a: a([dims.M, dims.K], 1, 0), b: a([dims.K, dims.N], 1, 5) };
  if (name === 'mlp-train-step') {
    const { B, D, H, O } = dims;
    return { w1: a([D, H], 1 / Math.sqrt(D), 1), b1: a([H], 0.1, 2), w2: a([H, O], 1 / Math.sqrt(H), 3), b2: a([O], 0.1, 4), x: a([B, D], 1, 5), y: a([B, O], 1, 6) };
  }
  const { N, D, K } = dims;
  return { w: a([D, K], 0.1, 1), b: a([K], 0.1, 2), x: a([N, D], 1, 3), y: a([N, K], 1, 4) };
}

/** The floating-point operations of one run of a matmul case (for GFLOP/s). */
export const flopsOf = (dims) => 2 * dims.M * dims.K * dims.N;

/**
 * Whether `got` agrees with `want` (both {key: Float32Array}): every key, and
 * every element within 1e-3 of the largest magnitude of its output (float32
 * sums in different orders); the first disagreement as a message, or null.
 */
export function disagreement(want, got) {
  for (const [key, w] of Object.entries(want)) {
    const g = got[key];
    if (!g || g.length !== w.length) return `output ${key}: ${g ? `${g.length} values` : 'missing'}; ShardLab's has ${w.length} values`;
    const scale = w.reduce((m, v) => Math.max(m, Math.abs(v)), 1);
    for (let i = 0; i < w.length; i++) {
      if (!(Math.abs(g[i] - w[i]) <= 1e-3 * scale)) return `output ${key}[${i}] = ${g[i]}, ShardLab's is ${w[i]} (tolerance ${1e-3 * scale})`;
    }
  }
  return null;
}

/**
 * What a library's setup returns for a case, {run (one awaited call, its
 * outputs freed), output ({key: Float32Array}), dispose}, from `call()`
 * (-> {key: the library's array}), `read(a)` (its values, the array freed),
 * `free(a)` and `dispose()` (the inputs).
 */
export function caseHandle({ call, read, free, dispose }) {
  return {
    async run() {
      for (const a of Object.values(await call())) free(a);
    },
    async output() {
      const result = {};
      for (const [k, a] of Object.entries(await call())) result[k] = Float32Array.from(await read(a));
      return result;
    },
    dispose,
  };
}
