// Exponential Moving Average with Scan: the problem as data for the checker.

import { doesNotGrow, tracedScalar } from '../requirements.js';

/** The arguments, in the solution's order (format: web/checker/constraints.js). */
const inputs = {
  xs: { dtype: 'float32', shape: ['T', 'D'], values: { ge: -10, le: 10 } },
  decay: { dtype: 'float32', shape: [], values: { gt: 0, lt: 1 } },
};

/** The dimensions' allowed sizes. */
const dims = { T: { min: 2, max: 64 }, D: { min: 1, max: 8 } };

/** The averages in float64, from the recurrence (no library code). */
function reference({ xs, decay }) {
  const all = [xs[0].slice()];
  for (let t = 1; t < xs.length; t++) all.push(xs[t].map((x, j) => decay * all[t - 1][j] + (1 - decay) * x));
  return { all, last: all[all.length - 1].slice() };
}

/** A case within the constraints. */
function generate(rng) {
  const t = rng.int(2, 64);
  return { xs: rng.matrix(t, rng.int(1, 8), -10, 10), decay: rng.pick([0.1, 0.5, 0.8, 0.9, 0.95, 0.99]) };
}

const examples = [
  { input: { xs: [[1], [3], [3], [0]], decay: 0.5 }, expected: { all: [[1], [2], [2.5], [1.25]], last: [1.25] } },
  {
    input: { xs: [[0, 10], [10, 0], [10, 0]], decay: 0.9 },
    expected: { all: [[0, 10], [1, 9], [1.9, 8.1]], last: [1.9, 8.1] },
  },
];

/** The shapes the program is traced at to see whether it grows with T: T and 2T. */
const atTand2T = ({ xs }) => ({ [`T=${xs.length}`]: { xs: [xs.length, xs[0].length] }, [`T=${2 * xs.length}`]: { xs: [2 * xs.length, xs[0].length] } });

const requirements = [
  {
    id: 'uses-scan',
    text: "The recurrence runs in a scan: the outputs are computed from the scan's carry, step by step.",
    check({ jaxpr, vars, outputs, api, query: { allEquations, flowsTo } }) {
      const scans = allEquations(jaxpr).filter((e) => e.primitive === 'scan');
      if (!scans.length) return `the traced program has no scan that the outputs use: carry the running average through ${api('lax.scan')}, whose body computes one step`;
      // A carry the body computes from itself, over rows of xs, that both outputs are computed from.
      const recurrence = (s) => {
        const { jaxpr: body, ft_in: [nc, nk] } = s.params; // ft_in counts (consts, carries, xs)
        const carries = Array.from({ length: nk }, (_, i) => i).some((i) => flowsTo(jaxpr, body.invars[nc + i].name, body.outvars[i].name));
        const fed = s.inputs.slice(nc + nk).some((a) => a.name !== undefined && flowsTo(jaxpr, vars.xs, a.name));
        return carries && fed && ['all', 'last'].every((k) => s.outputs.some((o) => flowsTo(jaxpr, o.name, outputs[k])));
      };
      return scans.some(recurrence) || `the outputs are not computed from a scan's carry over the rows of xs: the scan's body must take the running average (its carry) and one row, and give the next average, from which all and last come`;
    },
  },
  doesNotGrow({
    id: 'does-not-grow-with-T',
    text: 'The program does not grow with T (traced at T and 2T, it has as many equations).',
    traceAt: atTand2T,
    advice: (growth, api) =>
      `the program grows with the number of steps (${growth}): a loop over the rows unrolls into equations for every step; write one step as the body of ${api('lax.scan')}`,
  }),
  tracedScalar('decay', {
    unused: 'every step multiplies by the traced decay',
    how: { python: 'float(decay) or decay.item()', javascript: 'Number(decay) or +decay' },
  }),
];

export default {
  id: 'ema-scan',
  title: 'Exponential Moving Average with Scan',
  difficulty: 'Medium',
  topic: 'Control flow',
  args: Object.keys(inputs),
  /** The Python solution's function (or the file's one public function). */
  functionName: 'ema',
  inputs,
  dims,
  outputs: {
    all: { dtype: 'float32', shape: ['T', 'D'] },
    last: { dtype: 'float32', shape: ['D'] },
  },
  tolerance: { atol: 1e-4, rtol: 1e-4 },
  examples,
  hints: {
    python: [
      'jax.lax.scan(step, init, xs) calls step(carry, x) once per row of xs and returns (final carry, stacked per-step outputs).',
      'Start the carry at xs[0] and scan over xs[1:]; return the new average both as the carry and as the per-step output.',
      'jnp.concatenate([xs[:1], averages]) puts m_0 back in front.',
    ],
    javascript: [
      'lax.scan(step, init, xs) calls step(carry, x) once per row of xs and returns [final carry, stacked per-step outputs].',
      'Start the carry at the first row and scan over the others; return the new average both as the carry and as the per-step output.',
      "np.concatenate([first, averages]) puts m_0 back in front (xs.at(sl.slice(1, null)).get() is xs[1:]).",
    ],
  },
  generate,
  reference,
  requirements,
};
