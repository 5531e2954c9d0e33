#include "ir/transforms/dce.h"

#include <memory>
#include <variant>

namespace shardlab::ir {

namespace {

// Whether `e` has an effect, itself or in a program nested in it (a print in a scan body).
bool has_effect(const Eqn& e) {
  if (primitive(e.prim).effect) return true;
  for (const Program* p : subprograms(e))
    for (const Eqn& q : p->eqns)
      if (has_effect(q)) return true;
  return false;
}

// `e` with the effects of its nested programs dropped.
Eqn without_nested_effects(Eqn e) {
  for (Param& param : e.params) {
    if (auto* program = std::get_if<ProgramRef>(&param.value)) {
      *program = std::make_shared<const Program>(dce(**program, Effects::kDrop));
    } else if (auto* programs = std::get_if<Programs>(&param.value)) {
      for (ProgramRef& p : *programs) p = std::make_shared<const Program>(dce(*p, Effects::kDrop));
    }
  }
  return e;
}

}  // namespace

Program dce(const Program& p, Effects effects) {
  std::vector<bool> live(p.avals.size(), false);
  for (const Atom& a : p.outvars)
    if (!a.is_literal()) live[a.var] = true;
  std::vector<bool> keep(p.eqns.size(), false);
  for (size_t k = p.eqns.size(); k-- > 0;) {
    const Eqn& e = p.eqns[k];
    keep[k] = effects == Effects::kKeep && has_effect(e);  // a debug_callback, or a loop holding one: kept for what it does
    for (VarId v : e.outputs) keep[k] = keep[k] || live[v];
    if (!keep[k]) continue;
    for (const Atom& a : e.inputs)
      if (!a.is_literal()) live[a.var] = true;
  }
  Program out = p;
  out.eqns.clear();
  for (size_t k = 0; k < p.eqns.size(); ++k)
    if (keep[k] && !(effects == Effects::kDrop && primitive(p.eqns[k].prim).effect))
      out.eqns.push_back(effects == Effects::kKeep ? p.eqns[k] : without_nested_effects(p.eqns[k]));
  return out;
}

}  // namespace shardlab::ir
