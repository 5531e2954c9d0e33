// Pairwise Distances with Nested vmap: the problem as data for the checker.

/** The arguments, in the solution's order (format: web/checker/constraints.js). */
const inputs = {
  x: { dtype: 'float32', shape: ['N', 'D'], values: { ge: -10, le: 10 } },
  y: { dtype: 'float32', shape: ['M', 'D'], values: { ge: -10, le: 10 } },
};

/** The dimensions' allowed sizes. */
const dims = { N: { min: 1, max: 16 }, M: { min: 1, max: 16 }, D: { min: 1, max: 8 } };

/** The Euclidean distances in float64, from the differences (no library code). */
function reference({ x, y }) {
  return { dist: x.map((a) => y.map((b) => Math.sqrt(a.reduce((acc, ai, i) => acc + (ai - b[i]) ** 2, 0)))) };
}

/**
 * A case within the constraints: random points, and among the rows of y
 * some copies of rows of x, exact or moved by a few thousandths per
 * coordinate, so that some distances are 0 or nearly 0.
 */
function generate(rng) {
  const [n, m, d] = [rng.int(1, 16), rng.int(1, 16), rng.int(1, 8)];
  const x = rng.matrix(n, d, -10, 10);
  const y = rng.matrix(m, d, -10, 10);
  const clamp = (v) => Math.min(10, Math.max(-10, Math.round(v * 1000) / 1000));
  const copies = rng.int(1, Math.min(m, 4));
  for (let c = 0; c < copies; c++) {
    const near = rng.next() < 0.6;
    y[rng.int(0, m - 1)] = x[rng.int(0, n - 1)].map((v) => (near ? clamp(v + rng.int(-5, 5) / 1000) : v));
  }
  return { x, y };
}

const examples = [
  { input: { x: [[0, 0], [3, 4]], y: [[3, 4], [6, 8], [0, 0]] }, expected: { dist: [[5, 10, 0], [0, 5, 5]] } },
  {
    input: { x: [[1, 2, 3], [-2, 6, 3]], y: [[1, 2, 3], [1.001, 2, 3], [1, 2.003, 2.996]] },
    expected: { dist: [[0, 0.001, 0.005], [5, 5.0006, 4.997602]] },
  },
];

/** The comparison's tolerance (also what the close-points requirement holds the distances to). */
const tolerance = { atol: 1e-4, rtol: 1e-4 };

/**
 * The shapes the program is traced at to see whether it grows with N or with
 * M: (n, m), (2n, m) and (n, 2m), from the case's sizes raised to at least 2.
 * (At size 1 a broadcasting solution needs one broadcast fewer, for an axis
 * that already matches, so 1 against 2 differs by an equation without any
 * growth.)
 */
function atDoubledSizes({ x, y }) {
  const [n, m, d] = [Math.max(2, x.length), Math.max(2, y.length), x[0].length];
  const at = (nn, mm) => ({ x: [nn, d], y: [mm, d] });
  return { [`N=${n}, M=${m}`]: at(n, m), [`N=${2 * n}, M=${m}`]: at(2 * n, m), [`N=${n}, M=${2 * m}`]: at(n, 2 * m) };
}

/** How `lang` maps a function over the rows of its first argument only, or of its second only. */
const inAxes = (lang, which) => (lang === 'python' ? (which === 0 ? 'in_axes=(0, None)' : 'in_axes=(None, 0)') : which === 0 ? '{inAxes: [0, null]}' : '{inAxes: [null, 0]}');

/**
 * A case whose distances of FAR and more are all right while one below
 * CLOSE is wrong shows the cancellation (a missing sqrt, say, gets the far
 * ones wrong too, and is left to the cases).
 */
const FAR = 5;
const CLOSE = 1;

