#include "ir/tracing/autodiff.h"

#include <algorithm>

#include "ir/transforms/dce.h"
#include "ir/transforms/jvp.h"
#include "ir/tracing/ops.h"
#include "ir/primitives/derivatives.h"
#include "ir/transforms/vjp.h"
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

// The primal half of a traced rule `r` (its first n inputs and first m
// outputs): what the custom call computes when it is not differentiated.
// The primal outputs may not read the other inputs (a jvp rule's tangents);
// an effect reading them (a jax.debug.print of a tangent) is the tangent
// half's, left out.
Program primal_half(const Program& r, size_t n, size_t m, const std::string& rule) {
  Program q = r;
  q.outvars.resize(m);
  std::vector<bool> dropped(q.avals.size(), false);
  for (size_t i = n; i < q.invars.size(); ++i) dropped[q.invars[i]] = true;
  auto reads = [&](const Atom& a) { return !a.is_literal() && dropped[a.var]; };
  std::vector<bool> tangential = dropped;  // values computed from the tangents
  for (const Eqn& e : q.eqns)
    if (std::any_of(e.inputs.begin(), e.inputs.end(), [&](const Atom& a) { return !a.is_literal() && tangential[a.var]; }))
      for (VarId v : e.outputs) tangential[v] = true;
  q.eqns.erase(std::remove_if(q.eqns.begin(), q.eqns.end(),
                              [&](const Eqn& e) {
                                return primitive(e.prim).effect &&
                                       std::any_of(e.inputs.begin(), e.inputs.end(), [&](const Atom& a) {
                                         return !a.is_literal() && tangential[a.var];
                                       });
                              }),
               q.eqns.end());
  q = dce(q);
  bool any = std::any_of(q.outvars.begin(), q.outvars.end(), reads);
  for (const Eqn& e : q.eqns) any = any || std::any_of(e.inputs.begin(), e.inputs.end(), reads);
  if (any)
    fail(ErrorKind::kValue, "Custom JVP rule ", rule, ": its primal outputs depend on the tangents; they must be the "
         "function's outputs, computed from the primals alone");
  q.invars.resize(n);
  return q;
}

// A traced rule's program as a rule: inlined on its arguments.
RuleRef inlined(const std::string& name, const Program& r) {
  auto p = std::make_shared<const Program>(r);
  return std::make_shared<const Rule>(Rule{name, [p](Builder& b, const std::vector<Atom>& args) { return b.call(*p, args); }});
}

}  // namespace

