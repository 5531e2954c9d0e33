// Data-Parallel Step with psum: the problem as data for the checker.

import { tracedScalar } from '../requirements.js';

/** The arguments, in the solution's order (format: web/checker/constraints.js). */
const inputs = {
  w: { dtype: 'float32', shape: ['D', 'K'], values: { ge: -10, le: 10 } },
  b: { dtype: 'float32', shape: ['K'], values: { ge: -10, le: 10 } },
  x: { dtype: 'float32', shape: ['N', 'D'], values: { ge: -10, le: 10 } },
  y: { dtype: 'float32', shape: ['N', 'K'], values: { ge: -20, le: 20 } },
  lr: { dtype: 'float32', shape: [], values: { gt: 0, le: 0.3 } },
};

/** The dimensions' allowed sizes: N splits evenly over the 8 devices. */
const dims = { N: { oneOf: [8, 16, 24, 32] }, D: { min: 1, max: 4 }, K: { min: 1, max: 3 } };

const examples = [
  {
    input: { w: [[0.0]], b: [0.0], x: [[1], [2], [3], [4], [5], [6], [7], [8]], y: [[3], [5], [7], [9], [11], [13], [15], [17]], lr: 0.01 },
    expected: { w: [[1.11]], b: [0.2], loss: 121.0 },
  },
  {
    input: {
      w: [[0.1], [0.3]],
      b: [0.0],
      x: [[0.2, 0.1], [0.7, 0.8], [0.2, -0.7], [-1.3, -3.2], [-0.9, -0.8], [0.1, 0.3], [0.3, -0.3], [-0.4, 0.2], [0.1, -0.5], [0.4, 0.2], [-0.6, 0.5], [0.1, -0.2], [0.5, 0.0], [1.0, 1.0], [-0.1, 0.4], [-0.9, -0.4]],
      y: [[-0.8], [-0.4], [-0.3], [0.1], [-0.6], [-0.3], [-0.6], [-0.7], [0.1], [-0.2], [-0.4], [-0.4], [-0.7], [0.2], [-0.1], [-0.3]],
      lr: 0.1,
    },
    expected: { w: [[0.072288], [0.239088]], b: [-0.057], loss: 0.303913 },
  },
  {
    input: {
      w: [[0.1, 1.0], [-1.3, -0.4]],
      b: [-0.2, -0.3],
      x: [[-0.5, 0.8], [0.4, -0.4], [-0.9, -0.1], [0.8, 0.7], [2.0, 0.0], [-0.7, -0.4], [-0.2, -0.4], [-0.9, 0.1]],
      y: [[-0.7, 1.1], [0.6, -0.6], [0.1, 1.3], [-1.0, -0.2], [0.2, -1.1], [0.0, 1.0], [-0.3, 0.6], [-0.5, 1.0]],
      lr: 0.05,
    },
    expected: { w: [[0.104475, 0.8363], [-1.291212, -0.39135]], b: [-0.195125, -0.22975], loss: 3.745738 },
  },
];

/** The step in float64, from the formula (no library code). */
function reference({ w, b, x, y, lr }) {
  const n = x.length;
  const d = w.length;
  const k = b.length;
  const gw = w.map((row) => row.map(() => 0));
  const gb = b.map(() => 0);
  let loss = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < k; j++) {
      let pred = b[j];
      for (let t = 0; t < d; t++) pred += x[i][t] * w[t][j];
      const err = pred - y[i][j];
      loss += (err * err) / n;
      gb[j] += (2 * err) / n;
      for (let t = 0; t < d; t++) gw[t][j] += (2 * err * x[i][t]) / n;
    }
  }
  return { w: w.map((row, t) => row.map((v, j) => v - lr * gw[t][j])), b: b.map((v, j) => v - lr * gb[j]), loss };
}

/** A case within the constraints, from a seeded random source. */
function generate(rng) {
  const n = rng.pick([8, 16, 24, 32]);
  const d = rng.int(1, 4);
  const k = rng.int(1, 3);
  return {
    w: rng.matrix(d, k, -1, 1),
    b: rng.vector(k, -1, 1),
    x: rng.matrix(n, d, -2, 2),
    y: rng.matrix(n, k, -2, 2),
    lr: rng.pick([0.01, 0.05, 0.1, 0.2, 0.3]),
  };
}

