// Device Mesh and Named Sharding: the problem as data for the checker.

/**
 * The argument (format: web/checker/constraints.js). Any finite value will
 * do: placement copies values, so only float32 rounding (within the
 * tolerance) separates them from the reference.
 */
const inputs = { x: { dtype: 'float32', shape: ['R', 'C'], values: { ge: -100, le: 100 } } };

/** The dimensions' allowed sizes: R splits over 8 devices and C over 4. */
const dims = { R: { oneOf: [8, 16] }, C: { oneOf: [4, 8, 12] } };

const SPECS = {
  rows: { sharding: ['data'], what: "rows split over data: P('data')" },
  cols: { sharding: [null, 'model'], what: "columns split over model: P(None, 'model')" },
  grid: { sharding: ['data', 'model'], what: "tiles over data and model: P('data', 'model')" },
  flat: { sharding: [['data', 'model']], what: "rows split over both axes: P(('data', 'model'),)" },
  replicated: { sharding: [], what: 'replicated: P()' },
};

/** The array itself for every output (placement never changes values). */
function reference({ x }) {
  return Object.fromEntries(Object.keys(SPECS).map((k) => [k, x.map((r) => [...r])]));
}

/** A case within the constraints. */
function generate(rng) {
  return { x: rng.matrix(rng.pick([8, 16]), rng.pick([4, 8, 12]), -10, 10) };
}

const requirements = [
  {
    id: 'mesh-2x4',
    text: 'Values are placed on a 2x4 mesh with axes data and model.',
    check({ jaxpr, lang, api, query: { shardMaps } }) {
      const meshes = shardMaps(jaxpr).map((sm) => sm.params.mesh);
      const put = lang === 'python' ? 'jax.device_put(x, NamedSharding(mesh, spec))' : 'sl.devicePut(x, new sl.NamedSharding(mesh, spec))';
      if (!meshes.length) return `the program places nothing on a mesh: use ${put}`;
      const bad = meshes.find((m) => JSON.stringify(m.axis_names) !== '["data","model"]' || JSON.stringify(m.shape) !== '[2,4]');
      const make = lang === 'python' ? `${api('sl.makeMesh')}((2, 4), ('data', 'model'))` : "sl.makeMesh([2, 4], ['data', 'model'])";
      return bad ? `the mesh has axes ${JSON.stringify(bad.axis_names)} of sizes ${JSON.stringify(bad.shape)}; make it with ${make}` : true;
    },
  },
];

export default {
  id: 'device-mesh-named-sharding',
  title: 'Device Mesh and Named Sharding',
  difficulty: 'Easy',
  topic: 'Sharding',
  args: Object.keys(inputs),
  /** The Python solution's function (or the file's one public function). */
  functionName: 'place',
  inputs,
  dims,
  // Every device's block is checked through addressableShards.
  outputs: Object.fromEntries(Object.entries(SPECS).map(([k, v]) => [k, { dtype: 'float32', shape: ['R', 'C'], ...v, blocks: true }])),
  tolerance: { atol: 1e-6, rtol: 1e-6 }, // float32 rounding of the inputs only
  examples: [
    {
      input: { x: Array.from({ length: 8 }, (_, r) => [0, 1, 2, 3].map((c) => 4 * r + c)) },
      expected: reference({ x: Array.from({ length: 8 }, (_, r) => [0, 1, 2, 3].map((c) => 4 * r + c)) }),
    },
  ],
  hints: {
    python: [
      "jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto, AxisType.Auto)) and jax.device_put(x, NamedSharding(mesh, P('data'))).",
      "A tuple of axes in one entry splits that dimension over both: P(('data', 'model')).",
    ],
    javascript: [
      "sl.makeMesh([2, 4], ['data', 'model']) and new sl.NamedSharding(mesh, P('data')).",
      'A list of axes in one entry splits that dimension over both: P([\'data\', \'model\']).',
    ],
  },
  generate,
  reference,
  requirements,
};
