// Pad and Mask to Bucket Length: the problem as data for the checker.

/** The widths a row is padded to: the smallest one that holds L. */
const BUCKETS = [8, 16, 32, 64];
const bucketOf = (L) => BUCKETS.find((b) => b >= L);

/** The arguments, in the solution's order (format: web/checker/constraints.js). */
const inputs = {
  x: { dtype: 'float32', shape: ['B', 'L'], values: { ge: -10, le: 10 } },
  lengths: { dtype: 'int32', shape: ['B'], values: { ge: 1, le: 64 } },
};

/** The dimensions' allowed sizes. */
const dims = { B: { min: 1, max: 4 }, L: { min: 1, max: 64 } };

/** The outputs' width, a static function of L. */
const derived = { W: { size: ({ L }) => bucketOf(L), what: 'the bucket width: the smallest of 8, 16, 32, 64 that is at least L' } };

/** Every length fits its row. */
function validate({ x, lengths }) {
  const L = x[0].length;
  const i = lengths.findIndex((n) => n > L);
  return i < 0 ? null : `input lengths[${i}] = ${lengths[i]} is longer than the rows of x (L = ${L}); each length must be at most L`;
}

/** The padded rows, the mask and the masked means in float64 (no library code). */
function reference({ x, lengths }) {
  const W = bucketOf(x[0].length);
  const padded = x.map((row) => Array.from({ length: W }, (_, j) => (j < row.length ? row[j] : 0)));
  const mask = lengths.map((n) => Array.from({ length: W }, (_, j) => j < n));
  const mean = x.map((row, i) => row.slice(0, lengths[i]).reduce((s, v) => s + v, 0) / lengths[i]);
  return { padded, mask, mean };
}

/** A case within the constraints: a bucket, then L in it (its ends included), then the lengths. */
function generate(rng) {
  const W = rng.pick(BUCKETS);
  const lo = W === 8 ? 1 : W / 2 + 1;
  const L = rng.next() < 0.25 ? rng.pick([lo, W]) : rng.int(lo, W);
  const B = rng.int(1, 4);
  const lengths = Array.from({ length: B }, () => (rng.next() < 0.2 ? L : rng.int(1, L)));
  return { x: rng.matrix(B, L, -10, 10), lengths };
}

const examples = [
  {
    input: { x: [[1, 2, 3], [4, 5, 6]], lengths: [2, 3] },
    expected: {
      padded: [[1, 2, 3, 0, 0, 0, 0, 0], [4, 5, 6, 0, 0, 0, 0, 0]],
      mask: [[true, true, false, false, false, false, false, false], [true, true, true, false, false, false, false, false]],
      mean: [1.5, 5],
    },
  },
  {
    input: { x: [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]], lengths: [4] },
    expected: {
      padded: [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0, 0, 0, 0, 0]],
      mask: [[true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false]],
      mean: [2.5],
    },
  },
];

/** The lengths L the program is traced at: both ends of every bucket. */
const EDGES = [1, 8, 9, 16, 17, 32, 33, 64];
const atEdges = ({ x }) => Object.fromEntries(EDGES.map((L) => [`L=${L}`, { x: [x.length, L] }]));
const widthOf = (label) => bucketOf(Number(label.slice(2)));

// The outputs of a traced program with two axes (padded and mask), as "f32[2,8]".
const matrices = (jaxpr) => jaxpr.outvars.filter((v) => v.aval.shape.length === 2).map((v) => v.aval.str.replace(/\{.*\}$/, ''));

const COMPARISONS = new Set(['lt', 'le', 'gt', 'ge']);

