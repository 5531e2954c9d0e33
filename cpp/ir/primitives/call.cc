#include "ir/primitives/call.h"

#include "ir/transforms/batching.h"
#include "ir/tracing/builder.h"
#include "ir/transforms/dce.h"
#include "ir/transforms/jvp.h"
#include "ir/transforms/lower.h"
#include "ir/tracing/ops.h"
#include "ir/transforms/vjp.h"
#include "runtime/errors.h"

namespace shardlab::ir {

std::vector<Aval> Def<Prim::kJit>::shape(const Params& p, const std::vector<Aval>& in) {
  const Program& body = *param<ProgramRef>(p, "jaxpr", kName);
  if (in.size() != body.invars.size())
    fail(ErrorKind::kValue, kName, ": ", in.size(), " operands for a program of ", body.invars.size(), " inputs");
  for (size_t i = 0; i < in.size(); ++i)
    if (!same_type(in[i], body.avals[body.invars[i]]))
      fail(ErrorKind::kShape, kName, ": operand ", i, " is ", in[i].str(), " but the program takes ",
           body.avals[body.invars[i]].str());
  std::vector<Aval> out;
  for (const Atom& a : body.outvars) out.push_back(a.aval);
  return out;
}
std::vector<Atom> Def<Prim::kJit>::lower(Builder& b, const Params& p, const std::vector<Atom>& in) {
  return emit_lowered(b, *param<ProgramRef>(p, "jaxpr", kName), in);
}
// The program's JVP with respect to the operands that have tangents, inline:
// (x, dx) -> (y, dy); the linear part is then ordinary equations (not lowered:
// a custom_vjp's custom_lin must stay for the transpose).
std::vector<MaybeAtom> Def<Prim::kJit>::jvp(Builder& b, const Params& p, const std::vector<Atom>& x,
                                            const std::vector<Atom>& y, const std::vector<MaybeAtom>& t) {
  std::vector<bool> wrt(x.size(), false);
  std::vector<Atom> args = x;
  for (size_t i = 0; i < x.size(); ++i)
    if (t[i]) {
      wrt[i] = true;
      args.push_back(*t[i]);
    }
  std::vector<MaybeAtom> out(y.size());
  if (args.size() == x.size()) return out;
  // Its prints ran in the primal call, emitted beside this one.
  const auto res = b.call(dce(ir::jvp(*param<ProgramRef>(p, "jaxpr", kName), wrt), Effects::kDrop), args);
  for (size_t j = 0; j < y.size(); ++j) out[j] = res[y.size() + j];
  return out;
}
std::vector<MaybeAtom> Def<Prim::kJit>::transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                                  const std::vector<Atom>& x, const std::vector<bool>& linear) {
  return emit_transpose(b, *param<ProgramRef>(p, "jaxpr", kName), linear, x, cts).cts;
}
std::vector<Batched> Def<Prim::kJit>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                           int64_t size) {
  const std::vector<Batched> ops = batch_dims_leading(b, in, size);
  const ProgramRef body = batched_body(b.scope(), *param<ProgramRef>(p, "jaxpr", kName), ops, size);
  return batched_at(b.emit(Prim::kJit, with_param(p, "jaxpr", body), values_of(ops)), 0);
}
Sample Def<Prim::kJit>::sample() {
  // square(x) = x * x
  Builder b;
  const Atom x = b.input(samples::f32({2, 3}));
  const auto body = std::make_shared<const Program>(b.build({mul(b, x, x)}));
  return {{samples::f32({2, 3})}, {{"name", std::string("square")}, {"jaxpr", body}}};
}

}  // namespace shardlab::ir
