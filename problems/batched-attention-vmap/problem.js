// Batched Attention with vmap: the problem as data for the checker.

import { doesNotGrow } from '../requirements.js';

/** The arguments, in the solution's order (format: web/checker/constraints.js). */
const inputs = {
  q: { dtype: 'float32', shape: ['B', 'T', 'd'], values: { ge: -10, le: 10 } },
  k: { dtype: 'float32', shape: ['B', 'S', 'd'], values: { ge: -10, le: 10 } },
  v: { dtype: 'float32', shape: ['B', 'S', 'e'], values: { ge: -10, le: 10 } },
};

/** The dimensions' allowed sizes. */
const dims = { B: { min: 1, max: 4 }, T: { min: 1, max: 8 }, S: { min: 1, max: 8 }, d: { min: 1, max: 8 }, e: { min: 1, max: 8 } };

/** The logits q_t . k_s / sqrt(d) of one example, in float64. */
function logitsOf(q, k) {
  const scale = Math.sqrt(q[0].length);
  return q.map((qt) => k.map((ks) => qt.reduce((acc, x, i) => acc + x * ks[i], 0) / scale));
}

/** Attention in float64 from the formula (no library code): each row's softmax with its maximum subtracted first. */
function reference({ q, k, v }) {
  const out = q.map((qb, b) =>
    logitsOf(qb, k[b]).map((row) => {
      const top = Math.max(...row);
      const w = row.map((s) => Math.exp(s - top));
      const total = w.reduce((a, x) => a + x, 0);
      return v[b][0].map((_, j) => w.reduce((acc, ws, s) => acc + (ws / total) * v[b][s][j], 0));
    }),
  );
  return { out };
}

/** The largest logit magnitude of a case, for messages. */
const largestLogit = ({ q, k }) => Math.max(...q.flatMap((qb, b) => logitsOf(qb, k[b]).flat().map(Math.abs)));

/**
 * A case within the constraints. One case in two is "sharp": the first
 * query of every example points along its first key with entries of
 * magnitude 8 to 10 (d >= 2), so that logit is at least 64·d/√d >= 90, past
 * float32's exp overflow at about 88.7; the others have values of magnitude
 * 1, 3 or 10 (logits from about 1 to a few tens).
 */
function generate(rng) {
  const sharp = rng.next() < 0.5;
  const [b, t, s, e] = [rng.int(1, 4), rng.int(1, 8), rng.int(1, 8), rng.int(1, 8)];
  const d = rng.int(sharp ? 2 : 1, 8);
  const r = sharp ? 10 : rng.pick([1, 3, 10]);
  const tensor = (n, m, lo, hi) => Array.from({ length: b }, () => rng.matrix(n, m, lo, hi));
  const q = tensor(t, d, -r, r);
  const k = tensor(s, d, -r, r);
  if (sharp) {
    for (let i = 0; i < b; i++) {
      const signs = Array.from({ length: d }, () => (rng.next() < 0.5 ? -1 : 1));
      k[i][0] = signs.map((sg) => sg * rng.uniform(8, 10));
      q[i][0] = signs.map((sg) => sg * rng.uniform(8, 10));
    }
  }
  return { q, k, v: tensor(s, e, -10, 10) };
}

const examples = [
  {
    input: { q: [[[0, 0, 0, 0], [1, 1, 1, 1]]], k: [[[1, 1, 1, 1], [0, 0, 0, 0]]], v: [[[1, 0], [0, 1]]] },
    expected: { out: [[[0.5, 0.5], [0.880797, 0.119203]]] },
  },
  {
    input: {
      q: [[[10], [-10]], [[0], [2]]],
      k: [[[10], [9]], [[1], [-1]]],
      v: [[[1], [2]], [[4], [-4]]],
    },
    expected: { out: [[[1.000045], [1.999955]], [[0], [3.85611]]] },
  },
];

/**
 * The shapes the program is traced at to see whether it grows with B: b and
 * 2b examples, b the case's B raised to at least 2. (A batched matmul of a
 * batch of 1 squeezes that axis away and puts it back, a few equations more
 * than at 2 without any growth.)
 */
