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

namespace {

// A call's outputs: its program's, given operands of the program's input types.
std::vector<Aval> call_avals(const char* name, const Params& p, const std::vector<Aval>& in) {
  const Program& body = *param<ProgramRef>(p, "jaxpr", name);
  if (in.size() != body.invars.size())
    fail(ErrorKind::kValue, name, ": ", in.size(), " operands for a program of ", body.invars.size(), " inputs");
  for (size_t i = 0; i < in.size(); ++i)
    if (!same_type(in[i], body.avals[body.invars[i]]))
      fail(ErrorKind::kShape, name, ": operand ", i, " is ", in[i].str(), " but the program takes ",
           body.avals[body.invars[i]].str());
  std::vector<Aval> out;
  for (const Atom& a : body.outvars) out.push_back(a.aval);
  return out;
}

// A call batched: the call of its batched program, every output batched along 0.
std::vector<Batched> batch_call(Prim prim, Builder& b, const Params& p, const std::vector<Batched>& in, int64_t size) {
  const std::vector<Batched> ops = batch_dims_leading(b, in, size);
  const ProgramRef body = batched_body(b.scope(), *param<ProgramRef>(p, "jaxpr", primitive(prim).name), ops, size);
  return batched_at(b.emit(prim, with_param(p, "jaxpr", body), values_of(ops)), 0);
}

}  // namespace

std::vector<Aval> Def<Prim::kJit>::shape(const Params& p, const std::vector<Aval>& in) { return call_avals(kName, p, in); }
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
  return batch_call(Prim::kJit, b, p, in, size);
}
Sample Def<Prim::kJit>::sample() {
  // square(x) = x * x
  Builder b;
  const Atom x = b.input(samples::f32({2, 3}));
  const auto body = std::make_shared<const Program>(b.build({mul(b, x, x)}));
  return {{samples::f32({2, 3})}, {{"name", std::string("square")}, {"jaxpr", body}}};
}

// ---- checkpoint ---------------------------------------------------------------

namespace {

// The policies, by JAX's names: whether each saves a forward equation's results.
bool saves(const std::string& policy, const Eqn& e) {
  if (policy == "everything_saveable") return true;
  if (e.prim != Prim::kDotGeneral) return false;
  if (policy == "dots_saveable") return true;
  return policy == "dots_with_no_batch_dims_saveable" && param<IntLists>(e.params, "dimension_numbers", "dot_general")[2].empty();
}

}  // namespace

bool is_checkpoint_policy(const std::string& policy) {
  for (const char* known : {"None", "nothing_saveable", "everything_saveable", "dots_saveable", "dots_with_no_batch_dims_saveable"})
    if (policy == known) return true;
  return false;
}

std::vector<Aval> Def<Prim::kCheckpoint>::shape(const Params& p, const std::vector<Aval>& in) {
  const std::string& policy = param<std::string>(p, "policy", kName);
  if (!is_checkpoint_policy(policy))
    fail(ErrorKind::kValue, "jax.checkpoint: policy ", policy, " is not one ShardLab has; use None, nothing_saveable, "
         "everything_saveable, dots_saveable or dots_with_no_batch_dims_saveable (jax.checkpoint_policies)");
  return call_avals(kName, p, in);
}
std::vector<Atom> Def<Prim::kCheckpoint>::lower(Builder& b, const Params& p, const std::vector<Atom>& in) {
  return emit_lowered(b, *param<ProgramRef>(p, "jaxpr", kName), in);
}

