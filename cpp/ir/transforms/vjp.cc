#include "ir/transforms/vjp.h"

#include "ir/primitives/sharding_ops.h"
#include "ir/transforms/dce.h"
#include "ir/transforms/jvp.h"
#include "ir/tracing/ops.h"

namespace shardlab::ir {

namespace {

// Marks every variable of p that depends on a linear input.
std::vector<bool> linear_vars(const Program& p, const std::vector<bool>& linear_in) {
  std::vector<bool> linear(p.avals.size(), false);
  for (size_t i = 0; i < p.invars.size(); ++i) linear[p.invars[i]] = linear_in[i];
  for (const Eqn& e : p.eqns) {
    bool any = false;
    for (const Atom& a : e.inputs) any = any || (!a.is_literal() && linear[a.var]);
    for (VarId v : e.outputs) linear[v] = any;
  }
  return linear;
}

// 301's rule, whatever the transpose rule gave: a cotangent is typed as its
// primal's cotangent (the same dims; a reduced primal's unreduced). A rule
// whose result is sharded otherwise (the broadcast of a sum's cotangent, a
// replicated seed for a sharded value) is resharded to it: sliced where the
// primal is split (no traffic), gathered where it is whole.
Atom typed_as_cotangent(Builder& b, const Aval& primal, const Atom& ct) {
  Sharding want = primal.sharding.cotangent();
  if (want.mesh.empty()) want.mesh = ct.aval.sharding.mesh;
  if (want.mesh.empty() || ct.aval.sharding == want.for_type()) return ct;
  return reshard(b, ct, want);
}

}  // namespace

std::vector<bool> linear_outputs(const Program& p, const std::vector<bool>& linear_in) {
  const std::vector<bool> linear = linear_vars(p, linear_in);
  std::vector<bool> out;
  for (const Atom& a : p.outvars) out.push_back(!a.is_literal() && linear[a.var]);
  return out;
}

Transposed emit_transpose(Builder& b, const Program& p, const std::vector<bool>& linear_in,
                          const std::vector<Atom>& inputs, const std::vector<MaybeAtom>& out_cts) {
  const std::vector<bool> linear = linear_vars(p, linear_in);
  auto is_linear = [&](const Atom& a) { return !a.is_literal() && linear[a.var]; };
  // Forward: the non-linear part, re-emitted.
  std::vector<Atom> value(p.avals.size());
  for (size_t i = 0; i < p.invars.size(); ++i)
    if (!linear_in[i]) value[p.invars[i]] = inputs[i];
  auto value_of = [&](const Atom& a) { return a.is_literal() ? a : value[a.var]; };
  std::vector<const Eqn*> linear_eqns;
  for (const Eqn& e : p.eqns) {
    if (!e.outputs.empty() && linear[e.outputs[0]]) {
      linear_eqns.push_back(&e);
      continue;
    }
    std::vector<Atom> xs;
    for (const Atom& a : e.inputs) xs.push_back(value_of(a));
    const auto ys = b.emit(e.prim, e.params, xs);
    for (size_t i = 0; i < ys.size(); ++i) value[e.outputs[i]] = ys[i];
  }

  // Backward: a variable used several times receives the sum of its cotangents.
  std::vector<MaybeAtom> ct(p.avals.size());
  auto accumulate = [&](VarId v, const Atom& c) { ct[v] = ct[v] ? add_any(b, *ct[v], c) : c; };
  for (size_t i = 0; i < p.outvars.size(); ++i)
    if (is_linear(p.outvars[i]) && out_cts[i]) accumulate(p.outvars[i].var, *out_cts[i]);
  for (auto it = linear_eqns.rbegin(); it != linear_eqns.rend(); ++it) {
    const Eqn& e = **it;
    std::vector<MaybeAtom> cts_out;
    bool any = false;
    for (VarId v : e.outputs) {
      cts_out.push_back(ct[v]);
      any = any || ct[v].has_value();
    }
    if (!any) continue;
    std::vector<Atom> xs;
    std::vector<bool> flags;
    for (const Atom& a : e.inputs) {
      flags.push_back(is_linear(a));
      // A linear input's primal value is unknown to the rule; pass its type.
      xs.push_back(is_linear(a) ? Atom{-1, 0.0, a.aval, 0} : value_of(a));
    }
    const auto cts = primitive(e.prim).transpose(b, e.params, cts_out, xs, flags);
    for (size_t i = 0; i < e.inputs.size(); ++i)
      if (flags[i] && cts[i]) accumulate(e.inputs[i].var, typed_as_cotangent(b, e.inputs[i].aval, *cts[i]));
  }

  Transposed t;
  for (const Atom& a : p.outvars) t.values.push_back(is_linear(a) ? MaybeAtom() : MaybeAtom(value_of(a)));
  for (size_t i = 0; i < p.invars.size(); ++i) t.cts.push_back(linear_in[i] ? ct[p.invars[i]] : std::nullopt);
  return t;
}

Program vjp(const Program& program, const std::vector<bool>& wrt) {
  const Program lin = jvp(program, wrt);
  const size_t n_in = program.invars.size(), n_out = program.outvars.size();
  const size_t n_tan = lin.invars.size() - n_in;
  Builder b(lin.scope, nullptr);
  std::vector<Atom> inputs(lin.invars.size());
  std::vector<bool> linear(lin.invars.size(), false);
  for (size_t i = 0; i < n_in; ++i) inputs[i] = b.input(lin.avals[lin.invars[i]]);
  for (size_t i = 0; i < n_tan; ++i) linear[n_in + i] = true;
  std::vector<MaybeAtom> out_cts(n_out);
  for (size_t i = 0; i < n_out; ++i) out_cts.push_back(b.input(lin.outvars[n_out + i].aval));
  const Transposed t = emit_transpose(b, lin, linear, inputs, out_cts);
  std::vector<Atom> outs;
  for (size_t i = 0; i < n_out; ++i) outs.push_back(*t.values[i]);
  for (size_t i = 0; i < n_tan; ++i) {
    const MaybeAtom& c = t.cts[n_in + i];
    outs.push_back(c ? *c : zeros_like(b, lin.avals[lin.invars[n_in + i]]));
  }
  return dce(b.build(outs));
}

}  // namespace shardlab::ir
