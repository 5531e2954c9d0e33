#include "ir/lower.h"

namespace shardlab::ir {

namespace {

bool needs_lowering(const Program& p) {
  for (const Eqn& e : p.eqns) {
    if (primitive(e.prim).lower) return true;
    for (const Program* q : subprograms(e))
      if (needs_lowering(*q)) return true;
  }
  return false;
}

// `params` with every program in them lowered (a shard_map's body, a while's cond and body).
Params lowered_params(Params params) {
  for (Param& q : params) {
    if (auto* one = std::get_if<ProgramRef>(&q.value)) *one = lower(*one);
    if (auto* many = std::get_if<Programs>(&q.value))
      for (ProgramRef& r : *many) r = lower(r);
  }
  return params;
}

}  // namespace

std::vector<Atom> emit_lowered(Builder& b, const Program& p, const std::vector<Atom>& args) {
  std::vector<Atom> env(p.avals.size());
  for (size_t i = 0; i < p.invars.size(); ++i) env[p.invars[i]] = args[i];
  auto value = [&](const Atom& a) { return a.is_literal() ? a : env[a.var]; };
  for (const Eqn& e : p.eqns) {
    std::vector<Atom> xs;
    for (const Atom& a : e.inputs) xs.push_back(value(a));
    const PrimitiveDef& def = primitive(e.prim);
    std::vector<Atom> ys;
    if (def.lower) {
      ys = def.lower(b, e.params, xs);
    } else {
      ys = b.emit(e.prim, subprograms(e).empty() ? e.params : lowered_params(e.params), xs);
    }
    for (size_t i = 0; i < e.outputs.size(); ++i) env[e.outputs[i]] = ys[i];
  }
  std::vector<Atom> outs;
  for (const Atom& a : p.outvars) outs.push_back(value(a));
  return outs;
}

ProgramRef lower(const ProgramRef& p) {
  if (!needs_lowering(*p)) return p;
  Builder b(p->scope, nullptr);
  std::vector<Atom> ins;
  for (VarId v : p->invars) ins.push_back(b.input(p->avals[v]));
  return std::make_shared<const Program>(b.build(emit_lowered(b, *p, ins)));
}

}  // namespace shardlab::ir