const requirements = [
  {
    id: 'does-not-grow-with-N-or-M',
    text: 'The program does not grow with N or with M (traced at (n, m), (2n, m) and (n, 2m), for the sizes of a case raised to at least 2, it has as many equations).',
    traceAt: atDoubledSizes,
    check({ traces, api, lang, query: { traceFailure, sizeGrowth } }) {
      const failed = traceFailure(traces);
      if (failed) return failed;
      const [base, twiceN, twiceM] = Object.entries(traces);
      const growsN = sizeGrowth(Object.fromEntries([base, twiceN]));
      const growsM = sizeGrowth(Object.fromEntries([base, twiceM]));
      const vmap = api('sl.vmap');
      if (growsN && growsM) {
        return `the program grows with N (${growsN}) and with M (${growsM.replace(/^\d+ equations at \S+ \S+ but /, '')}): a loop over the pairs unrolls one distance per pair; write the distance between two points and map it twice with ${vmap}, the inner over the rows of y (${inAxes(lang, 1)}), the outer over the rows of x (${inAxes(lang, 0)})`;
      }
      if (growsN) return `the program grows with N (${growsN}): a loop over the rows of x unrolls one copy of its body per row; map over them with ${vmap}(..., ${inAxes(lang, 0)})`;
      if (growsM) return `the program grows with M (${growsM}): a loop over the rows of y unrolls one copy of its body per row; map over them with ${vmap}(..., ${inAxes(lang, 1)})`;
      return true;
    },
  },
  {
    id: 'accurate-for-close-points',
    text: 'Distances between equal or nearly equal points are as accurate as the others (no cancellation).',
    check({ caseResults, api, lang }) {
      const near = (got, want) => Math.abs(got - want) <= tolerance.atol + tolerance.rtol * Math.abs(want);
      for (const c of caseResults) {
        const got = c.outputs?.dist;
        const want = c.expected.dist;
        if (!got || got.length !== want.length || got[0]?.length !== want[0].length) continue;
        const pairs = want.flatMap((row, i) => row.map((w, j) => ({ i, j, w, g: got[i][j] })));
        const far = pairs.filter((p) => p.w >= FAR);
        if (!far.length || !far.every((p) => near(p.g, p.w))) continue;
        const bad = pairs.find((p) => p.w < CLOSE && !near(p.g, p.w));
        if (!bad) continue;
        const direct = lang === 'python' ? `${api('np.sqrt')}(${api('np.sum')}(${api('np.square')}(a - b)))` : 'a.sub(b).square().sum().sqrt()';
        return `on ${c.name}, x[${bad.i}] and y[${bad.j}] are ${+bad.w.toFixed(6)} apart but the solution gives ${bad.g}, while the distances of ${FAR} and more are right: that is the cancellation of |a|^2 + |b|^2 - 2 a·b, whose terms reach hundreds while their difference is tiny, so float32 rounding leaves errors of about 1e-3 (or a small negative number, whose square root is NaN); subtract the points first and square the difference: ${direct}`;
      }
      return true;
    },
  },
];

export default {
  id: 'pairwise-distances-nested-vmap',
  title: 'Pairwise Distances with Nested vmap',
  difficulty: 'Medium',
  topic: 'Transformations',
  args: Object.keys(inputs),
  /** The Python solution's function (or the file's one public function). */
  functionName: 'pairwise',
  inputs,
  dims,
  outputs: { dist: { dtype: 'float32', shape: ['N', 'M'] } },
  // Computed from the differences, a float32 distance is off by a few 1e-6
  // (the inputs' own rounding to float32; below 5e-6 over 6,600 cases), for
  // coinciding points too; 1e-4 keeps a wide margin and still tells a 0.001
  // distance from the 0 or 0.0014 the expanded formula gives.
  tolerance,
  examples,
  hints: {
    python: [
      'Write dist(a, b) for two points of shape (D,): jnp.sqrt(jnp.sum(jnp.square(a - b))).',
      'jax.vmap(dist, in_axes=(None, 0)) maps it over the rows of y for one point a: a row of M distances.',
      'Map that again over the rows of x with in_axes=(0, None): (N, M) distances, in a program the size of one distance.',
    ],
    javascript: [
      'Write dist(a, b) for two points of shape [D]: a.sub(b).square().sum().sqrt().',
      'sl.vmap(dist, {inAxes: [null, 0]}) maps it over the rows of y for one point a: a row of M distances.',
      'Map that again over the rows of x with {inAxes: [0, null]}: [N, M] distances, in a program the size of one distance.',
    ],
  },
  generate,
  reference,
  requirements,
};
