// Per-Example Gradient Clipping: the problem as data for the checker.

import { doesNotGrow } from '../requirements.js';

/** The arguments, in the solution's order (format: web/checker/constraints.js). */
const inputs = {
  w: { dtype: 'float32', shape: ['D'], values: { ge: -10, le: 10 } },
  x: { dtype: 'float32', shape: ['B', 'D'], values: { ge: -10, le: 10 } },
  y: { dtype: 'float32', shape: ['B'], values: { ge: -10, le: 10 } },
  max_norm: { dtype: 'float32', shape: [], values: { gt: 0, le: 5 } },
};

/** The dimensions' allowed sizes (B is never D, so a (B, D) value is unambiguous). */
const dims = { B: { oneOf: [4, 8, 16] }, D: { min: 1, max: 3 } };

/** Example i's gradient of (x_i.w - y_i)^2: 2 (x_i.w - y_i) x_i. */
const exampleGradient = (w, xi, yi) => {
  const r = xi.reduce((s, t, j) => s + t * w[j], 0) - yi;
  return xi.map((t) => 2 * r * t);
};
const norm = (g) => Math.sqrt(g.reduce((s, t) => s + t * t, 0));

/**
 * The clipped mean gradient and the norms in float64, from the formulas (no
 * library code): each example's gradient times min(1, max_norm / its norm)
 * (a zero gradient keeps factor 1: max_norm / 0 is infinite), averaged.
 */
function reference({ w, x, y, max_norm }) {
  const grads = x.map((xi, i) => exampleGradient(w, xi, y[i]));
  const norms = grads.map(norm);
  const grad = w.map(() => 0);
  grads.forEach((g, i) => {
    const factor = Math.min(1, max_norm / norms[i]);
    g.forEach((t, j) => (grad[j] += (factor * t) / x.length));
  });
  return { grad, norms };
}

/**
 * A case within the constraints. Every norm is at least 0.05 and at least
 * 0.2% away from max_norm, so float32 rounding never decides whether an
 * example is clipped; max_norm from 0.1 to 5 clips some examples in most
 * cases and none in some.
 */
function generate(rng) {
  const b = rng.pick([4, 8, 16]);
  const d = rng.int(1, 3);
  for (;;) {
    const w = rng.vector(d, -1, 1);
    const x = rng.matrix(b, d, -1, 1);
    const y = rng.vector(b, -2, 2);
    const norms = x.map((xi, i) => norm(exampleGradient(w, xi, y[i])));
    const max_norm = rng.uniform(0.1, 5);
    if (norms.every((n) => n >= 0.05 && Math.abs(n - max_norm) >= 2e-3 * max_norm)) return { w, x, y, max_norm };
  }
}

const example = { w: [0.5, -0.5], x: [[1, 0], [0, 1], [1, 1], [2, 0]], y: [1.5, 0, -1, -1] };
const examples = [
  { input: { ...example, max_norm: 3 }, expected: { grad: [0.75, 0.25], norms: [2, 1, 2.828427, 8] } },
  { input: { ...example, max_norm: 1.5 }, expected: { grad: [0.265165, 0.015165], norms: [2, 1, 2.828427, 8] } },
];

/** The shapes the program is traced at to see whether it grows with B: B and 2B. */
const atBand2B = ({ x, y }) => {
  const [b, d] = [x.length, x[0].length];
  return { [`B=${b}`]: { x: [b, d], y: [b] }, [`B=${2 * b}`]: { x: [2 * b, d], y: [2 * b] } };
};

