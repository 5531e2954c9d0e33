// Hessian-Vector Product: the problem as data for the checker.

import { doesNotGrow } from '../requirements.js';

/** The arguments, in the solution's order (format: web/checker/constraints.js). */
const inputs = {
  w: { dtype: 'float32', shape: ['D'], values: { ge: -5, le: 5 } },
  x: { dtype: 'float32', shape: ['N', 'D'], values: { ge: -5, le: 5 } },
  y: { dtype: 'float32', shape: ['N'], values: { ge: -1, le: 1 } },
  v: { dtype: 'float32', shape: ['D'], values: { ge: -5, le: 5 } },
};

/** The dimensions' allowed sizes (D never equals N: see validate). */
const dims = { N: { oneOf: [8, 16, 32] }, D: { min: 2, max: 12 } };

/** What the shapes cannot say: every label is -1 or +1, and D differs from N (so a (D, D) value is the Hessian's shape only). */
function validate({ x, y }) {
  const i = y.findIndex((t) => t !== -1 && t !== 1);
  if (i >= 0) return `input y[${i}] = ${y[i]} is not a label; every y must be -1 or +1`;
  if (x[0].length === x.length) return `input x has D = ${x[0].length} columns and N = ${x.length} rows; D must differ from N`;
  return null;
}

// The logistic function, without overflow for large |z|.
const sigmoid = (z) => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

/**
 * The gradient and the Hessian-vector product in float64, from the formulas
 * (no library code): with m_n = y_n x_n.w and s_n = sigmoid(m_n),
 * grad = -(1/N) sum y_n (1 - s_n) x_n and H v = (1/N) sum s_n (1 - s_n) (x_n.v) x_n.
 */
function reference({ w, x, y, v }) {
  const n = x.length;
  const d = w.length;
  const dot = (a, b) => a.reduce((s, t, j) => s + t * b[j], 0);
  const grad = new Array(d).fill(0);
  const hvp = new Array(d).fill(0);
  for (let i = 0; i < n; i++) {
    const m = y[i] * dot(x[i], w);
    const s = sigmoid(m);
    const t = sigmoid(-m);
    const xv = dot(x[i], v);
    for (let j = 0; j < d; j++) {
      grad[j] -= (y[i] * t * x[i][j]) / n;
      hvp[j] += (s * t * xv * x[i][j]) / n;
    }
  }
  return { grad, hvp };
}

/** A case within the constraints (D = N never drawn). */
function generate(rng) {
  const n = rng.pick([8, 16, 32]);
  let d = rng.int(2, 12);
  if (d === n) d = rng.pick([7, 9]);
  return {
    w: rng.vector(d, -1, 1),
    x: rng.matrix(n, d, -2, 2),
    y: Array.from({ length: n }, () => rng.pick([-1, 1])),
    v: rng.vector(d, -2, 2),
  };
}

const examples = [
  {
    input: {
      w: [0.5, 1],
      x: [[1, 0], [0, 1], [1, 1], [-1, 1], [2, 0], [0, -2], [1, -1], [-1, -1]],
      y: [1, -1, 1, 1, -1, 1, -1, 1],
      v: [1, 0],
    },
    expected: { grad: [0.309351, 0.29659], hvp: [0.223719, -0.021464] },
  },
  {
    input: {
      w: [0.5, -0.5, 1],
      x: [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1], [1, -1, 0], [0, 1, -1], [-1, 0, 1], [2, 0, -2]],
      y: [1, 1, -1, 1, -1, 1, 1, -1],
      v: [0, 1, -1],
    },
    expected: { grad: [0.125, -0.305004, 0.045534], hvp: [0.103105, 0.091239, -0.189545] },
  },
];

/** The shapes the program is traced at to see whether it grows with D: D and 2D. */
const atDand2D = ({ w, x, v }) => {
  const [n, d] = [x.length, w.length];
  return { [`D=${d}`]: { w: [d], x: [n, d], v: [d] }, [`D=${2 * d}`]: { w: [2 * d], x: [n, 2 * d], v: [2 * d] } };
};

const requirements = [
  {
    id: 'no-hessian',
    text: 'The Hessian is never formed: no value of shape (D, D) anywhere in the program.',
    check({ jaxpr, input, api, lang, query: { allEquations } }) {
      const d = input.w.length;
      const square = allEquations(jaxpr).flatMap((e) => e.outputs.filter((o) => o.aval.shape.length === 2 && o.aval.shape[0] === d && o.aval.shape[1] === d).map((o) => ({ o })));
      if (!square.length) return true;
      const { o } = square.find(({ o }) => o.aval.dtype === 'float32') ?? square[0];
      const call = lang === 'python' ? `${api('sl.jvp')}(${api('sl.grad')}(loss), (w,), (v,))` : `${api('sl.jvp')}(${api('sl.grad')}(loss), [w], [v])`;
      const count = square.length === 1 ? 'a value' : `${square.length} values`;
      return `the program computes ${count} of shape (D, D) (${o.aval.str}): the Hessian, or the identity whose columns are pushed through the gradient to build it, D² numbers and D passes of differentiation when only the product with v is asked; push v through the gradient instead: ${call} gives the gradient and H v in one pass`;
    },
  },
  doesNotGrow({
    id: 'does-not-grow-with-D',
    text: 'The program does not grow with D (traced at D and 2D, it has as many equations): one pass, not one per coordinate.',
    traceAt: atDand2D,
    advice: (growth, api) =>
      `the program grows with the dimension (${growth}): a loop over the coordinates builds the Hessian column by column, one pass of differentiation each; one ${api('sl.jvp')} of ${api('sl.grad')}(loss) with tangent v gives H v at the cost of a few gradients`,
  }),
];

export default {
  id: 'hessian-vector-product',
  title: 'Hessian-Vector Product',
  difficulty: 'Medium',
  topic: 'Autodiff',
  args: Object.keys(inputs),
  /** The Python solution's function (or the file's one public function). */
  functionName: 'hvp',
  inputs,
  dims,
  validate,
  outputs: {
    grad: { dtype: 'float32', shape: ['D'] },
    hvp: { dtype: 'float32', shape: ['D'] },
  },
  tolerance: { atol: 1e-4, rtol: 1e-4 },
  examples,
  hints: {
    python: [
      'Write the loss as a function of w alone (close over x and y): jnp.mean(jax.nn.softplus(-y * (x @ w))) is log(1 + exp(-m)) without overflow.',
      'jax.grad(loss) is itself a function of w; jax.jvp(f, (w,), (v,)) returns f(w) and the derivative of f at w in the direction v.',
      'grad, hv = jax.jvp(jax.grad(loss), (w,), (v,)): forward-over-reverse, the gradient and H v from one pass, with no D x D matrix.',
    ],
    javascript: [
      'Write the loss as a function of w alone (close over x and y): np.mean(sl.nn.softplus(y.neg().mul(x.matmul(w)))) is log(1 + exp(-m)) without overflow.',
      'sl.grad(loss) is itself a function of w; sl.jvp(f, [w], [v]) returns [f(w), the derivative of f at w in the direction v].',
      'const [grad, hv] = sl.jvp(sl.grad(loss), [w], [v]): forward-over-reverse, the gradient and H v from one pass, with no D x D matrix.',
    ],
  },
  generate,
  reference,
  requirements,
};
