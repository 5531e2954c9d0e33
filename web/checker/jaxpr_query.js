// Queries over a traced program's JSON form (makeJaxpr(f)(...).toJSON()),
// for the problems' structural requirements: the engine hands them to each
// requirement's check as `query`, so problems import nothing of the checker.

// The programs nested in equation `e`: every parameter that holds a program
// or a list of them (a shard_map's jaxpr, a custom call's call_jaxpr, a
// cond's branches, a loop's body).
function subPrograms(e) {
  const isProgram = (v) => v !== null && typeof v === 'object' && Array.isArray(v.eqns);
  return Object.values(e.params).flatMap((v) => (Array.isArray(v) ? v : [v])).filter(isProgram);
}

/** Every equation of a program and of the programs nested in it, at any depth. */
export function allEquations(program) {
  const out = [];
  const walk = (p) => {
    for (const e of p.eqns) {
      out.push(e);
      subPrograms(e).forEach(walk);
    }
  };
  walk(program);
  return out;
}

/**
 * Every equation at any depth, each as {eqn, times}: how many times one run
 * of `program` runs it (a scan's body runs `length` times per run of the
 * scan; a cond's branches are counted once each).
 */
export function equationRuns(program) {
  const out = [];
  const walk = (p, times) => {
    for (const e of p.eqns) {
      out.push({ eqn: e, times });
      const inner = e.primitive === 'scan' ? times * e.params.length : times;
      subPrograms(e).forEach((q) => walk(q, inner));
    }
  };
  walk(program, 1);
  return out;
}

// The primitives whose program's inputs are their operands, one for one (a
// nested jit, a custom call): a value passed in is the same value inside.
const CALLS = new Set(['jit', 'custom_jvp_call', 'custom_vjp_call']);

/**
 * Every shard_map equation, at any depth, each operand with its `origin`: the
 * name of the variable it is, followed out through the calls it was passed
 * into (so a learner's own jit around a shard_map changes nothing).
 */
export function shardMaps(program) {
  const out = [];
  const walk = (p, origin) => {
    const of = (a) => origin.get(a.name) ?? a.name;
    for (const e of p.eqns) {
      if (e.primitive === 'shard_map') out.push({ ...e, inputs: e.inputs.map((a) => ({ ...a, origin: of(a) })) });
      const inner = CALLS.has(e.primitive) ? new Map(subPrograms(e)[0].invars.map((v, i) => [v.name, of(e.inputs[i])])) : new Map();
      subPrograms(e).forEach((q) => walk(q, inner));
    }
  };
  walk(program, new Map());
  return out;
}

/**
 * The body inputs of shard_map `sm` fed by the variable named `varName`,
 * each {name, aval, operand (the operand's aval), whole (not split)}.
 * With `split: false` only the ones the body receives whole.
 */
export function bodyInputsFrom(sm, varName, { split } = {}) {
  const body = sm.params.jaxpr;
  const out = [];
  sm.inputs.forEach((a, i) => {
    if ((a.origin ?? a.name) !== varName) return;
    const v = body.invars[i];
    const whole = JSON.stringify(v.aval.shape) === JSON.stringify(a.aval.shape);
    if (split === false && !whole) return;
    out.push({ ...v, operand: a.aval, whole });
  });
  return out;
}

/** Whether any equation of `program` (at any depth) is `primitive` (and passes `where`). */
export function hasPrimitive(program, primitive, where = () => true) {
  return allEquations(program).some((e) => e.primitive === primitive && where(e));
}
