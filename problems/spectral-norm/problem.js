// Spectral Norm by Power Iteration: the problem as data for the checker.

/** The arguments, in the solution's order (format: web/checker/constraints.js). */
const inputs = {
  w: { dtype: 'float32', shape: ['M', 'N'], values: { ge: -10, le: 10 } },
  u0: { dtype: 'float32', shape: ['M'], values: { ge: -1, le: 1 } },
  iters: { dtype: 'int32', shape: [], values: { ge: 1, le: 50 } },
};

/** The dimensions' allowed sizes. */
const dims = { M: { min: 2, max: 8 }, N: { min: 2, max: 8 } };

/** The smallest ratio sigma_1 / sigma_2 allowed, and the smallest |cos| between u0 and the top left singular vector. */
const GAP = 1.5;
const ALIGN = 0.1;

// Float64 vector helpers (no library code).
const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);
const norm = (a) => Math.sqrt(dot(a, a));
const unit = (a) => a.map((x) => x / norm(a));
const times = (w, v) => w.map((row) => dot(row, v)); // W v
const timesT = (w, u) => w[0].map((_, j) => w.reduce((s, row, i) => s + row[j] * u[i], 0)); // W^T u

/**
 * The eigenvalues of the symmetric matrix `a` (descending) with their unit
 * eigenvectors, by cyclic Jacobi rotations in float64.
 */
function symmetricEigen(a0) {
  const n = a0.length;
  const a = a0.map((row) => row.slice());
  const v = a.map((_, i) => a.map((_, j) => (i === j ? 1 : 0)));
  const scale = Math.max(1e-300, a.reduce((s, row) => s + dot(row, row), 0));
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p][q] * a[p][q];
    if (off <= 1e-30 * scale) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        if (a[p][q] === 0) continue;
        // The rotation by angle phi with cot(2 phi) = theta zeroes a[p][q].
        const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const [kp, kq] = [a[k][p], a[k][q]];
          a[k][p] = c * kp - s * kq;
          a[k][q] = s * kp + c * kq;
        }
        for (let k = 0; k < n; k++) {
          const [pk, qk] = [a[p][k], a[q][k]];
          a[p][k] = c * pk - s * qk;
          a[q][k] = s * pk + c * qk;
        }
        for (let k = 0; k < n; k++) {
          const [kp, kq] = [v[k][p], v[k][q]];
          v[k][p] = c * kp - s * kq;
          v[k][q] = s * kp + c * kq;
        }
      }
    }
  }
  const order = a.map((_, i) => i).sort((i, j) => a[j][j] - a[i][i]);
  return { values: order.map((i) => a[i][i]), vectors: order.map((i) => v.map((row) => row[i])) };
}

/** The conditions under which the iteration is well defined and float32 follows float64: a gap and a start that sees the top direction. */
function validate({ w, u0 }) {
  const nu = norm(u0);
  if (nu === 0) return 'input u0 is zero; the iteration needs a nonzero start';
  const wwt = w.map((r) => w.map((s) => dot(r, s)));
  const { values, vectors } = symmetricEigen(wwt);
  const [s1, s2] = values.slice(0, 2).map((l) => Math.sqrt(Math.max(l, 0)));
  if (!(s1 > 0)) return 'input w is zero; it must have a nonzero singular value';
  if (s1 < GAP * s2) {
    return `input w has sigma_1 = ${s1.toFixed(4)} and sigma_2 = ${s2.toFixed(4)} (a ratio of ${(s1 / s2).toFixed(3)}); the cases need sigma_1 >= ${GAP} sigma_2 so that the iteration settles`;
  }
  const cos = Math.abs(dot(u0, vectors[0])) / nu;
  if (cos < ALIGN) return `input u0 is nearly orthogonal to the top left singular vector of w (|cos| = ${cos.toFixed(4)}); the cases need |cos| >= ${ALIGN}`;
  return null;
}

/** sigma and u after `iters` steps of the iteration in float64, from the definition (no library code). */
function reference({ w, u0, iters }) {
  let u = u0.slice();
  let v = null;
  for (let t = 0; t < iters; t++) {
    v = unit(timesT(w, u));
    u = unit(times(w, v));
  }
  return { sigma: dot(u, times(w, v)), u };
}

// n orthonormal vectors of length n: Gram-Schmidt (twice) on random ones, in float64.
function orthonormal(rng, n) {
  const basis = [];
  while (basis.length < n) {
    let x = Array.from({ length: n }, () => 2 * rng.next() - 1);
    for (let pass = 0; pass < 2; pass++) {
      for (const b of basis) {
        const d = dot(x, b);
        x = x.map((xi, i) => xi - d * b[i]);
      }
    }
    if (norm(x) > 1e-3) basis.push(unit(x));
  }
  return basis;
}

const round3 = (x) => Math.round(x * 1000) / 1000 + 0; // + 0: no -0

/**
 * A case within the constraints: W = sum_r s_r a_r b_r^T from random
 * orthonormal a_r, b_r and chosen singular values s_1 in [2, 9] and
 * s_2 <= s_1 / 1.6, rounded to 3 decimals; the gap and u0 are then checked
 * on the rounded W (validate), and the draw repeated if they fail.
 */
