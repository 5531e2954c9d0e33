#include "ir/autodiff.h"

#include "ir/jvp.h"
#include "ir/ops.h"
#include "ir/vjp.h"
#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

std::vector<Atom> concat(std::vector<Atom> a, const std::vector<Atom>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::vector<Atom> slice(const std::vector<Atom>& v, size_t from, size_t to) {
  return std::vector<Atom>(v.begin() + static_cast<long>(from), v.begin() + static_cast<long>(to));
}

}  // namespace

FunctionTrace::FunctionTrace(Builder& outer, std::vector<Atom> args)
    : outer_(outer), args_(std::move(args)), inner_(outer.scope(), &outer) {
  for (Atom& a : args_) {
    a = outer_.local(a);
    inputs_.push_back(inner_.input(a.aval));
  }
}

Program FunctionTrace::program(std::vector<Atom>& outs) {
  for (Atom& o : outs) o = inner_.local(o);
  return inner_.build(outs);
}

// Differentiate with respect to the arguments, not the captured constants
// (which build() puts first).
std::vector<bool> FunctionTrace::wrt() const {
  std::vector<bool> wrt(inner_.captured().size(), false);
  wrt.resize(wrt.size() + args_.size(), true);
  return wrt;
}

Derivatives FunctionTrace::vjp(std::vector<Atom> outs, const std::vector<Atom>& cts) {
  const Program p = program(outs);
  if (cts.size() != outs.size())
    fail(ErrorKind::kValue, "vjp: the function has ", outs.size(), " outputs but ", cts.size(),
         " cotangents were given");
  const auto all = outer_.call(ir::vjp(p, wrt()), concat(concat(inner_.captured(), args_), cts));
  return {slice(all, 0, outs.size()), slice(all, outs.size(), all.size())};
}

Derivatives FunctionTrace::jvp(std::vector<Atom> outs, const std::vector<Atom>& tangents) {
  const Program p = program(outs);
  if (tangents.size() != args_.size())
    fail(ErrorKind::kValue, "jvp: ", args_.size(), " primals but ", tangents.size(), " tangents");
  const auto all = outer_.call(ir::jvp(p, wrt()), concat(concat(inner_.captured(), args_), tangents));
  return {slice(all, 0, outs.size()), slice(all, outs.size(), all.size())};
}

Derivatives FunctionTrace::grad(std::vector<Atom> outs) {
  if (outs.size() != 1 || !outs[0].aval.shape.empty() || outs[0].aval.dtype != DType::kFloat32) {
    std::string got;
    for (const Atom& o : outs) got += (got.empty() ? "" : ", ") + o.aval.str();
    fail(ErrorKind::kShape, "grad: the function must return one float32 scalar (f32[]), got (", got,
         "); use vjp for other outputs");
  }
  const Atom one = full_like(outer_, outs[0].aval, 1.0);
  return vjp(std::move(outs), {one});
}

Derivatives vjp_at(Builder& b, const TracedFn& f, const std::vector<Atom>& args, const std::vector<Atom>& cts) {
  FunctionTrace t(b, args);
  return t.vjp(f(t.builder(), t.inputs()), cts);
}

Derivatives jvp_at(Builder& b, const TracedFn& f, const std::vector<Atom>& args, const std::vector<Atom>& tangents) {
  FunctionTrace t(b, args);
  return t.jvp(f(t.builder(), t.inputs()), tangents);
}

Derivatives grad_at(Builder& b, const TracedFn& f, const std::vector<Atom>& args) {
  FunctionTrace t(b, args);
  return t.grad(f(t.builder(), t.inputs()));
}

}  // namespace shardlab::ir
