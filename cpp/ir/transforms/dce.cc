#include "ir/transforms/dce.h"

namespace shardlab::ir {

Program dce(const Program& p) {
  std::vector<bool> live(p.avals.size(), false);
  for (const Atom& a : p.outvars)
    if (!a.is_literal()) live[a.var] = true;
  std::vector<bool> keep(p.eqns.size(), false);
  for (size_t k = p.eqns.size(); k-- > 0;) {
    const Eqn& e = p.eqns[k];
    keep[k] = primitive(e.prim).effect;  // debug_callback: kept for what it does
    for (VarId v : e.outputs) keep[k] = keep[k] || live[v];
    if (!keep[k]) continue;
    for (const Atom& a : e.inputs)
      if (!a.is_literal()) live[a.var] = true;
  }
  Program out = p;
  out.eqns.clear();
  for (size_t k = 0; k < p.eqns.size(); ++k)
    if (keep[k]) out.eqns.push_back(p.eqns[k]);
  return out;
}

}  // namespace shardlab::ir
