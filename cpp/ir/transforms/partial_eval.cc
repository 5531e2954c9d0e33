#include "ir/transforms/partial_eval.h"

#include "ir/tracing/builder.h"

namespace shardlab::ir {

namespace {

// Emits equations `eqns` of p into `b` on `env` (p's variables as b's atoms).
void emit_eqns(Builder& b, const std::vector<const Eqn*>& eqns, std::vector<Atom>& env) {
  for (const Eqn* e : eqns) {
    std::vector<Atom> xs;
    for (const Atom& a : e->inputs) xs.push_back(a.is_literal() ? a : env[a.var]);
    const std::vector<Atom> ys = b.emit(e->prim, e->params, xs);
    for (size_t i = 0; i < ys.size(); ++i) env[e->outputs[i]] = ys[i];
  }
}

}  // namespace

PartialEval partial_eval(const Program& p, const std::vector<bool>& unknown_in, const std::vector<bool>& instantiate) {
  std::vector<bool> unknown(p.avals.size(), false);
  for (size_t i = 0; i < p.invars.size(); ++i) unknown[p.invars[i]] = unknown_in[i];
  std::vector<const Eqn*> known_eqns, unknown_eqns;
  PartialEval r;
  std::vector<bool> is_residual(p.avals.size(), false);
  const auto read = [&](const Atom& a) {  // a known value the unknown part reads
    if (a.is_literal() || unknown[a.var] || is_residual[a.var]) return;
    is_residual[a.var] = true;
    r.residuals.push_back(a.var);
  };
  for (const Eqn& e : p.eqns) {
    bool any = false;
    for (const Atom& a : e.inputs) any = any || (!a.is_literal() && unknown[a.var]);
    (any ? unknown_eqns : known_eqns).push_back(&e);
    if (!any) continue;
    for (const Atom& a : e.inputs) read(a);
    for (VarId v : e.outputs) unknown[v] = true;
  }
  for (size_t j = 0; j < p.outvars.size(); ++j) {
    const Atom& a = p.outvars[j];
    const bool out = (!a.is_literal() && unknown[a.var]) || (!instantiate.empty() && instantiate[j]);
    r.out_unknown.push_back(out);
    if (out) read(a);
  }

  std::vector<Atom> env(p.avals.size());
  Builder kb(p.scope, nullptr);
  for (size_t i = 0; i < p.invars.size(); ++i)
    if (!unknown_in[i]) env[p.invars[i]] = kb.input(p.avals[p.invars[i]]);
  emit_eqns(kb, known_eqns, env);
  std::vector<Atom> known_outs;
  for (size_t j = 0; j < p.outvars.size(); ++j)
    if (!r.out_unknown[j]) known_outs.push_back(p.outvars[j].is_literal() ? p.outvars[j] : env[p.outvars[j].var]);
  for (VarId v : r.residuals) known_outs.push_back(env[v]);
  r.known = kb.build(known_outs);

  env.assign(p.avals.size(), Atom{});
  Builder ub(p.scope, nullptr);
  for (VarId v : r.residuals) env[v] = ub.input(p.avals[v]);
  for (size_t i = 0; i < p.invars.size(); ++i)
    if (unknown_in[i]) env[p.invars[i]] = ub.input(p.avals[p.invars[i]]);
  emit_eqns(ub, unknown_eqns, env);
  std::vector<Atom> unknown_outs;
  for (size_t j = 0; j < p.outvars.size(); ++j)
    if (r.out_unknown[j]) unknown_outs.push_back(p.outvars[j].is_literal() ? p.outvars[j] : env[p.outvars[j].var]);
  r.unknown = ub.build(unknown_outs);
  return r;
}

}  // namespace shardlab::ir
