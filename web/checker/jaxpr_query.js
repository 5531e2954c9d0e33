// Queries over a traced program's JSON form (makeJaxpr(f)(...).toJSON()),
// for the problems' structural requirements: the engine hands them to each
// requirement's check as `query`, so problems import nothing of the checker.

/** Whether the parameter value `v` is a program (in the JSON form). */
export const isProgram = (v) => v !== null && typeof v === 'object' && Array.isArray(v.eqns);

/**
 * The programs nested in equation `e`: every parameter that holds a program
 * or a list of them (a shard_map's jaxpr, a custom call's call_jaxpr, a
 * cond's branches, a loop's body).
 */
export function subPrograms(e) {
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

/**
 * Every shard_map equation, at any depth, each operand with its `origin`: the
 * name of the variable it is, followed out through the calls it was passed
 * into (so a learner's own jit around a shard_map changes nothing) and
 * through shard_maps that return it as they received it (one that only
 * prints its blocks).
 */
export function shardMaps(program) {
  const out = [];
  const walk = (p, origin) => {
    const of = (a) => origin.get(a.name) ?? a.name;
    for (const e of p.eqns) {
      if (e.primitive === 'shard_map') {
        out.push({ ...e, inputs: e.inputs.map((a) => ({ ...a, origin: of(a) })) });
        // An output that is a body input, laid out as that input was, is the operand itself.
        // (What it reads may be partial: the page draws what a worker sent.)
        const { invars = [], outvars = [] } = e.params.jaxpr ?? {};
        outvars.forEach((o, j) => {
          const k = invars.findIndex((v) => v.name === o.name);
          if (k >= 0 && e.outputs?.[j] && JSON.stringify(e.params.in_specs?.[k]) === JSON.stringify(e.params.out_specs?.[j])) origin.set(e.outputs[j].name, of(e.inputs[k]));
        });
      }
      const call = e.primitive !== 'shard_map' && e.call; // a call's program parameter (the core's registry marks calls)
      const inner = call ? new Map(e.params[call].invars.map((v, i) => [v.name, of(e.inputs[i])])) : new Map();
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

const graphs = new WeakMap();

// The data flow of `program`: value name -> the names of the values
// computed directly from it, through every level. Positional where the
// structure says it (calls, scan's consts, carries and xs, while's carries,
// cond's operands; a carry also flows back into the next iteration, and a
// loop's or branch's predicate into all its results); elsewhere every input
// flows into every output.
function flowGraph(program) {
  if (graphs.has(program)) return graphs.get(program);
  const edges = new Map();
  const add = (from, to) => {
    if (from?.name === undefined || to?.name === undefined) return;
    if (!edges.has(from.name)) edges.set(from.name, []);
    edges.get(from.name).push(to.name);
  };
  const walk = (p) => {
    for (const e of p.eqns) {
      const { inputs: ins, outputs: outs, params } = e;
      const all = (from) => outs.forEach((o) => add(from, o));
      if (e.call) {
        // A call (the JSON marks it from the core's registry): its program takes the operands and gives the outputs one for one.
        const body = params[e.call];
        ins.forEach((a, i) => add(a, body.invars[i]));
        body.outvars.forEach((v, j) => add(v, outs[j]));
        walk(body);
      } else if (e.primitive === 'scan') {
        const { jaxpr: body, ft_in: [nc, nk] } = params; // ft_in counts (consts, carries, xs)
        ins.forEach((a, i) => add(a, body.invars[i]));
        body.outvars.forEach((v, j) => {
          add(v, outs[j]);
          if (j < nk) add(v, body.invars[nc + j]);
        });
        walk(body);
      } else if (e.primitive === 'while') {
        const { cond_jaxpr: cond, body_jaxpr: body, cond_nconsts: cn, body_nconsts: bn } = params;
        ins.forEach((a, i) => {
          if (i < cn) add(a, cond.invars[i]);
          else if (i < cn + bn) add(a, body.invars[i - cn]);
          else [cond.invars[cn + i - cn - bn], body.invars[i - cn], outs[i - cn - bn]].forEach((t) => add(a, t));
        });
        body.outvars.forEach((v, k) => [outs[k], body.invars[bn + k], cond.invars[cn + k]].forEach((t) => add(v, t)));
        all(cond.outvars[0]);
        walk(cond);
        walk(body);
      } else if (e.primitive === 'cond') {
        all(ins[0]);
        for (const branch of params.branches) {
          ins.slice(1).forEach((a, i) => add(a, branch.invars[i]));
          branch.outvars.forEach((v, j) => add(v, outs[j]));
          walk(branch);
        }
      } else if (e.collective && ins.length === outs.length) {
        // A collective of several operands (a psum of a tree) treats each one apart.
        ins.forEach((a, i) => add(a, outs[i]));
      } else {
        ins.forEach(all);
        for (const q of subPrograms(e)) {
          ins.forEach((a) => q.invars.forEach((v) => add(a, v)));
          q.outvars.forEach(all);
          walk(q);
        }
      }
    }
  };
  walk(program);
  graphs.set(program, edges);
  return edges;
}

/**
 * The names of every value computed from the variable `varName` (itself
 * included), at any depth: a value depends on `varName` when it is computed
 * from one that does (flowGraph's rules).
 */
export function dependents(program, varName) {
  const edges = flowGraph(program);
  const names = new Set([varName]);
  const todo = [varName];
  while (todo.length) {
    for (const next of edges.get(todo.pop()) ?? []) {
      if (!names.has(next)) {
        names.add(next);
        todo.push(next);
      }
    }
  }
  return names;
}

/** Whether the value named `to` is computed from the one named `from` (dependents). */
export function flowsTo(program, from, to) {
  return dependents(program, from).has(to);
}

/**
 * The equations outside every shard_map body (at any depth of calls, loops
 * and branches) that compute from the variable `varName`, other than the
 * shard_maps themselves: [] when only shard_maps read it and what comes of it.
 */
export function readersOutsideShardMaps(program, varName) {
  const deps = dependents(program, varName);
  const out = [];
  const walk = (p) => {
    for (const e of p.eqns) {
      if (e.primitive === 'shard_map') continue;
      if (e.inputs.some((a) => a.name !== undefined && deps.has(a.name))) out.push(e);
      subPrograms(e).forEach(walk);
    }
  };
  walk(program);
  return out;
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
 * size: null when every one has, program by program (the top level, then
 * each nested program in order), as many equations as the first; else what
 * differs ("14 equations at B=4 but 26 at B=8"). A Python loop over an axis
 * unrolls into equations per element; vmap and scan do not. Compared program
 * by program, growth in one place cannot be hidden by padding in another.
 */
export function sizeGrowth(traces) {
  const sizes = (p) => [p.eqns.length, ...p.eqns.flatMap((e) => subPrograms(e).flatMap(sizes))];
  const [[first, a], ...rest] = Object.entries(traces).map(([label, t]) => [label, sizes(t.jaxpr)]);
  const total = (s) => s.reduce((x, y) => x + y, 0);
  const other = rest.find(([, s]) => s.length !== a.length || s.some((n, i) => n !== a[i]));
  if (!other) return null;
  const [n, m] = [total(a), total(other[1])];
  return n === m ? `${n} equations at ${first} and at ${other[0]}, but arranged differently (${a.join(', ')} against ${other[1].join(', ')} per program)` : `${n} equations at ${first} but ${m} at ${other[0]}`;
}
