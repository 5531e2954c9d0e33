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

/** Whether any equation of `program` (at any depth) reads the variable named `varName` (an argument the program uses). */
export function reads(program, varName) {
  return allEquations(program).some((e) => e.inputs.some((a) => a.name === varName));
}

/** Whether any equation of `program` (at any depth) is `primitive` (and passes `where`). */
export function hasPrimitive(program, primitive, where = () => true) {
  return allEquations(program).some((e) => e.primitive === primitive && where(e));
}

// The primitives whose sub-program takes their operands one for one (a call,
// a shard_map's body): elsewhere (a cond, a scan, a loop) operands reach a
// sub-program in other positions, so every input of it is taken to depend.
const ONE_FOR_ONE = new Set([...CALLS, 'shard_map']);

/**
 * The names of every value computed from the variable `varName` (itself
 * included), at any depth: a value depends on `varName` when an equation
 * computing it reads one that does.
 */
export function dependents(program, varName) {
  const names = new Set([varName]);
  const walk = (p) => {
    for (const e of p.eqns) {
      const hit = e.inputs.map((a) => a.name !== undefined && names.has(a.name));
      if (!hit.some(Boolean)) continue;
      for (const q of subPrograms(e)) {
        q.invars.forEach((v, i) => (!ONE_FOR_ONE.has(e.primitive) || hit[i]) && names.add(v.name));
        walk(q);
      }
      for (const o of e.outputs) names.add(o.name);
    }
  };
  walk(program);
  return names;
}

/**
 * Which of the programs a requirement asked for at other shapes (its
 * `traces`: label -> {jaxpr, error}) could not be traced, as a message
 * ("the solution could not be traced at B=8 (...)"), or null.
 */
export function traceFailure(traces) {
  const failed = Object.entries(traces).find(([, t]) => !t.jaxpr);
  return failed ? `the solution could not be traced at ${failed[0]} (${failed[1].error})` : null;
}

/**
 * How the programs of `traces` (every one traced: see traceFailure) differ in
 * size: null when every one has as many equations, at any depth, as the
 * first; else what differs ("14 equations at B=4 but 26 at B=8"). A Python
 * loop over an axis unrolls into equations per element; vmap and scan do not.
 */
export function sizeGrowth(traces) {
  const [[first, a], ...rest] = Object.entries(traces).map(([label, t]) => [label, allEquations(t.jaxpr).length]);
  const other = rest.find(([, n]) => n !== a);
  return other ? `${a} equations at ${first} but ${other[1]} at ${other[0]}` : null;
}
