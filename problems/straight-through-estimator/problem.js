// Straight-Through Estimator with Custom VJP: the problem as data for the checker.

import { tracedScalar } from '../requirements.js';

/** The arguments, in the solution's order (format: web/checker/constraints.js). */
const inputs = {
  w: { dtype: 'float32', shape: ['D'], values: { ge: -10, le: 10 } },
  x: { dtype: 'float32', shape: ['N', 'D'], values: { ge: -10, le: 10 } },
  y: { dtype: 'float32', shape: ['N'], values: { ge: -10, le: 10 } },
  lr: { dtype: 'float32', shape: [], values: { gt: 0, le: 1 } },
};

/** The dimensions' allowed sizes. */
const dims = { N: { oneOf: [8, 16] }, D: { min: 1, max: 4 } };

/** v rounded to the nearest integer, a tie to the even one (as jnp.round). */
function roundHalfEven(v) {
  const f = Math.floor(v);
  const rest = v - f;
  if (rest !== 0.5) return rest < 0.5 ? f : f + 1;
  return f % 2 === 0 ? f : f + 1;
}

/** q(w) = round(4w) / 4, rounding 4w as the devices hold it (float32; scaling by 4 is exact there). */
const quantize = (w) => roundHalfEven(Math.fround(4 * w)) / 4;

/**
 * The step in float64, from the formulas (no library code): the loss at the
 * quantized weights, and its gradient with the quantizer's derivative taken
 * as 1, (2/N) sum_n (x_n.q - y_n) x_n.
 */
function reference({ w, x, y, lr }) {
  const n = x.length;
  const q = w.map(quantize);
  const grad = w.map(() => 0);
  let loss = 0;
  for (let i = 0; i < n; i++) {
    const r = x[i].reduce((s, t, j) => s + t * q[j], 0) - y[i];
    loss += (r * r) / n;
    x[i].forEach((t, j) => (grad[j] += (2 * r * t) / n));
  }
  return { w: w.map((v, j) => v - lr * grad[j]), loss };
}

/** A case within the constraints: every 4w at least 1e-3 from a rounding tie k + 0.5. */
function generate(rng) {
  const n = rng.pick([8, 16]);
  const d = rng.int(1, 4);
  const nearTie = (v) => Math.abs(4 * v - Math.floor(4 * v) - 0.5) < 1e-3;
  const w = Array.from({ length: d }, () => {
    for (;;) {
      const v = rng.uniform(-2, 2);
      if (!nearTie(v)) return v;
    }
  });
  return { w, x: rng.matrix(n, d, -2, 2), y: rng.vector(n, -3, 3), lr: rng.pick([0.01, 0.05, 0.1, 0.2, 0.5]) };
}

const examples = [
  {
    input: {
      w: [0.3, -0.6],
      x: [[1, 2], [0.5, -1], [1, 1], [0, 1], [2, 0], [1, -1], [0.5, 0.5], [-1, 0]],
      y: [-1.25, 0.625, 0.25, -1.5, 0, 1.25, -0.125, 0.25],
      lr: 0.1,
    },
    expected: { w: [0.275, -0.65], loss: 0.28125 },
  },
  {
    input: { w: [0.9], x: [[1], [2], [-1], [0.5], [1], [-2], [0], [1.5]], y: [1, 2, -1, 0, 0.5, -2, 1, 1], lr: 0.5 },
    expected: { w: [0.7125], loss: 0.21875 },
  },
];

const requirements = [
  {
    id: 'custom-derivative-rule',
    text: 'The quantizer is a function with a derivative rule of its own: the program has a custom_vjp (or custom_jvp) call that takes w.',
    check({ jaxpr, vars, api, query: { allEquations, dependents, hasPrimitive } }) {
      const fromW = dependents(jaxpr, vars.w);
      const custom = allEquations(jaxpr).filter((e) => e.primitive === 'custom_vjp_call' || e.primitive === 'custom_jvp_call');
      if (custom.some((e) => e.inputs.some((a) => fromW.has(a.name)))) return true;
      const rule = `define the quantizer with ${api('sl.customVjp')} and give it a backward pass that returns the incoming cotangent unchanged`;
      if (hasPrimitive(jaxpr, 'stop_gradient')) {
        return `the program has a stop_gradient but no custom_vjp or custom_jvp call on w: the trick w + ${api('lax.stopGradient')}(q(w) - w) gives the same gradient, but this problem asks for the estimator as a derivative rule of its own; ${rule}`;
      }
      const found = custom.length ? 'its custom_vjp / custom_jvp call does not take w' : 'it has no custom_vjp or custom_jvp call';
      return `the quantizer has no derivative rule of its own (${found}): round is flat almost everywhere, so its derivative is zero and so is the gradient; ${rule}`;
    },
  },
  tracedScalar('lr', {
    unused: 'the update must multiply the gradient by the traced lr',
    how: { python: 'float(lr) or lr.item()', javascript: 'Number(lr) or +lr' },
  }),
];

export default {
  id: 'straight-through-estimator',
  title: 'Straight-Through Estimator with Custom VJP',
  difficulty: 'Medium',
  topic: 'Autodiff',
  args: Object.keys(inputs),
  /** The Python solution's function (or the file's one public function). */
  functionName: 'ste_step',
  inputs,
  dims,
  outputs: {
    w: { dtype: 'float32', shape: ['D'] },
    loss: { dtype: 'float32', shape: [] },
  },
  tolerance: { atol: 1e-4, rtol: 1e-4 },
  examples,
  hints: {
    python: [
      'Decorate the quantizer with @jax.custom_vjp: q(w) = jnp.round(4 * w) / 4.',
      'q.defvjp(fwd, bwd): fwd(w) returns (q(w), residuals) and bwd(residuals, g) returns a tuple with one cotangent per argument; the straight-through rule returns (g,).',
      'jax.value_and_grad(loss)(w) gives the loss and the gradient at once; the loss is jnp.mean(jnp.square(x @ q(w) - y)).',
    ],
    javascript: [
      'Wrap the quantizer with sl.customVjp: q = sl.customVjp((w) => np.round(w.mul(4)).div(4)).',
      'q.defvjp(fwd, bwd): fwd(w) returns [q(w), residuals] and bwd(residuals, g) returns an array with one cotangent per argument; the straight-through rule returns [g].',
      'sl.valueAndGrad(loss)(w) gives [loss, gradient] at once; the loss is np.mean(np.square(x.matmul(q(w)).sub(y))).',
    ],
  },
  generate,
  reference,
  requirements,
};
