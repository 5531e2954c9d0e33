// Tensor-Parallel MLP: the problem as data for the checker.

/** The arguments, in the solution's order (format: web/checker/constraints.js). */
const inputs = {
  x: { dtype: 'float32', shape: ['B', 'D'], values: { ge: -10, le: 10 } },
  w1: { dtype: 'float32', shape: ['D', 'H'], values: { ge: -10, le: 10 } },
  b1: { dtype: 'float32', shape: ['H'], values: { ge: -10, le: 10 } },
  w2: { dtype: 'float32', shape: ['H', 'O'], values: { ge: -10, le: 10 } },
  b2: { dtype: 'float32', shape: ['O'], values: { ge: -10, le: 10 } },
};

/** The dimensions' allowed sizes: H splits evenly over the 8 devices. */
const dims = { B: { min: 1, max: 4 }, D: { min: 1, max: 5 }, H: { oneOf: [8, 16, 24, 32] }, O: { min: 1, max: 4 } };

const examples = [
  {
    input: {
      x: [[0.0, 0.5]],
      w1: [[-0.8, 0.2, -1.2, -0.7, -0.1, 0.9, -1.4, 1.0], [1.3, -0.4, 0.7, 1.4, 1.7, 0.6, -0.6, -0.9]],
      b1: [-0.1, -0.1, 0.0, -0.1, 0.3, 0.4, -0.3, 0.1],
      w2: [[1.1], [0.0], [1.4], [0.2], [0.5], [0.0], [0.2], [-1.0]],
      b2: [0.6],
    },
    expected: { out: [[2.39]], hidden: [[0.55, 0.0, 0.35, 0.6, 1.15, 0.7, 0.0, 0.0]] },
  },
  {
    input: {
      x: [[0.0, 0.8, 0.7], [-0.1, 0.4, -0.3]],
      w1: [[-0.8, 0.7, 0.5, 0.2, 0.0, -0.9, 0.8, 0.1], [0.0, 0.2, -0.6, 0.2, 0.4, 1.5, 0.1, -0.7], [1.3, 0.2, -0.1, 0.2, -1.3, 0.0, 0.0, -1.2]],
      b1: [0.6, -0.4, 0.3, 0.2, -0.3, 0.4, 0.0, 0.3],
      w2: [[0.0, -0.4], [0.8, -0.5], [-0.6, 0.5], [0.0, -0.4], [0.0, -0.4], [0.9, -0.2], [0.9, -0.1], [0.6, 0.2]],
      b2: [-0.4, 0.1],
    },
    expected: {
      out: [[1.112, -1.032], [0.779, -0.32]],
      hidden: [[1.51, 0.0, 0.0, 0.5, 0.0, 1.6, 0.08, 0.0], [0.29, 0.0, 0.04, 0.2, 0.25, 1.09, 0.0, 0.37]],
    },
  },
  {
    input: {
      x: [[-1.6, 1.8], [-0.3, -0.9], [-0.5, -0.3]],
      w1: [
        [0.5, -0.6, -0.8, -0.7, 0.3, 0.2, 0.9, 1.2, 0.2, 0.3, -0.8, 0.8, 1.5, -1.2, -1.2, -0.9],
        [0.8, 1.0, 0.1, 0.0, -1.4, -1.0, -0.3, 1.2, -0.5, -0.6, 0.5, 0.5, 1.5, 0.0, 0.6, -0.2],
      ],
      b1: [0.3, 0.1, 0.0, 0.0, 0.4, -0.1, 0.7, 0.0, 0.5, -0.1, 0.6, -0.3, -0.2, -0.2, -0.2, -0.2],
      w2: [[0.2, -0.4], [-0.5, 0.4], [0.3, -0.4], [0.0, 0.4], [-0.1, 0.0], [0.3, -0.4], [0.3, 0.4], [0.2, -0.7], [0.2, 0.1], [0.0, -0.2], [-0.7, 0.8], [-0.1, -0.1], [0.6, -0.7], [-0.9, 0.3], [0.4, 0.4], [-0.3, -0.3]],
      b2: [-0.2, 0.5],
    },
    expected: {
      out: [[-3.534, 4.49], [-0.194, 0.812], [-0.924, 1.478]],
      hidden: [
        [0.94, 2.86, 1.46, 1.12, 0.0, 0.0, 0.0, 0.24, 0.0, 0.0, 2.78, 0.0, 0.1, 1.72, 2.8, 0.88],
        [0.0, 0.0, 0.15, 0.21, 1.57, 0.74, 0.7, 0.0, 0.89, 0.35, 0.39, 0.0, 0.0, 0.16, 0.0, 0.25],
        [0.0, 0.1, 0.37, 0.35, 0.67, 0.1, 0.34, 0.0, 0.55, 0.0, 0.85, 0.0, 0.0, 0.4, 0.22, 0.31],
      ],
    },
  },
];

/** The MLP in float64, from the formula (no library code). */
function reference({ x, w1, b1, w2, b2 }) {
  const hidden = x.map((row) => b1.map((bj, j) => Math.max(0, row.reduce((s, v, i) => s + v * w1[i][j], bj))));
  const out = hidden.map((h) => b2.map((bk, k) => h.reduce((s, v, j) => s + v * w2[j][k], bk)));
  return { out, hidden };
}