const requirements = [
  {
    id: 'per-example-gradients',
    text: 'A value of shape (B, D) computed from w and y holds the per-example gradients.',
    check({ jaxpr, vars, input, api, lang, query: { allEquations, dependents } }) {
      const [b, d] = [input.x.length, input.x[0].length];
      const fromW = dependents(jaxpr, vars.w);
      const fromY = dependents(jaxpr, vars.y);
      const rows = (o) => o.aval.shape.length === 2 && ((o.aval.shape[0] === b && o.aval.shape[1] === d) || (o.aval.shape[0] === d && o.aval.shape[1] === b));
      const found = allEquations(jaxpr).some((e) => e.outputs.some((o) => rows(o) && fromW.has(o.name) && fromY.has(o.name)));
      const call = lang === 'python' ? `${api('sl.vmap')}(${api('sl.grad')}(loss_i), in_axes=(None, 0, 0))` : `${api('sl.vmap')}(${api('sl.grad')}(lossI), {inAxes: [null, 0, 0]})`;
      return (
        found ||
        `no value of shape (B, D) is computed from w and y, so the per-example gradients never exist as such (a formula for the clipped mean that skips them works for this loss only); compute them with ${call}, one row per example, then scale each row`
      );
    },
  },
  doesNotGrow({
    id: 'does-not-grow-with-B',
    text: 'The program does not grow with B (traced at B and 2B, it has as many equations).',
    traceAt: atBand2B,
    advice: (growth, api) =>
      `the program grows with the batch (${growth}): a loop over the examples unrolls into one gradient per example; ${api('sl.vmap')} of ${api('sl.grad')} traces the gradient once for the whole batch`,
  }),
  {
    id: 'max-norm-traced',
    text: 'max_norm stays a traced float32 scalar (never converted to a number or compared in Python).',
    check({ jaxpr, vars, query: { reads } }) {
      const used = reads(jaxpr, vars.max_norm);
      return used || 'max_norm is not used by the program: every factor min(1, max_norm / norm) takes the traced max_norm';
    },
    traceError(error, { lang, api }) {
      const factor = lang === 'python' ? `${api('np.minimum')}(1.0, max_norm / norm)` : `${api('np.minimum')}(1, np.divide(maxNorm, norm))`;
      if (/^Concretization/.test(error.name)) {
        const how = lang === 'python' ? 'float(max_norm) or max_norm.item()' : 'Number(maxNorm), Math.min or a comparison';
        return `the solution turns a traced value into a number (${how}): under jit and vmap every argument is abstract; take the factor with ${factor} (${error.name})`;
      }
      if (error.name === 'TracerBoolConversionError') {
        return `the solution compares traced values in Python (the builtin min or max, or an if on max_norm / norm): under jit and vmap they are abstract, so Python cannot decide; take the factor with ${factor} (${error.name})`;
      }
      return null;
    },
  },
];

export default {
  id: 'per-example-clipping',
  title: 'Per-Example Gradient Clipping',
  difficulty: 'Medium',
  topic: 'Transformations',
  args: Object.keys(inputs),
  /** The Python solution's function (or the file's one public function). */
  functionName: 'clipped_mean_grad',
  inputs,
  dims,
  outputs: {
    grad: { dtype: 'float32', shape: ['D'] },
    norms: { dtype: 'float32', shape: ['B'] },
  },
  tolerance: { atol: 1e-4, rtol: 1e-4 },
  examples,
  hints: {
    python: [
      'Write the loss of one example, loss_i(w, xi, yi) = (xi @ w - yi) ** 2; jax.grad(loss_i) is its gradient with respect to w.',
      'jax.vmap(jax.grad(loss_i), in_axes=(None, 0, 0))(w, x, y) maps over the rows of x and y, sharing w: a (B, D) array of per-example gradients.',
      'jnp.linalg.norm(g, axis=1) gives the B norms; jnp.minimum(1.0, max_norm / norms)[:, None] scales each row before jnp.mean(..., axis=0).',
    ],
    javascript: [
      'Write the loss of one example, lossI(w, xi, yi) = np.square(xi.matmul(w).sub(yi)); sl.grad(lossI) is its gradient with respect to w.',
      'sl.vmap(sl.grad(lossI), {inAxes: [null, 0, 0]})(w, x, y) maps over the rows of x and y, sharing w: a (B, D) array of per-example gradients.',
      'np.linalg.norm(g, {axis: 1}) gives the B norms; np.minimum(1, maxNorm.div(norms)).reshape([B, 1]) scales each row before np.mean(..., {axis: 0}).',
    ],
  },
  generate,
  reference,
  requirements,
};
