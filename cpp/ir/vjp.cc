#include "ir/vjp.h"

#include "ir/builder.h"
#include "ir/jvp.h"
#include "ir/ops.h"

namespace shardlab::ir {

Program vjp(const Program& program) {
  const Program lin = jvp(program);
  const size_t n_in = program.invars.size(), n_out = program.outvars.size();
  Builder b;
  // Values of lin's variables that do not depend on the tangents (the primal
  // computation, re-emitted forward), and which variables are linear (do).
  std::vector<Atom> value(lin.avals.size());
  std::vector<bool> linear(lin.avals.size(), false);
  for (size_t i = 0; i < n_in; ++i) value[lin.invars[i]] = b.input(lin.avals[lin.invars[i]]);
  for (size_t i = 0; i < n_in; ++i) linear[lin.invars[n_in + i]] = true;
  std::vector<Atom> cts_in;
  for (size_t i = 0; i < n_out; ++i) cts_in.push_back(b.input(lin.outvars[n_out + i].aval));
  auto is_linear = [&](const Atom& a) { return !a.is_literal() && linear[a.var]; };
  auto value_of = [&](const Atom& a) { return a.is_literal() ? a : value[a.var]; };

  std::vector<const Eqn*> linear_eqns;
  for (const Eqn& e : lin.eqns) {
    bool any = false;
    for (const Atom& a : e.inputs) any = any || is_linear(a);
    if (any) {
      for (VarId v : e.outputs) linear[v] = true;
      linear_eqns.push_back(&e);
      continue;
    }
    std::vector<Atom> xs;
    for (const Atom& a : e.inputs) xs.push_back(value_of(a));
    const auto ys = b.emit(e.prim, e.params, xs);
    for (size_t i = 0; i < ys.size(); ++i) value[e.outputs[i]] = ys[i];
  }

  // Backward: cotangents flow from the tangent outputs to the tangent inputs;
  // a variable used several times receives the sum of its cotangents.
  std::vector<MaybeAtom> ct(lin.avals.size());
  auto accumulate = [&](VarId v, const Atom& c) { ct[v] = ct[v] ? add(b, *ct[v], c) : c; };
  for (size_t i = 0; i < n_out; ++i) {
    const Atom& t = lin.outvars[n_out + i];
    if (is_linear(t)) accumulate(t.var, cts_in[i]);
  }
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
    std::vector<bool> lin_flags;
    for (const Atom& a : e.inputs) {
      lin_flags.push_back(is_linear(a));
      // A linear input's primal value is unknown to the rule; pass its type.
      xs.push_back(is_linear(a) ? Atom{-1, 0.0, a.aval} : value_of(a));
    }
    const auto cts = primitive(e.prim).transpose(b, e.params, cts_out, xs, lin_flags);
    for (size_t i = 0; i < e.inputs.size(); ++i)
      if (lin_flags[i] && cts[i]) accumulate(e.inputs[i].var, *cts[i]);
  }

  std::vector<Atom> outs;
  for (size_t i = 0; i < n_out; ++i) outs.push_back(value_of(lin.outvars[i]));
  for (size_t i = 0; i < n_in; ++i) {
    const VarId t = lin.invars[n_in + i];
    outs.push_back(ct[t] ? *ct[t] : zeros_like(b, lin.avals[t]));
  }
  return b.build(outs);
}

}  // namespace shardlab::ir