FunctionTrace::FunctionTrace(Builder& outer, std::vector<Atom> args, bool isolated)
    : outer_(outer), args_(std::move(args)), inner_(outer.scope(), isolated ? nullptr : &outer) {
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

Derivatives FunctionTrace::vjp(std::vector<Atom> outs, const std::vector<MaybeAtom>& cts, Builder& into) {
  const Program p = program(outs);
  if (cts.size() != outs.size())
    fail(ErrorKind::kValue, "vjp: the function has ", outs.size(), " outputs but ", cts.size(),
         " cotangents were given");
  // Linearize, then transpose straight into `into`: the forward part gives
  // the outputs, the transposed part the cotangents.
  const Program lin = ir::jvp(p, wrt());
  const std::vector<Atom> values = concat(inner_.captured(), args_);
  std::vector<Atom> lin_inputs = values;
  lin_inputs.resize(lin.invars.size());
  std::vector<bool> linear(lin.invars.size(), false);
  for (size_t i = values.size(); i < linear.size(); ++i) linear[i] = true;
  std::vector<MaybeAtom> out_cts(outs.size());
  out_cts.insert(out_cts.end(), cts.begin(), cts.end());
  const Transposed t = emit_transpose(into, lin, linear, lin_inputs, out_cts);
  Derivatives d;
  for (size_t i = 0; i < outs.size(); ++i) d.outputs.push_back(*t.values[i]);
  for (size_t i = values.size(); i < lin.invars.size(); ++i)
    d.derivs.push_back(t.cts[i] ? *t.cts[i] : zeros_like(into, lin.avals[lin.invars[i]]));
  return d;
}

std::vector<Atom> FunctionTrace::linear_transpose(std::vector<Atom> outs, const std::vector<MaybeAtom>& cts,
                                                  Builder& into) {
  const Program p = program(outs);
  if (cts.size() != outs.size())
    fail(ErrorKind::kValue, "linear_transpose: the function has ", outs.size(), " outputs but ", cts.size(),
         " cotangents were given");
  const std::vector<Atom> values = concat(inner_.captured(), args_);
  const size_t n_captured = inner_.captured().size();
  std::vector<bool> linear(values.size(), false);
  for (size_t i = n_captured; i < values.size(); ++i) linear[i] = true;
  const Transposed t = emit_transpose(into, p, linear, values, cts);
  std::vector<Atom> cts_in;
  for (size_t i = n_captured; i < values.size(); ++i)
    cts_in.push_back(t.cts[i] ? *t.cts[i] : zeros_like(into, p.avals[p.invars[i]]));
  return cts_in;
}

std::vector<Atom> FunctionTrace::primal(std::vector<Atom> outs) {
  return outer_.call(program(outs), concat(inner_.captured(), args_));
}

Derivatives FunctionTrace::jvp(std::vector<Atom> outs, const std::vector<Atom>& tangents) {
  const Program p = program(outs);
  if (tangents.size() != args_.size())
    fail(ErrorKind::kValue, "jvp: ", args_.size(), " primals but ", tangents.size(), " tangents");
  const Program jp = ir::jvp(p, wrt());
  if (has_custom_lin(jp)) fail_jvp_of_custom_vjp();
  const auto all = outer_.call(jp, concat(concat(inner_.captured(), args_), tangents));
  return {slice(all, 0, outs.size()), slice(all, outs.size(), all.size())};
}

Derivatives FunctionTrace::grad(std::vector<Atom> outs) {
  if (outs.empty() || !outs[0].aval.shape.empty() || !is_float(outs[0].aval.dtype))
    fail(ErrorKind::kShape, "grad: the function must return a float32 scalar (f32[]), got ",
         outs.empty() ? std::string("nothing") : outs[0].aval.str(), "; use vjp for other outputs");
  // Outputs after the first are auxiliary (has_aux): passed through, not differentiated.
  std::vector<MaybeAtom> cts(outs.size());
  cts[0] = full_like(outer_, outs[0].aval, 1.0);
  return vjp(std::move(outs), cts, outer_);
}

std::vector<Atom> FunctionTrace::custom_jvp_call(std::vector<Atom> outs, const std::string& name, RuleRef jvp) {
  const Program p = program(outs);
  const Params params{{"name", name},
                      {"call_jaxpr", std::make_shared<const Program>(p)},
                      {"jvp", std::move(jvp)},
                      {"num_consts", static_cast<int64_t>(inner_.captured().size())},
                      {"symbolic_zeros", false}};
  return outer_.emit(Prim::kCustomJvpCall, params, concat(inner_.captured(), args_));
}

// A jit called again on the same types in one trace gives the same program:
// its equations share it, as JAX's trace cache makes them (so it prints once,
// `let name = { ... } in`).
std::vector<Atom> FunctionTrace::jit_call(std::vector<Atom> outs, const std::string& name) {
  const Program p = program(outs);
  ProgramRef body;
  for (const Eqn& e : outer_.equations())
    if (e.prim == Prim::kJit && param<std::string>(e.params, "name", "jit") == name)
      if (const ProgramRef& q = param<ProgramRef>(e.params, "jaxpr", "jit"); same_program(*q, p)) body = q;
  const Params params{{"name", name}, {"jaxpr", body ? body : std::make_shared<const Program>(p)}};
  return outer_.emit(Prim::kJit, params, concat(inner_.captured(), args_));
}

std::vector<Atom> FunctionTrace::checkpoint_call(std::vector<Atom> outs, bool prevent_cse, const std::string& policy) {
  const Params params{{"differentiated", false},
                      {"jaxpr", std::make_shared<const Program>(program(outs))},
                      {"policy", policy},
                      {"prevent_cse", prevent_cse}};
  return outer_.emit(Prim::kCheckpoint, params, concat(inner_.captured(), args_));
}

std::vector<Atom> FunctionTrace::custom_vjp_call(std::vector<Atom> outs, const std::string& name, RuleRef fwd,
                                                 RuleRef bwd) {
  const Program p = program(outs);
  const Params params{{"name", name},
                      {"bwd", std::move(bwd)},
                      {"call_jaxpr", std::make_shared<const Program>(p)},
                      {"fwd", std::move(fwd)},
                      {"num_consts", static_cast<int64_t>(inner_.captured().size())},
                      {"symbolic_zeros", false}};
  return outer_.emit(Prim::kCustomVjpCall, params, concat(inner_.captured(), args_));
}

std::vector<Atom> FunctionTrace::custom_jvp_call_of_rule(std::vector<Atom> outs, const std::string& name,
                                                         const std::string& jvp_name) {
  const Program r = program(outs);
  const size_t n = args_.size() / 2;
  const Params params{{"name", name},
                      {"call_jaxpr", std::make_shared<const Program>(primal_half(r, n, outs.size() / 2, jvp_name))},
                      {"jvp", inlined(jvp_name, r)},
                      {"num_consts", int64_t{0}},
                      {"symbolic_zeros", false}};
  return outer_.emit(Prim::kCustomJvpCall, params, slice(args_, 0, n));
}

std::vector<Atom> FunctionTrace::custom_vjp_call_of_fwd(std::vector<Atom> outs, size_t num_outs,
                                                        const std::string& name, const std::string& fwd_name,
                                                        RuleRef bwd) {
  const Program f = program(outs);
  const Params params{{"name", name},
                      {"bwd", std::move(bwd)},
                      {"call_jaxpr", std::make_shared<const Program>(primal_half(f, args_.size(), num_outs, fwd_name))},
                      {"fwd", inlined(fwd_name, f)},
                      {"num_consts", int64_t{0}},
                      {"symbolic_zeros", false}};
  return outer_.emit(Prim::kCustomVjpCall, params, args_);
}

Derivatives vjp_at(Builder& b, const TracedFn& f, const std::vector<Atom>& args, const std::vector<Atom>& cts) {
  FunctionTrace t(b, args);
  return t.vjp(f(t.builder(), t.inputs()), std::vector<MaybeAtom>(cts.begin(), cts.end()), b);
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
