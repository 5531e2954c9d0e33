#include "ir/transforms/jvp.h"

#include <tuple>

#include "ir/tracing/builder.h"
#include "ir/tracing/ops.h"

namespace shardlab::ir {

Program jvp(const Program& p, const std::vector<bool>& wrt) {
  Builder b(p.scope, nullptr);
  std::vector<Atom> primal(p.avals.size());
  std::vector<MaybeAtom> tangent(p.avals.size());
  for (VarId v : p.invars) primal[v] = b.input(p.avals[v]);
  for (size_t i = 0; i < p.invars.size(); ++i)
    if (wrt.empty() || wrt[i]) tangent[p.invars[i]] = b.input(p.avals[p.invars[i]]);
  auto primal_of = [&](const Atom& a) { return a.is_literal() ? a : primal[a.var]; };
  auto tangent_of = [&](const Atom& a) { return a.is_literal() ? MaybeAtom() : tangent[a.var]; };
  for (const Eqn& e : p.eqns) {
    std::vector<Atom> xs;
    std::vector<MaybeAtom> ts;
    for (const Atom& a : e.inputs) {
      xs.push_back(primal_of(a));
      ts.push_back(tangent_of(a));
    }
    const PrimitiveDef& def = primitive(e.prim);
    std::vector<Atom> ys;
    std::vector<MaybeAtom> dys;
    if (def.jvp_with_primal) {
      std::tie(ys, dys) = def.jvp_with_primal(b, e.params, xs, ts);
    } else {
      ys = b.emit(e.prim, e.params, xs);
      dys = def.jvp(b, e.params, xs, ys, ts);
    }
    for (size_t i = 0; i < e.outputs.size(); ++i) {
      primal[e.outputs[i]] = ys[i];
      tangent[e.outputs[i]] = dys[i];
    }
  }
  std::vector<Atom> outs;
  for (const Atom& a : p.outvars) outs.push_back(primal_of(a));
  for (const Atom& a : p.outvars) {
    const MaybeAtom t = tangent_of(a);
    outs.push_back(t ? *t : zeros_like(b, a.aval));
  }
  return b.build(outs);
}

}  // namespace shardlab::ir
