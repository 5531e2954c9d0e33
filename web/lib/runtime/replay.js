// Rebuilds a core Program from its JSON form (ir/json.h) by emitting its
// equations again through the tracing API: each primitive's shape rule checks
// them on the way, and a shard_map body is traced as a nested trace again.

const meshes = new Map();

function meshFor(M, { shape, axis_names: names }) {
  const key = `${shape}|${names}`;
  if (!meshes.has(key)) meshes.set(key, new M.DeviceMesh(shape, names));
  return meshes.get(key);
}

function replayEqns(M, trace, eqns, env) {
  const atom = (a) => (a.literal !== undefined ? { literal: Number(a.literal), dtype: a.aval.dtype } : env.get(a.name));
  for (const e of eqns) {
    const inputs = e.inputs.map(atom);
    let outs;
    if (e.primitive === 'shard_map') {
      const { jaxpr, mesh, in_specs: inSpecs, out_specs: outSpecs, check_vma: checkVma } = e.params;
      const sm = new M.ShardMapTrace(trace, meshFor(M, mesh), inSpecs, checkVma, inputs);
      try {
        const body = new Map();
        sm.blocks().forEach((b, i) => body.set(jaxpr.invars[i].name, b));
        replayEqns(M, sm.body(), jaxpr.eqns, body);
        const bodyAtom = (a) => (a.literal !== undefined ? { literal: Number(a.literal), dtype: a.aval.dtype } : body.get(a.name));
        outs = sm.finish(outSpecs, jaxpr.outvars.map(bodyAtom));
      } finally {
        sm.delete();
      }
    } else {
      outs = trace.emit(e.primitive, e.params, inputs);
    }
    e.outputs.forEach((o, i) => env.set(o.name, outs[i]));
  }
}

/** The core Program of a program's JSON form (call .delete() when done). */
export function replayProgram(M, json) {
  const trace = new M.Trace();
  try {
    const env = new Map();
    for (const v of json.invars) env.set(v.name, trace.input(v.aval.dtype, v.aval.shape));
    replayEqns(M, trace, json.eqns, env);
    return trace.build(json.outvars.map((a) => (a.literal !== undefined ? { literal: Number(a.literal), dtype: a.aval.dtype } : env.get(a.name))));
  } finally {
    trace.delete();
  }
}