const requirements = [
  {
    id: 'pads-to-bucket',
    text: 'padded and mask have the bucket width: traced at L = 1, 8, 9, 16, 17, 32, 33 and 64, they are (B, 8), (B, 8), (B, 16), (B, 16), ..., (B, 64).',
    traceAt: atEdges,
    check({ traces, query: { traceFailure } }) {
      const failed = traceFailure(traces);
      if (failed) return failed;
      for (const [label, { jaxpr }] of Object.entries(traces)) {
        const found = matrices(jaxpr);
        const W = widthOf(label);
        if (!found.length) return `traced at ${label} the program returns no (B, W) array: return padded and mask with ${W} columns`;
        const bad = found.find((s) => !s.endsWith(`,${W}]`));
        if (bad) {
          return `traced at ${label} the program returns ${found.join(' and ')}, but the width should be ${W}: pad to the smallest of 8, 16, 32, 64 that is at least L (a decision on x.shape[1], which is a static int)`;
        }
      }
      return true;
    },
  },
  {
    id: 'same-shape-in-bucket',
    text: 'Two lengths L in the same bucket give outputs of the same shapes (one compiled program per bucket).',
    traceAt: atEdges,
    check({ traces, query: { traceFailure } }) {
      const failed = traceFailure(traces);
      if (failed) return failed;
      const outs = ({ jaxpr }) => jaxpr.outvars.map((v) => v.aval.str.replace(/\{.*\}$/, '')).join(', ');
      for (let k = 0; k < EDGES.length; k += 2) {
        const [a, b] = [`L=${EDGES[k]}`, `L=${EDGES[k + 1]}`];
        if (outs(traces[a]) !== outs(traces[b])) {
          return `${a} and ${b} fall in the same bucket, but the program returns (${outs(traces[a])}) at ${a} and (${outs(traces[b])}) at ${b}: every L would compile its own program; make the output width depend only on the bucket`;
        }
      }
      return true;
    },
  },
  {
    id: 'lengths-traced',
    text: 'lengths stays traced: the mask compares positions with it inside the program (lt, le, gt or ge).',
    check({ jaxpr, vars, api, query: { allEquations, dependents } }) {
      const deps = dependents(jaxpr, vars.lengths);
      const compared = allEquations(jaxpr).some((e) => COMPARISONS.has(e.primitive) && e.inputs.some((a) => deps.has(a.name)));
      return compared || `no comparison in the program reads lengths: build the mask from it, ${api('np.arange')}(W) < lengths[:, None], rather than from the values of x (a valid entry may be 0)`;
    },
    traceError(error, { lang }) {
      if (!/^(Concretization|TracerIntegerConversion|TracerBoolConversion)/.test(error.name)) return null;
      const how = lang === 'python' ? 'int(lengths[i]), x[i, :lengths[i]], range(lengths[i]) or an if on it' : 'Number(lengths.at(i).get()), a JS comparison or a loop bound';
      return `the solution turns the traced lengths into numbers (${how}): under jit only their shape is known; compare them with a range of positions to build the mask (${error.name})`;
    },
  },
];

export default {
  id: 'pad-mask-bucket',
  title: 'Pad and Mask to Bucket Length',
  difficulty: 'Medium',
  topic: 'Transformations',
  args: Object.keys(inputs),
  /** The Python solution's function (or the file's one public function). */
  functionName: 'masked_mean',
  inputs,
  dims,
  derived,
  outputs: {
    padded: { dtype: 'float32', shape: ['B', 'W'] },
    mask: { dtype: 'bool', shape: ['B', 'W'] },
    mean: { dtype: 'float32', shape: ['B'] },
  },
  tolerance: { atol: 1e-4, rtol: 1e-4 },
  validate,
  examples,
  hints: {
    python: [
      'x.shape[1] is a Python int even under jax.jit: pick the bucket with ordinary Python, e.g. next(b for b in (8, 16, 32, 64) if b >= L).',
      'jnp.pad(x, ((0, 0), (0, W - L))) adds W - L zero columns on the right.',
      'jnp.arange(W) < lengths[:, None] broadcasts to a (B, W) bool mask; jnp.where(mask, padded, 0) keeps the valid entries.',
    ],
    javascript: [
      'x.shape[1] is a JS number even under sl.jit: pick the bucket with ordinary JS, e.g. [8, 16, 32, 64].find((b) => b >= L).',
      'np.pad(x, [[0, 0], [0, W - L]]) adds W - L zero columns on the right.',
      'np.less(np.arange(W), lengths.reshape([B, 1])) broadcasts to a (B, W) bool mask; np.where(mask, padded, 0) keeps the valid entries.',
    ],
  },
  generate,
  reference,
  requirements,
};