/**
 * Checks on the traced program: each returns true or a message for the
 * learner. `ctx` = {jaxpr (JSON), vars (argument name -> program variable),
 * input (the traced case), caseResults}; the engine fails every requirement
 * with the error when the solution cannot be traced.
 */
const requirements = [
  {
    id: 'shard-map-splits-x',
    text: 'The program has a shard_map whose body receives x in blocks of shape (N/8, D).',
    check({ jaxpr, vars, input, api, query: { bodyInputsFrom, shardMaps } }) {
      const n = input.x.length;
      const d = input.x[0].length;
      const maps = shardMaps(jaxpr);
      if (!maps.length) return `the traced program has no shard_map: use ${api('sl.shardMap')} so each device works on its own part of the batch`;
      const blocks = maps.flatMap((sm) => bodyInputsFrom(sm, vars.x));
      if (!blocks.length) return 'x never reaches a shard_map body: pass x to the shard_map';
      const want = `f32[${n / 8},${d}]`;
      const bad = blocks.find((v) => v.aval.str.replace(/\{.*\}$/, '') !== want);
      if (bad) return `the shard_map body receives x as ${bad.aval.str.replace(/\{.*\}$/, '')}; each device should get a block of ${want} (in_specs P('data') for x)`;
      return true;
    },
  },
  {
    id: 'no-full-batch-in-body',
    text: 'Only the shard_map body works on x and y, and it never receives them whole (e.g. by closing over them).',
    check({ jaxpr, vars, query: { bodyInputsFrom, readersOutsideShardMaps, shardMaps } }) {
      for (const name of ['x', 'y']) {
        const outside = readersOutsideShardMaps(jaxpr, vars[name]);
        if (outside.length) return `${name} is used outside the shard_map (by ${outside[0].primitive}): compute the loss and its gradient inside the body, each device on its own block of the batch`;
      }
      for (const sm of shardMaps(jaxpr)) {
        for (const name of ['x', 'y']) {
          const whole = bodyInputsFrom(sm, vars[name], { split: false });
          if (whole.length) return `the shard_map body receives the whole ${name} (${whole[0].aval.str}): split it with P('data') instead of passing or capturing it whole`;
        }
      }
      return true;
    },
  },
  {
    id: 'reduces-over-data',
    text: 'The update of w and b comes from a pmean or psum over data of gradients the body computes from its blocks of x and y.',
    check({ jaxpr, vars, outputs, api, query: { allEquations, bodyInputsFrom, flowsTo, shardMaps } }) {
      // Each psum over data in a body, with the body's blocks of x and y.
      const sums = shardMaps(jaxpr).flatMap((sm) => {
        const blocks = (name) => bodyInputsFrom(sm, vars[name]).map((v) => v.name);
        const [xs, ys] = [blocks('x'), blocks('y')];
        return allEquations(sm.params.jaxpr)
          .filter((e) => e.primitive === 'psum' && e.params.axes.includes('data'))
          .flatMap((e) => e.outputs.map((o) => ({ out: o.name, fromBatch: xs.some((v) => flowsTo(jaxpr, v, o.name)) && ys.some((v) => flowsTo(jaxpr, v, o.name)) })));
      });
      if (!sums.length) return `the shard_map body has no psum or pmean over data that the result uses: average the per-device losses and gradients with ${api('lax.pmean')}`;
      for (const key of ['w', 'b']) {
        const used = sums.filter((s) => flowsTo(jaxpr, s.out, outputs[key]));
        if (!used.some((s) => s.fromBatch)) {
          const why = used.length ? 'the psum or pmean it uses does not reduce values computed from x and y' : 'it does not use any psum or pmean over data';
          return `the update of ${key} does not come from the reduction of the devices' gradients (${why}): compute the gradient from each device's blocks of x and y inside the body, then ${api('lax.pmean')} it over data`;
        }
      }
      return true;
    },
  },
  {
    id: 'mean-gradient',
    text: 'The update uses the mean gradient over the batch, never 8 times it.',
    check({ jaxpr, outputs, caseResults, api, query: { allEquations, flowsTo, shardMaps } }) {
      for (const c of caseResults) {
        if (!c.outputs?.w) continue;
        const w0 = c.input.w.flat();
        const got = c.outputs.w.flat();
        const want = c.expected.w.flat();
        const ratios = w0.map((v, i) => (Math.abs(v - want[i]) > 1e-3 ? (v - got[i]) / (v - want[i]) : null)).filter((r) => r !== null);
        if (ratios.length && ratios.every((r) => Math.abs(r - 8) < 0.05)) {
          // Without pcast, differentiating the invariant w already sums over the devices (the transpose of the
          // implicit pvary is a psum), and the learner's reduction comes on top: two psums in a row on the way
          // to w. With pcast the gradient is per device, and one psum adds the devices' mean gradients.
          const sums = shardMaps(jaxpr).flatMap((sm) => allEquations(sm.params.jaxpr).filter((e) => e.primitive === 'psum' && e.params.axes.includes('data')));
          const toW = sums.flatMap((e) => e.outputs.map((o) => o.name)).filter((o) => flowsTo(jaxpr, o, outputs.w));
          const twice = toW.some((a) => toW.some((b) => a !== b && flowsTo(jaxpr, a, b)));
          if (!twice) return `the update uses 8 times the mean gradient: each device's gradient is already the mean over its own block, and ${api('lax.psum')} adds the 8 of them; average them with ${api('lax.pmean')} instead`;
          return `the update uses 8 times the mean gradient: inside the body the gradient of an invariant parameter is already summed over the devices; ${api('lax.pcast')} w and b to varying before taking the gradient, then ${api('lax.pmean')}`;
        }
      }
      return true;
    },
    traceError(error, { api }) {
      // A returned value that varies along data: out_specs P() says which output, its type which one it is.
      const m = /Output \d+ \(f32\[([\d,]*)\]\{V:data\}\) has out_specs P\(\) but varies along mesh axis 'data'/.exec(error.message);
      if (!m) return null;
      const rank = m[1] === '' ? 0 : m[1].split(',').length;
      if (rank === 0) return `the returned loss differs from device to device: average it over data with ${api('lax.pmean')} before returning it (${error.name})`;
      const name = rank === 1 ? 'b' : 'w';
      return `the returned ${name} differs from device to device: it is computed from the varying copy ${api('lax.pcast')} made, which is only for taking the gradient; update the body's own ${name} (the same on every device) with the averaged gradient (${error.name})`;
    },
  },
  tracedScalar('lr', {
    unused: 'the update must multiply the gradient by the traced lr',
    how: { python: 'float(lr), int(lr) or lr.item()', javascript: 'Number(lr), +lr or a comparison' },
  }),
  {
    id: 'no-branch-on-traced',
    text: 'The function does not branch on traced values.',
    check() {
      // A traced branch stops the trace (in Python; JavaScript cannot intercept `if (t)`), so a traced program has none.
      return true;
    },
    traceError(error, { api }) {
      if (error.name !== 'TracerBoolConversionError') return null;
      return `the function branches on a traced value (an if or while on an array): under jit the arguments are abstract, so Python cannot decide the branch; compute both sides and choose with ${api('np.where')}, or decide from shapes, which are static (${error.name})`;
    },
  },
];

