#include "ir/builder.h"

#include "runtime/errors.h"

namespace shardlab::ir {

VarId Builder::new_var(const Aval& aval) {
  program_.avals.push_back(aval);
  return static_cast<VarId>(program_.avals.size() - 1);
}

Atom Builder::input(const Aval& aval) {
  const VarId v = new_var(aval);
  program_.invars.push_back(v);
  return Atom::of(v, aval);
}

std::vector<Atom> Builder::emit(Prim prim, Params params, std::vector<Atom> inputs) {
  std::vector<Aval> in;
  in.reserve(inputs.size());
  for (const Atom& a : inputs) in.push_back(a.aval);
  const std::vector<Aval> out = primitive(prim).shape(params, in);
  Eqn eqn{prim, std::move(params), std::move(inputs), {}, {}};
  std::vector<Atom> results;
  for (const Aval& aval : out) {
    const VarId v = new_var(aval);
    eqn.outputs.push_back(v);
    results.push_back(Atom::of(v, aval));
  }
  program_.eqns.push_back(std::move(eqn));
  return results;
}

Atom Builder::emit1(Prim prim, Params params, std::vector<Atom> inputs) {
  auto out = emit(prim, std::move(params), std::move(inputs));
  if (out.size() != 1)
    fail(ErrorKind::kValue, primitive(prim).name, ": expected one output, the shape rule gave ", out.size());
  return out[0];
}

Program Builder::build(const std::vector<Atom>& outputs) const {
  Program p = program_;
  p.outvars = outputs;
  return p;
}

}  // namespace shardlab::ir
