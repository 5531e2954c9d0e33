// The program the requirements read: the traced program's JSON form with
// every nested jit inlined (a learner's own jax.jit around the function,
// or inside it, changes nothing) and every dead equation removed, as JAX's
// dead-code elimination does (what no output depends on is not there: a
// scan whose result is dropped, a collective of values nothing reads, a
// shard_map input its body never uses). A requirement that asks for a
// feature then finds it only where the answer flows through it.

import { isProgram } from './jaxpr_query.js';

// An equation's `params` with each program among them (alone or in a list) replaced by f(program).
const mapPrograms = (params, f) =>
  Object.fromEntries(Object.entries(params).map(([k, v]) => [k, isProgram(v) ? f(v) : Array.isArray(v) && v.some(isProgram) ? v.map((p) => (isProgram(p) ? f(p) : p)) : v]));

/**
 * `program` with each jit equation, at any depth, replaced by its
 * program's equations: the jit's operands take the place of its program's
 * inputs, and its program's results the place of its outputs.
 */
function inlineJits(program) {
  const subst = new Map(); // a jit output's name -> the atom it is
  const atom = (a) => (a.name !== undefined && subst.has(a.name) ? subst.get(a.name) : a);
  const eqns = [];
  const emit = (p, env) => {
    const at = (a) => (a.name !== undefined && env.has(a.name) ? env.get(a.name) : atom(a));
    for (const e of p.eqns) {
      const inputs = e.inputs.map(at);
      if (e.primitive === 'jit') {
        const inner = e.params.jaxpr;
        const innerEnv = new Map(inner.invars.map((v, i) => [v.name, inputs[i]]));
        emit(inner, innerEnv);
        const outs = inner.outvars.map((v) => (v.name !== undefined && innerEnv.has(v.name) ? innerEnv.get(v.name) : atom(v)));
        e.outputs.forEach((o, i) => subst.set(o.name, outs[i]));
      } else {
        eqns.push({ ...e, params: mapPrograms(e.params, inlineJits), inputs });
      }
    }
  };
  emit(program, new Map());
  return { ...program, eqns, outvars: program.outvars.map(atom) };
}

/**
 * Dead-code elimination of `program` for the outputs `liveOuts` marks
 * (booleans, one per outvar; all by default): {program (its outvars and
 * invars as they were), used (per invar: whether a live equation or a live
 * output reads it)}.
 */
function prune(program, liveOuts = program.outvars.map(() => true)) {
  const live = new Set();
  const need = (atoms) => atoms.forEach((a) => a.name !== undefined && live.add(a.name));
  need(program.outvars.filter((_, i) => liveOuts[i]));
  const kept = [];
  for (let i = program.eqns.length - 1; i >= 0; i--) {
    const e = program.eqns[i];
    const wanted = e.outputs.map((o) => live.has(o.name));
    if (!wanted.some(Boolean)) continue;
    const out = pruneEquation(e, wanted);
    need(out.inputs);
    kept.push(out);
  }
  kept.reverse();
  return { program: { ...program, eqns: kept }, used: program.invars.map((v) => live.has(v.name)) };
}

const pick = (list, keep) => list.filter((_, i) => keep[i]);

// Equation `e` pruned for its outputs `wanted` (at least one): a shard_map
// or scan loses the outputs and inputs nothing needs; any other keeps its
// outputs and inputs, its programs pruned inside.
function pruneEquation(e, wanted) {
  if (e.primitive === 'shard_map') {
    const { program: body, used } = prune(e.params.jaxpr, wanted);
    return {
      ...e,
      params: { ...e.params, jaxpr: { ...body, invars: pick(body.invars, used), outvars: pick(body.outvars, wanted) }, in_specs: pick(e.params.in_specs, used), out_specs: pick(e.params.out_specs, wanted) },
      inputs: pick(e.inputs, used),
      outputs: pick(e.outputs, wanted),
    };
  }
  if (e.primitive === 'scan') return pruneScan(e, wanted);
  // Loops, branches and calls are kept whole (their carries and operands all live): only their insides are pruned.
  const inside = (p) => prune(p).program;
  return { ...e, params: mapPrograms(e.params, inside) };
}

// A scan pruned as JAX's rule does: a carry lives if its result is needed or
// the body reads it to compute what lives (to a fixed point); dead ys,
// carries, consts and xs go.
function pruneScan(e, wanted) {
  const { jaxpr: body, ft_in: [nConsts, nCarry] } = e.params; // ft_in counts (consts, carries, xs)
  let carries = wanted.slice(0, nCarry);
  const ys = wanted.slice(nCarry);
  for (;;) {
    const { used } = prune(body, [...carries, ...ys]);
    const next = carries.map((c, i) => c || used[nConsts + i]);
    if (next.every((c, i) => c === carries[i])) break;
    carries = next;
  }
  const { program: pruned, used } = prune(body, [...carries, ...ys]);
  const keepIn = used.map((u, i) => (i >= nConsts && i < nConsts + nCarry ? carries[i - nConsts] : u));
  const keepOut = [...carries, ...ys];
  return {
    ...e,
    params: {
      ...e.params,
      jaxpr: { ...pruned, invars: pick(pruned.invars, keepIn), outvars: pick(pruned.outvars, keepOut) },
      ft_in: [keepIn.slice(0, nConsts), keepIn.slice(nConsts, nConsts + nCarry), keepIn.slice(nConsts + nCarry)].map((g) => g.filter(Boolean).length),
      ft_out: [keepOut.slice(0, nCarry), keepOut.slice(nCarry)].map((g) => g.filter(Boolean).length),
    },
    inputs: pick(e.inputs, keepIn),
    outputs: pick(e.outputs, keepOut),
  };
}

/**
 * The program the requirements read: `program` (a Jaxpr's toJSON form) with
 * its jits inlined and its dead equations removed. Its inputs and outputs
 * are the program's own.
 */
export function liveProgram(program) {
  return prune(inlineJits(program)).program;
}

