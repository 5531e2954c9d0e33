// Ring All-Reduce with ppermute: the problem as data for the checker.

/**
 * The argument (format: web/checker/constraints.js): one row per device.
 * Values within 10 keep the float32 sums, added in each device's order,
 * within the tolerance of the float64 reference.
 */
const inputs = { x: { dtype: 'float32', shape: [8, 'N'], values: { ge: -10, le: 10 } } };

/** The dimension's allowed sizes. */
const dims = { N: { min: 1, max: 16 } };

/** psum's result per device, in float64 (no library code): every row is the sum of all rows. */
function reference({ x }) {
  const total = x[0].map((_, j) => x.reduce((s, row) => s + row[j], 0));
  return { out: x.map(() => [...total]) };
}

/** A case within the constraints. */
function generate(rng) {
  return { x: rng.matrix(8, rng.int(1, 16), -1, 1) };
}

const isRingShift = (perm) => {
  if (perm.length !== 8) return false;
  const shift = (((perm[0][1] - perm[0][0]) % 8) + 8) % 8;
  return shift !== 0 && perm.every(([s, d]) => (((d - s) % 8) + 8) % 8 === shift) && new Set(perm.map(([s]) => s)).size === 8;
};

const requirements = [
  {
    id: 'seven-ring-steps',
    text: 'The shard_map body runs 7 ppermute steps (unrolled, or a loop of 7), each a full cyclic shift along data.',
    check({ jaxpr, api, query: { equationRuns, shardMaps } }) {
      const maps = shardMaps(jaxpr);
      if (!maps.length) return `the traced program has no shard_map: the ring runs inside ${api('sl.shardMap')}`;
      const runs = maps.flatMap((sm) => equationRuns(sm.params.jaxpr)).filter((r) => r.eqn.primitive === 'ppermute');
      const count = runs.reduce((n, r) => n + r.times, 0);
      if (count !== 7) return `the body runs ${count} ppermute steps; a ring of 8 devices needs 7 to bring every row to every device`;
      const bad = runs.map((r) => r.eqn).find((e) => !e.params.axis_name.includes('data') || !isRingShift(e.params.perm));
      if (bad) return `a ppermute step with perm ${JSON.stringify(bad.params.perm)} is not a full cyclic shift of the 8 devices along data (e.g. [[0,1],[1,2],...,[7,0]])`;
      return true;
    },
  },
  {
    id: 'ring-carries-the-rows',
    text: "Each device's body works on its own row of x only, and the result depends on the rows the ppermute steps bring it.",
    async check({ jaxpr, vars, api, ablate, query: { allEquations, bodyInputsFrom, flowsTo, readersOutsideShardMaps, shardMaps } }) {
      const outside = readersOutsideShardMaps(jaxpr, vars.x);
      if (outside.length) return `x is used outside the shard_map (by ${outside[0].primitive}): the sum must come from the ring, each device starting from its own row`;
      const maps = shardMaps(jaxpr);
      for (const sm of maps) {
        const whole = bodyInputsFrom(sm, vars.x).find((v) => v.aval.shape[0] !== 1);
        if (whole) return `the shard_map body receives x as ${whole.aval.str.replace(/\{.*\}$/, '')}, more than its own row: split x with in_specs P('data') so device d holds row d only`;
      }
      // Each step must pass on what came from x: a ppermute of a constant brings nothing.
      for (const sm of maps) {
        const rows = bodyInputsFrom(sm, vars.x).map((v) => v.name);
        const idle = allEquations(sm.params.jaxpr).find((e) => e.primitive === 'ppermute' && !e.inputs.some((a) => rows.some((r) => a.name !== undefined && flowsTo(jaxpr, r, a.name))));
        if (idle) return 'a ppermute step sends values not computed from x: each step passes on the row (or the running message) the device received last';
      }
      // And the result must need what they bring: with their results replaced by zeros, it must change.
      const { changed, count } = await ablate((e) => e.primitive === 'ppermute');
      if (!count) return 'the body has no ppermute steps the result uses: each device must receive the other rows from its neighbour, one step at a time';
      if (!changed) return `the result does not depend on what the ppermute steps bring (it is the same with their results replaced by zeros): add each received message to the running sum with ${api('np.add')}`;
      return true;
    },
  },
  {
    id: 'no-psum',
    text: 'No psum or other collective but ppermute in the body.',
    check({ jaxpr, query: { allEquations, shardMaps } }) {
      // Any collective the core's registry marks, but the ring's own steps.
      const found = shardMaps(jaxpr).flatMap((sm) => allEquations(sm.params.jaxpr)).find((e) => e.collective && e.primitive !== 'ppermute');
      return found ? `the body uses ${found.primitive}: build the all-reduce from ppermute steps and additions only` : true;
    },
  },
];

export default {
  id: 'ring-allreduce-ppermute',
  title: 'Ring All-Reduce with ppermute',
  difficulty: 'Hard',
  topic: 'Sharding',
  args: Object.keys(inputs),
  /** The Python solution's function (or the file's one public function). */
  functionName: 'ring_all_reduce',
  inputs,
  dims,
  outputs: { out: { dtype: 'float32', shape: [8, 'N'], sharding: ['data'], what: "out split over data (row d on device d)" } },
  tolerance: { atol: 1e-4, rtol: 1e-4 },
  examples: [
    { input: { x: [[1], [2], [3], [4], [5], [6], [7], [8]] }, expected: { out: [[36], [36], [36], [36], [36], [36], [36], [36]] } },
    {
      input: { x: [[0.5, -1], [0.25, 1], [0, 0], [-0.5, 0.5], [1, 1], [-1, -1], [0.125, 0], [0, 2]] },
      expected: { out: Array.from({ length: 8 }, () => [0.375, 2.5]) },
    },
  ],
  hints: {
    python: [
      "Ring perm: [(d, (d + 1) % 8) for d in range(8)], passed to jax.lax.ppermute(message, 'data', perm).",
      'Keep a running sum and a message; each step ppermutes the message and adds it to the sum.',
      "out_specs=P('data') stacks the 8 per-device results into an (8, N) array.",
    ],
    javascript: [
      'Ring perm: Array.from({length: 8}, (_, d) => [d, (d + 1) % 8]).',
      'Keep a running sum and a message; each step ppermutes the message and adds it to the sum.',
      "outSpecs P('data') stacks the 8 per-device results into an (8, N) array.",
    ],
  },
  generate,
  reference,
  requirements,
};