function generate(rng) {
  for (;;) {
    const M = rng.int(2, 8);
    const N = rng.int(2, 8);
    const [A, B] = [orthonormal(rng, M), orthonormal(rng, N)];
    const s = [2 + 7 * rng.next()];
    s.push(s[0] / (1.6 + 2.4 * rng.next()));
    for (let r = 2; r < Math.min(M, N); r++) s.push(s[r - 1] * rng.next());
    const w = A.map((_, i) => B.map((_, j) => round3(s.reduce((acc, sr, r) => acc + sr * A[r][i] * B[r][j], 0))));
    const u0 = rng.vector(M, -1, 1);
    const iters = rng.next() < 0.5 ? rng.int(1, 5) : rng.int(6, 50);
    const input = { w, u0, iters };
    if (validate(input) === null) return input;
  }
}

const examples = [
  { input: { w: [[3, 0], [0, 1]], u0: [1, 1], iters: 1 }, expected: { sigma: 2.863564, u: [0.993884, 0.110432] } },
  { input: { w: [[3, 0], [0, 1]], u0: [1, 1], iters: 50 }, expected: { sigma: 3, u: [1, 0] } },
  { input: { w: [[2, 1, 0], [1, 2, 0]], u0: [1, 0], iters: 2 }, expected: { sigma: 2.998173, u: [0.715782, 0.698324] } },
];

// The explanation of a trace stopped by a loop over the traced count.
function loopCountError(error, { lang, api }) {
  if (!/^(Concretization|TracerIntegerConversion)/.test(error.name)) return null;
  const how = lang === 'python' ? 'range(iters) or int(iters)' : 'i < iters in a for loop, or Number(iters)';
  return `the loop count is read as a number (${how}): under jit iters is abstract, so the number of steps cannot be known while tracing; let the program count: ${api('lax.foriLoop')}(0, iters, body, init) with the traced iters (${error.name})`;
}

const requirements = [
  {
    id: 'uses-while-loop',
    text: 'The iteration runs in a loop of the program: a while (what fori_loop with a traced bound and while_loop trace to).',
    check({ jaxpr, api, query: { allEquations } }) {
      const eqns = allEquations(jaxpr);
      if (eqns.some((e) => e.primitive === 'while')) return true;
      const scan = eqns.find((e) => e.primitive === 'scan');
      if (scan) {
        return `the iteration is a scan of fixed length ${scan.params.length}: the number of steps was fixed while tracing; give ${api('lax.foriLoop')} the traced iters as its upper bound (it then becomes a while loop)`;
      }
      return `the program has no loop: the steps were unrolled a fixed number of times; run them in ${api('lax.foriLoop')}(0, iters, body, init) so that the traced iters sets the count`;
    },
    traceError: loopCountError,
  },
  {
    id: 'trip-count-is-iters',
    text: "The while loop's operands depend on iters: it runs exactly iters steps, counted inside the program.",
    check({ jaxpr, vars, api, query: { allEquations, dependents } }) {
      const deps = dependents(jaxpr, vars.iters);
      const whiles = allEquations(jaxpr).filter((e) => e.primitive === 'while');
      if (whiles.some((e) => e.inputs.some((a) => deps.has(a.name)))) return true;
      if (!whiles.length) return `no while loop reads iters: the number of steps must come from the traced iters, e.g. ${api('lax.foriLoop')}(0, iters, body, init)`;
      return `the while loop does not depend on iters: it stops by a rule of its own (such as convergence), but the result must be exactly iters steps; count them with ${api('lax.foriLoop')}(0, iters, body, init)`;
    },
    traceError: loopCountError,
  },
];

export default {
  id: 'spectral-norm',
  title: 'Spectral Norm by Power Iteration',
  difficulty: 'Medium',
  topic: 'Control flow',
  args: Object.keys(inputs),
  /** The Python solution's function (or the file's one public function). */
  functionName: 'spectral_norm',
  inputs,
  dims,
  outputs: {
    sigma: { dtype: 'float32', shape: [] },
    u: { dtype: 'float32', shape: ['M'] },
  },
  // float32 against the float64 iteration of as many steps: the gap makes the iteration contract, so rounding does not pile up.
  tolerance: { atol: 1e-3, rtol: 1e-3 },
  validate,
  examples,
  hints: {
    python: [
      'jax.lax.fori_loop(0, iters, body, init) with a traced iters becomes a while loop; body(i, carry) returns the new carry.',
      'Carry the pair (u, v): start v at jnp.zeros(N), since the first step overwrites it.',
      'jnp.linalg.norm(v) is the Euclidean norm; after the loop, sigma is u @ w @ v.',
    ],
    javascript: [
      'lax.foriLoop(0, iters, body, init) with a traced iters becomes a while loop; body(i, carry) returns the new carry.',
      'Carry the pair [u, v]: start v at np.zeros([N]), since the first step overwrites it.',
      'np.linalg.norm(v) is the Euclidean norm; after the loop, sigma is u.dot(w.matmul(v)).',
    ],
  },
  generate,
  reference,
  requirements,
};