function atBand2B({ q, k, v }) {
  const [b, t, s] = [Math.max(2, q.length), q[0].length, k[0].length];
  const [d, e] = [q[0][0].length, v[0][0].length];
  const at = (n) => ({ q: [n, t, d], k: [n, s, d], v: [n, s, e] });
  return { [`B=${b}`]: at(b), [`B=${2 * b}`]: at(2 * b) };
}

const requirements = [
  doesNotGrow({
    id: 'does-not-grow-with-B',
    text: 'The program does not grow with B (traced with b and 2b examples, b the batch of a case raised to at least 2, it has as many equations).',
    traceAt: atBand2B,
    advice: (growth, api) =>
      `the program grows with the batch size (${growth}): a loop over the examples unrolls one copy of attention per example; write attention for one example and map it over the batch axis with ${api('sl.vmap')}`,
  }),
  // Judged on the outputs, not on the program's structure: a reduce_max in
  // the program proves nothing (the example-wide maximum subtracted instead
  // of each row's is as unstable, and a maximum may be computed and not
  // used), while the second example and the "sharp" generated cases make
  // every unstable softmax return NaN there.
  {
    id: 'stable-softmax',
    text: 'The softmax stays finite on logits of magnitude 100 and more (exp neither overflows nor underflows a whole row).',
    check({ caseResults, api }) {
      for (const c of caseResults) {
        const bad = c.outputs?.out ? [c.outputs.out].flat(Infinity).find((x) => !Number.isFinite(x)) : undefined;
        if (bad === undefined) continue;
        return `on ${c.name}, whose largest logit has magnitude ${largestLogit(c.input).toFixed(1)}, the output holds ${bad}: in float32, exp of a logit above about 88.7 overflows to inf (and inf/inf is NaN), and exp of logits all far below their maximum underflows to 0 (and 0/0 is NaN); subtract from each row of logits that row's own maximum before exp (the softmax is unchanged and the largest term is exp(0) = 1), or use ${api('nn.softmax')}`;
      }
      return true;
    },
  },
];

export default {
  id: 'batched-attention-vmap',
  title: 'Batched Attention with vmap',
  difficulty: 'Medium',
  topic: 'Transformations',
  args: Object.keys(inputs),
  /** The Python solution's function (or the file's one public function). */
  functionName: 'attention',
  inputs,
  dims,
  outputs: { out: { dtype: 'float32', shape: ['B', 'T', 'e'] } },
  // Logits reach about 280 here, where float32 rounds them by up to about
  // 1e-4; where two logits of a row nearly tie, an output moves by up to a
  // quarter of that times the spread of v (20). Stable float32 solutions
  // (softmax, logsumexp, einsum) stayed below 8e-5 over 8,800 cases; 1e-3
  // leaves a wide margin, and every wrong solution misses by far more.
  tolerance: { atol: 1e-3, rtol: 1e-3 },
  examples,
  hints: {
    python: [
      'Write attend(q, k, v) for one example (q of shape (T, d), k (S, d), v (S, e)) and call jax.vmap(attend)(q, k, v): vmap maps every argument over its axis 0.',
      'The logits are q @ k.T / jnp.sqrt(d), with d = q.shape[-1], a Python int.',
      'jax.nn.softmax(logits, axis=-1) subtracts each row\'s maximum before exp; by hand: jnp.exp(s - s.max(axis=-1, keepdims=True)), divided by its row sums.',
    ],
    javascript: [
      'Write attend(q, k, v) for one example (q of shape [T, d], k [S, d], v [S, e]) and call sl.vmap(attend)(q, k, v): vmap maps every argument over its axis 0.',
      'The logits are q.matmul(k.T).div(Math.sqrt(d)), with d = q.shape[1], a JavaScript number.',
      "sl.nn.softmax(logits, {axis: -1}) subtracts each row's maximum before exp; by hand: s.sub(s.max({axis: -1, keepdims: true})).exp(), divided by its row sums.",
    ],
  },
  generate,
  reference,
  requirements,
};