// With J = the program's JVP, (x, dx) -> (y, dy): the saved values are the
// primal values of J the tangents need whose equations the policy saves,
// found walking back from dy through what is recomputed. The forward
// checkpoint computes y and them from x; the tangent one computes dy from x,
// them and dx, recomputing the other primal values it needs.
std::pair<std::vector<Atom>, std::vector<MaybeAtom>> Def<Prim::kCheckpoint>::jvp_with_primal(
    Builder& b, const Params& p, const std::vector<Atom>& x, const std::vector<MaybeAtom>& t) {
  std::vector<bool> wrt(x.size(), false);
  std::vector<Atom> tangents;
  for (size_t i = 0; i < x.size(); ++i)
    if (t[i]) {
      wrt[i] = true;
      tangents.push_back(*t[i]);
    }
  if (tangents.empty()) {
    std::vector<Atom> ys = b.emit(Prim::kCheckpoint, p, x);
    return {ys, std::vector<MaybeAtom>(ys.size())};
  }
  const Program& body = *param<ProgramRef>(p, "jaxpr", kName);
  const Program j = ir::jvp(body, wrt);
  const size_t n = x.size(), m = body.outvars.size();
  // Which values of J depend on the tangents, and each value's equation.
  std::vector<bool> tangent(j.avals.size(), false);
  std::vector<const Eqn*> producer(j.avals.size(), nullptr);
  for (size_t i = n; i < j.invars.size(); ++i) tangent[j.invars[i]] = true;
  const auto reads_tangent = [&](const Eqn& e) {
    for (const Atom& a : e.inputs)
      if (!a.is_literal() && tangent[a.var]) return true;
    return false;
  };
  for (const Eqn& e : j.eqns)
    for (VarId v : e.outputs) {
      tangent[v] = reads_tangent(e);
      producer[v] = &e;
    }
  const std::string& policy = param<std::string>(p, "policy", kName);
  std::vector<bool> seen(j.avals.size(), false), saved(j.avals.size(), false);
  std::vector<VarId> stack;
  for (size_t k = m; k < j.outvars.size(); ++k)
    if (!j.outvars[k].is_literal()) stack.push_back(j.outvars[k].var);
  while (!stack.empty()) {
    const VarId v = stack.back();
    stack.pop_back();
    if (seen[v] || !producer[v]) continue;  // seen, or an input
    seen[v] = true;
    if (!tangent[v] && saves(policy, *producer[v])) {
      saved[v] = true;
      continue;
    }
    for (const Atom& a : producer[v]->inputs)
      if (!a.is_literal()) stack.push_back(a.var);
  }
  std::vector<VarId> kept;
  for (VarId v = 0; v < static_cast<VarId>(j.avals.size()); ++v)
    if (saved[v]) kept.push_back(v);

  // The forward program: x -> (y, saved), J's primal equations (and their effects).
  Builder fb(b.scope(), nullptr);
  std::vector<Atom> value(j.avals.size());
  const auto value_of = [&](const Atom& a) { return a.is_literal() ? a : value[a.var]; };
  for (size_t i = 0; i < n; ++i) value[j.invars[i]] = fb.input(j.avals[j.invars[i]]);
  for (const Eqn& e : j.eqns) {
    if (reads_tangent(e)) continue;
    std::vector<Atom> xs;
    for (const Atom& a : e.inputs) xs.push_back(value_of(a));
    const auto ys = fb.emit(e.prim, e.params, xs);
    for (size_t k = 0; k < ys.size(); ++k) value[e.outputs[k]] = ys[k];
  }
  std::vector<Atom> fwd_outs;
  for (size_t k = 0; k < m; ++k) fwd_outs.push_back(value_of(j.outvars[k]));
  for (VarId v : kept) fwd_outs.push_back(value[v]);
  const auto fwd = std::make_shared<const Program>(dce(fb.build(fwd_outs)));

  // The tangent program: (x, saved, dx) -> dy; the saved values are inputs, the effects ran forward.
  Builder lb(b.scope(), nullptr);
  value.assign(j.avals.size(), Atom{});
  for (size_t i = 0; i < n; ++i) value[j.invars[i]] = lb.input(j.avals[j.invars[i]]);
  for (VarId v : kept) value[v] = lb.input(j.avals[v]);
  for (size_t i = n; i < j.invars.size(); ++i) value[j.invars[i]] = lb.input(j.avals[j.invars[i]]);
  for (const Eqn& e : j.eqns) {
    bool all_saved = !e.outputs.empty();
    for (VarId v : e.outputs) all_saved = all_saved && saved[v];
    if (all_saved) continue;
    std::vector<Atom> xs;
    for (const Atom& a : e.inputs) xs.push_back(value_of(a));
    const auto ys = lb.emit(e.prim, e.params, xs);
    for (size_t k = 0; k < ys.size(); ++k)
      if (!saved[e.outputs[k]]) value[e.outputs[k]] = ys[k];
  }
  std::vector<Atom> lin_outs;
  for (size_t k = m; k < j.outvars.size(); ++k) lin_outs.push_back(value_of(j.outvars[k]));
  const auto lin = std::make_shared<const Program>(dce(lb.build(lin_outs), Effects::kDrop));

  const std::vector<Atom> fo = b.emit(Prim::kCheckpoint, with_param(p, "jaxpr", fwd), x);
  std::vector<Atom> operands = x;
  operands.insert(operands.end(), fo.begin() + static_cast<std::ptrdiff_t>(m), fo.end());
  operands.insert(operands.end(), tangents.begin(), tangents.end());
  const auto dys = b.emit(Prim::kCheckpoint, with_param(with_param(p, "jaxpr", lin), "differentiated", true), operands);
  return {std::vector<Atom>(fo.begin(), fo.begin() + static_cast<std::ptrdiff_t>(m)),
          std::vector<MaybeAtom>(dys.begin(), dys.end())};
}