/** A case within the constraints, from a seeded random source. */
function generate(rng) {
  const [b, d, h, o] = [rng.int(1, 4), rng.int(1, 5), rng.pick([8, 16, 24, 32]), rng.int(1, 4)];
  return { x: rng.matrix(b, d, -2, 2), w1: rng.matrix(d, h, -1, 1), b1: rng.vector(h, -1, 1), w2: rng.matrix(h, o, -1, 1), b2: rng.vector(o, -1, 1) };
}

const strip = (s) => s.replace(/\{.*\}$/, '');

/** Checks on the traced program (see data-parallel-step/problem.js for `ctx`). */
const requirements = [
  {
    id: 'weight-blocks',
    text: 'The shard_map body receives weight blocks of shape (D, H/8) and (H/8, O) through its in_specs.',
    check({ jaxpr, vars, input, api, query: { bodyInputsFrom, shardMaps } }) {
      const maps = shardMaps(jaxpr);
      if (!maps.length) return `the traced program has no shard_map: use ${api('sl.shardMap')} with the weights split over model`;
      const [d, h, o] = [input.w1.length, input.w1[0].length, input.w2[0].length];
      for (const [name, want] of [['w1', `f32[${d},${h / 8}]`], ['w2', `f32[${h / 8},${o}]`]]) {
        const got = maps.flatMap((sm) => bodyInputsFrom(sm, vars[name]));
        if (!got.length) return `${name} never reaches the shard_map body: pass it with an in_spec that splits it`;
        const bad = got.find((v) => strip(v.aval.str) !== want);
        if (bad) return `the shard_map body receives ${name} as ${strip(bad.aval.str)}; each device should get a block of ${want}`;
      }
      return true;
    },
  },
  {
    id: 'has-psum',
    text: 'The body adds the partial outputs with a psum.',
    check({ jaxpr, api, query: { hasPrimitive, shardMaps } }) {
      return shardMaps(jaxpr).some((sm) => hasPrimitive(sm.params.jaxpr, 'psum')) || `the shard_map body has no psum: add the partial outputs across devices with ${api('lax.psum')}`;
    },
  },
  {
    id: 'hidden-split',
    text: 'hidden comes straight out of the shard_map, split by columns.',
    check({ jaxpr, outputs, lang, query: { shardMaps } }) {
      // The output by its key in the result (a dict's keys flatten sorted), through the learner's own jits.
      const name = outputs.hidden;
      const cols = lang === 'python' ? "P(None, 'model')" : "P(null, 'model')";
      const sm = shardMaps(jaxpr).find((e) => e.outputs.some((v) => v.name === name));
      if (!sm) return `hidden does not come straight out of a shard_map: return the hidden block from the body with out_specs ${cols}`;
      const spec = sm.params.out_specs[sm.outputs.findIndex((v) => v.name === name)];
      return JSON.stringify(spec) === JSON.stringify([null, 'model']) || `hidden leaves the shard_map with out_specs ${JSON.stringify(spec)}; keep it split by columns with ${cols}`;
    },
  },
  {
    id: 'b2-once',
    text: 'b2 is added exactly once to the combined output.',
    check({ caseResults }) {
      for (const c of caseResults) {
        if (!c.outputs?.out) continue;
        const b2 = c.input.b2;
        // Added inside the body, b2 goes through the psum: out = expected + 7 * b2.
        const eightTimes = c.outputs.out.every((row, r) => row.every((v, k) => Math.abs(v - c.expected.out[r][k] - 7 * b2[k]) < 1e-3));
        if (b2.some((v) => Math.abs(v) > 1e-2) && eightTimes) {
          return 'b2 is added 8 times: adding it inside the body adds it once per device before the psum; add it once, after';
        }
      }
      return true;
    },
  },
];

export default {
  id: 'tensor-parallel-mlp',
  title: 'Tensor-Parallel MLP',
  difficulty: 'Medium',
  topic: 'Sharding',
  args: Object.keys(inputs),
  /** The Python solution's function (or the file's one public function). */
  functionName: 'mlp',
  inputs,
  dims,
  outputs: {
    out: { dtype: 'float32', shape: ['B', 'O'], sharding: [], what: 'out replicated on all 8 devices' },
    hidden: { dtype: 'float32', shape: ['B', 'H'], sharding: [null, 'model'], what: 'hidden split by columns over model' },
  },
  tolerance: { atol: 1e-4, rtol: 1e-4 },
  examples,
  hints: {
    python: [
      "P(None, 'model') splits columns and P('model', None) splits rows.",
      "jax.lax.psum(partial, 'model') adds the partial outputs across devices.",
      'Add b2 outside the shard_map, once.',
    ],
    javascript: [
      "P(null, 'model') splits columns and P('model', null) splits rows.",
      "lax.psum(partial, 'model') adds the partial outputs across devices.",
      'Add b2 outside the shard_map, once.',
    ],
  },
  generate,
  reference,
  requirements,
};
