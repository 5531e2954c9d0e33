#include "ir/autodiff.h"

#include "ir/jvp.h"
#include "ir/ops.h"
#include "ir/vjp.h"
#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

// f traced on the types of args in b's scope; captured values come first.
struct Traced {
  Program program;
  std::vector<Atom> captured;  // values of b
};

Traced trace(Builder& b, const TracedFn& f, const std::vector<Atom>& args) {
  Builder inner(b.scope(), &b);
  std::vector<Atom> in;
  for (const Atom& a : args) in.push_back(inner.input(b.local(a).aval));
  std::vector<Atom> outs = f(inner, in);
  for (Atom& o : outs) o = inner.local(o);
  return {inner.build(outs), inner.captured()};
}

std::vector<Atom> concat(std::vector<Atom> a, const std::vector<Atom>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Differentiate with respect to the arguments, not the captured constants.
std::vector<bool> wrt_args(size_t captured, size_t args) {
  std::vector<bool> wrt(captured, false);
  wrt.resize(captured + args, true);
  return wrt;
}

}  // namespace

Derivatives vjp_at(Builder& b, const TracedFn& f, const std::vector<Atom>& args, const std::vector<Atom>& cts) {
  const Traced t = trace(b, f, args);
  const size_t n_out = t.program.outvars.size();
  if (cts.size() != n_out)
    fail(ErrorKind::kValue, "vjp: the function has ", n_out, " outputs but ", cts.size(), " cotangents were given");
  const auto all =
      b.call(vjp(t.program, wrt_args(t.captured.size(), args.size())), concat(concat(t.captured, args), cts));
  return {std::vector<Atom>(all.begin(), all.begin() + static_cast<long>(n_out)),
          std::vector<Atom>(all.begin() + static_cast<long>(n_out), all.end())};
}

Derivatives jvp_at(Builder& b, const TracedFn& f, const std::vector<Atom>& args, const std::vector<Atom>& tangents) {
  const Traced t = trace(b, f, args);
  if (tangents.size() != args.size())
    fail(ErrorKind::kValue, "jvp: ", args.size(), " primals but ", tangents.size(), " tangents");
  const auto all =
      b.call(jvp(t.program, wrt_args(t.captured.size(), args.size())), concat(concat(t.captured, args), tangents));
  const size_t n_out = t.program.outvars.size();
  return {std::vector<Atom>(all.begin(), all.begin() + static_cast<long>(n_out)),
          std::vector<Atom>(all.begin() + static_cast<long>(n_out), all.end())};
}

Derivatives grad_at(Builder& b, const TracedFn& f, const std::vector<Atom>& args) {
  const Traced t = trace(b, f, args);
  if (t.program.outvars.size() != 1 || !t.program.outvars[0].aval.shape.empty() ||
      t.program.outvars[0].aval.dtype != DType::kFloat32) {
    std::string got;
    for (const Atom& o : t.program.outvars) got += (got.empty() ? "" : ", ") + o.aval.str();
    fail(ErrorKind::kShape, "grad: the function must return one float32 scalar (f32[]), got (", got,
         "); use vjp for other outputs");
  }
  const Atom one = full_like(b, t.program.outvars[0].aval, 1.0);
  const auto all =
      b.call(vjp(t.program, wrt_args(t.captured.size(), args.size())), concat(concat(t.captured, args), {one}));
  return {{all[0]}, std::vector<Atom>(all.begin() + 1, all.end())};
}

}  // namespace shardlab::ir