// The transpose of its program, as a checkpoint of its own (differentiated):
// the non-linear part is recomputed inside it, the linear part transposed.
std::vector<MaybeAtom> Def<Prim::kCheckpoint>::transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                                         const std::vector<Atom>& x, const std::vector<bool>& linear) {
  std::vector<MaybeAtom> out(x.size());
  bool any = false;
  for (const MaybeAtom& c : cts) any = any || c.has_value();
  if (!any) return out;
  Builder tb(b.scope(), nullptr);
  std::vector<Atom> inputs(x.size()), operands;
  for (size_t i = 0; i < x.size(); ++i)
    if (!linear[i]) {
      inputs[i] = tb.input(x[i].aval);
      operands.push_back(x[i]);
    }
  std::vector<MaybeAtom> out_cts(cts.size());
  for (size_t k = 0; k < cts.size(); ++k)
    if (cts[k]) {
      out_cts[k] = tb.input(cts[k]->aval);
      operands.push_back(*cts[k]);
    }
  const Transposed tr = emit_transpose(tb, *param<ProgramRef>(p, "jaxpr", kName), linear, inputs, out_cts);
  std::vector<Atom> outs;
  for (size_t i = 0; i < x.size(); ++i)
    if (linear[i]) outs.push_back(tr.cts[i] ? *tr.cts[i] : zeros_like(tb, x[i].aval));
  const auto body = std::make_shared<const Program>(dce(tb.build(outs), Effects::kDrop));
  const auto res = b.emit(Prim::kCheckpoint, with_param(with_param(p, "jaxpr", body), "differentiated", true), operands);
  for (size_t i = 0, k = 0; i < x.size(); ++i)
    if (linear[i]) out[i] = res[k++];
  return out;
}
std::vector<Batched> Def<Prim::kCheckpoint>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                                  int64_t size) {
  return batch_call(Prim::kCheckpoint, b, p, in, size);
}
Sample Def<Prim::kCheckpoint>::sample() {
  // sin(x) * x
  Builder b;
  const Atom x = b.input(samples::f32({2, 3}));
  const auto body = std::make_shared<const Program>(b.build({mul(b, unary(b, Prim::kSin, x), x)}));
  return {{samples::f32({2, 3})},
          {{"differentiated", false}, {"jaxpr", body}, {"policy", std::string("None")}, {"prevent_cse", true}}};
}

}  // namespace shardlab::ir