export default {
  id: 'data-parallel-step',
  title: 'Data-Parallel Step with psum',
  difficulty: 'Medium',
  topic: 'Sharding',
  args: Object.keys(inputs),
  /** The Python solution's function (or the file's one public function). */
  functionName: 'step',
  inputs,
  dims,
  outputs: {
    w: { dtype: 'float32', shape: ['D', 'K'], sharding: [], what: 'w replicated on all 8 devices' },
    b: { dtype: 'float32', shape: ['K'], sharding: [], what: 'b replicated on all 8 devices' },
    loss: { dtype: 'float32', shape: [], sharding: [], what: 'loss replicated on all 8 devices' },
  },
  tolerance: { atol: 1e-4, rtol: 1e-4 },
  examples,
  hints: {
    python: [
      "jax.make_mesh((8,), ('data',), axis_types=(AxisType.Auto,)) makes the mesh; with Auto axes shard_map splits plain inputs itself.",
      "jax.shard_map(f, mesh=mesh, in_specs=(P(), P(), P('data'), P('data')), out_specs=P())",
      "jax.lax.pcast((w, b), 'data', to='varying') makes the parameters per-device; jax.lax.pmean averages across devices.",
    ],
    javascript: [
      "sl.makeMesh([8], ['data']) makes the mesh; shardMap accepts plain replicated inputs.",
      "sl.shardMap(f, {mesh, inSpecs: [P(), P(), P('data'), P('data')], outSpecs: P()}).",
      "lax.pcast([w, b], 'data', {to: 'varying'}) makes the parameters per-device; lax.pmean averages across devices.",
    ],
  },
  generate,
  reference,
  requirements,
};
