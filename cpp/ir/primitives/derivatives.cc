#include "ir/primitives/derivatives.h"

#include <cstring>

#include "ir/tracing/builder.h"
#include "ir/transforms/lower.h"
#include "ir/tracing/ops.h"
#include "ir/tracing/rule.h"
#include "ir/tracing/vmap.h"
#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

std::vector<Atom> tail(const std::vector<Atom>& v, size_t from) {
  return std::vector<Atom>(v.begin() + static_cast<long>(from), v.end());
}


// A custom call's closed-over values are constants to its rules, which see
// only the arguments: a derivative through one is lost, so it is an error.
void check_consts_not_differentiated(const char* prim, const std::string& name, const std::vector<MaybeAtom>& ts,
                                     size_t num_consts) {
  for (size_t i = 0; i < num_consts; ++i)
    if (ts[i])
      fail(ErrorKind::kValue, prim, ": the function ", name,
           " closes over a value that is being differentiated; its custom rule cannot see that value's "
           "derivative. Pass the value as an argument of the function instead (JAX: jax.closure_convert).");
}

// The arguments' tangents, zeros instantiated (symbolic_zeros=False).
std::vector<Atom> instantiated(Builder& b, const std::vector<Atom>& xs, const std::vector<MaybeAtom>& ts,
                               size_t from) {
  std::vector<Atom> out;
  for (size_t i = from; i < xs.size(); ++i) out.push_back(ts[i] ? *ts[i] : zeros_like(b, xs[i].aval));
  return out;
}

// vmap's in_axes for a custom call's rule: its operands after the
// closed-over ones (batched ones along 0), `times` over (a jvp rule takes
// primals and tangents).
std::vector<MapAxis> rule_axes(const std::vector<Batched>& ops, size_t num_consts, size_t times = 1) {
  std::vector<MapAxis> out;
  for (size_t t = 0; t < times; ++t)
    for (size_t i = num_consts; i < ops.size(); ++i) out.push_back(ops[i].batched() ? MapAxis(0) : std::nullopt);
  return out;
}

// `rule` under vmap: its arguments mapped along `in_axes`, every output along 0.
std::vector<Atom> vmapped(Builder& b, const Rule& rule, const std::vector<Atom>& args,
                          const std::vector<MapAxis>& in_axes, int64_t size) {
  VmapTrace t(b, args, in_axes, size);
  const std::vector<Atom> outs = rule.fn(t.builder(), t.inputs());
  return t.finish(outs, std::vector<MapAxis>(outs.size(), MapAxis(0)));
}

// A rule's name with `fn` in place of its function (a rule under vmap).
RuleRef renamed(const RuleRef& rule, TracedFn fn) { return std::make_shared<const Rule>(Rule{rule->name, std::move(fn)}); }

// A custom call's params with its program batched for operands `ops` (batch dimensions at 0).
Params with_batched_call(const Builder& b, const Params& p, const char* prim, const std::vector<Batched>& ops,
                         int64_t size) {
  return with_param(p, "call_jaxpr", batched_body(b.scope(), *param<ProgramRef>(p, "call_jaxpr", prim), ops, size));
}

}  // namespace

// JAX raises a TypeError: ShapeError is ShardLab's kind for type mismatches (Python's TypeError).
void fail_jvp_of_custom_vjp() {
  fail(ErrorKind::kShape, "can't apply forward-mode autodiff (jvp) to a custom_vjp function.");
}

// stop_gradient

std::vector<Aval> Def<Prim::kStopGradient>::shape(const Params&, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, kName, ": takes 1 operand, got ", in.size());
  return {in[0]};
}
void Def<Prim::kStopGradient>::eval(const Params&, const std::vector<const Tensor*>& in,
                                    const std::vector<Tensor*>& out) {
  std::memcpy(out[0]->data, in[0]->data, static_cast<size_t>(num_elements(in[0]->aval.shape)) * kElemBytes);
}
Sample Def<Prim::kStopGradient>::sample() { return {{samples::f32({2, 3})}, {}}; }

std::vector<Aval> call_shape(const char* prim, const Params& p, const std::vector<Aval>& in) {
  const Program& body = *param<ProgramRef>(p, "call_jaxpr", prim);
  const int64_t k = param<int64_t>(p, "num_consts", prim);
  if (in.size() != body.invars.size() || k < 0 || static_cast<size_t>(k) > in.size())
    fail(ErrorKind::kValue, prim, ": ", in.size(), " operands for a program of ", body.invars.size(), " inputs (",
         k, " of them closed over)");
  for (size_t i = 0; i < in.size(); ++i)
    if (!same_type(in[i], body.avals[body.invars[i]]))
      fail(ErrorKind::kShape, prim, ": operand ", i, " is ", in[i].str(), " but the program takes ",
           body.avals[body.invars[i]].str());
  std::vector<Aval> out;
  for (const Atom& a : body.outvars) out.push_back(a.aval);
  return out;
}

namespace {

// Checks that `got` (a rule's outputs for `what`) have the types of `want`.
void check_rule_types(const std::string& msg_head, const std::vector<Atom>& got, const std::vector<Atom>& want,
                      const std::string& what) {
  bool ok = got.size() == want.size();
  for (size_t i = 0; ok && i < got.size(); ++i) ok = same_type(got[i].aval, want[i].aval);
  if (!ok)
    fail(ErrorKind::kShape, msg_head, " must produce ", what, " of the shapes and dtypes ", types_str(want),
         ", but got ", types_str(got));
}

// Example programs and rules for samples: f(x) = x * x, its JVP and its VJP.
Sample custom_call_sample(const char* rule_param, RuleRef rule, const char* second_param, RuleRef second) {
  Builder b;
  const Atom x = b.input(samples::f32({2, 3}));
  Params p{{"name", std::string("square")}};
  auto body = std::make_shared<const Program>(b.build({mul(b, x, x)}));
  if (second) p.push_back({second_param, second});
  p.push_back({"call_jaxpr", body});
  p.push_back({rule_param, rule});
  p.push_back({"num_consts", int64_t{0}});
  p.push_back({"symbolic_zeros", false});
  return {{samples::f32({2, 3})}, p};
}

}  // namespace

// custom_jvp_call

std::vector<MaybeAtom> Def<Prim::kCustomJvpCall>::jvp(Builder& b, const Params& p, const std::vector<Atom>& xs,
                                                      const std::vector<Atom>& ys,
                                                      const std::vector<MaybeAtom>& ts) {
  const std::string& name = param<std::string>(p, "name", kName);
  const Rule& rule = *param<RuleRef>(p, "jvp", kName);
  const auto k = static_cast<size_t>(param<int64_t>(p, "num_consts", kName));
  check_consts_not_differentiated(kName, name, ts, k);
  // jvp(primals, tangents) -> (primal outputs, tangent outputs), flat.
  std::vector<Atom> args = tail(xs, k);
  for (const Atom& t : instantiated(b, xs, ts, k)) args.push_back(t);
  const std::vector<Atom> outs = rule.fn(b, args);
  const std::string head = "Custom JVP rule " + rule.name + " for function " + name;
  if (outs.size() != 2 * ys.size())
    fail(ErrorKind::kValue, head, " must produce primal and tangent outputs of ", ys.size(),
         " arrays each, but produced ", outs.size(), " arrays in all");
  const std::vector<Atom> primal(outs.begin(), outs.begin() + static_cast<long>(ys.size()));
  check_rule_types(head, primal, ys, "primal outputs (equal in value to the output of the custom_jvp-decorated function)");
  check_rule_types(head, tail(outs, ys.size()), ys, "tangent outputs (the tangent types of the primal outputs)");
  std::vector<MaybeAtom> dys;
  for (size_t i = ys.size(); i < outs.size(); ++i) dys.push_back(outs[i]);
  return dys;
}

std::vector<Batched> Def<Prim::kCustomJvpCall>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                                     int64_t size) {
  const std::vector<Batched> ops = batch_dims_leading(b, in, size);
  const RuleRef jvp = param<RuleRef>(p, "jvp", kName);
  const std::vector<MapAxis> axes = rule_axes(ops, static_cast<size_t>(param<int64_t>(p, "num_consts", kName)), 2);
  const Params q = with_param(with_batched_call(b, p, kName, ops, size), "jvp",
                              renamed(jvp, [jvp, axes, size](Builder& bb, const std::vector<Atom>& args) {
                                return vmapped(bb, *jvp, args, axes, size);
                              }));
  return batched_at(b.emit(Prim::kCustomJvpCall, q, values_of(ops)), 0);
}

Sample Def<Prim::kCustomJvpCall>::sample() {
  // jvp(x, dx) = (x * x, 2 x dx)
  auto jvp = std::make_shared<const Rule>(Rule{"square_jvp", [](Builder& b, const std::vector<Atom>& a) {
    return std::vector<Atom>{mul(b, a[0], a[0]), mul(b, mul(b, a[0], f32_scalar(2)), a[1])};
  }});
  return custom_call_sample("jvp", jvp, nullptr, nullptr);
}

// custom_vjp_call

std::vector<MaybeAtom> Def<Prim::kCustomVjpCall>::jvp(Builder& b, const Params& p, const std::vector<Atom>& xs,
                                                      const std::vector<Atom>& ys,
                                                      const std::vector<MaybeAtom>& ts) {
  const std::string& name = param<std::string>(p, "name", kName);
  const Rule& fwd = *param<RuleRef>(p, "fwd", kName);
  const auto k = static_cast<size_t>(param<int64_t>(p, "num_consts", kName));
  check_consts_not_differentiated(kName, name, ts, k);
  // fwd(primals) -> (primal outputs, residuals), flat.
  const std::vector<Atom> outs = fwd.fn(b, tail(xs, k));
  const std::string head = "Custom VJP fwd rule " + fwd.name + " for function " + name;
  if (outs.size() < ys.size())
    fail(ErrorKind::kValue, head, " must produce a pair (list or tuple of length two) of the primal outputs (",
         ys.size(), " arrays) and the residuals, but produced ", outs.size(), " arrays in all");
  const std::vector<Atom> primal(outs.begin(), outs.begin() + static_cast<long>(ys.size()));
  check_rule_types(head, primal, ys, "primal outputs (equal in value to the output of the custom_vjp-decorated function)");
  // custom_lin(residuals, y, dx)
  std::vector<Atom> operands = tail(outs, ys.size());
  const auto num_res = static_cast<int64_t>(operands.size());
  operands.insert(operands.end(), ys.begin(), ys.end());
  for (const Atom& t : instantiated(b, xs, ts, k)) operands.push_back(t);
  const Params lin{{"bwd", param<RuleRef>(p, "bwd", kName)},
                   {"num_outs", static_cast<int64_t>(ys.size())},
                   {"num_res", num_res},
                   {"symbolic_zeros", false}};
  const std::vector<Atom> dys = b.emit(Prim::kCustomLin, lin, operands);
  return std::vector<MaybeAtom>(dys.begin(), dys.end());
}

std::vector<Batched> Def<Prim::kCustomVjpCall>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                                     int64_t size) {
  const std::vector<Batched> ops = batch_dims_leading(b, in, size);
  const RuleRef fwd = param<RuleRef>(p, "fwd", kName), bwd = param<RuleRef>(p, "bwd", kName);
  const std::vector<MapAxis> axes = rule_axes(ops, static_cast<size_t>(param<int64_t>(p, "num_consts", kName)));
  Params q = with_param(with_batched_call(b, p, kName, ops, size), "fwd",
                        renamed(fwd, [fwd, axes, size](Builder& bb, const std::vector<Atom>& args) {
                          return vmapped(bb, *fwd, args, axes, size);
                        }));
  // bwd(residuals, cts) sees everything batched along 0 (fwd's residuals and
  // the call's outputs are); an unbatched argument's cotangent is the sum over the batch.
  q = with_param(q, "bwd", renamed(bwd, [bwd, axes, size](Builder& bb, const std::vector<Atom>& args) {
    std::vector<Atom> cts = vmapped(bb, *bwd, args, std::vector<MapAxis>(args.size(), MapAxis(0)), size);
    for (size_t i = 0; i < cts.size() && i < axes.size(); ++i)
      if (!axes[i]) cts[i] = reduce_sum(bb, cts[i], {0});
    return cts;
  }));
  return batched_at(b.emit(Prim::kCustomVjpCall, q, values_of(ops)), 0);
}

Sample Def<Prim::kCustomVjpCall>::sample() {
  // fwd(x) = (x * x, x); bwd(x, ct) = 2 x ct
  auto fwd = std::make_shared<const Rule>(Rule{"square_fwd", [](Builder& b, const std::vector<Atom>& a) {
    return std::vector<Atom>{mul(b, a[0], a[0]), a[0]};
  }});
  auto bwd = std::make_shared<const Rule>(Rule{"square_bwd", [](Builder& b, const std::vector<Atom>& a) {
    return std::vector<Atom>{mul(b, mul(b, a[0], f32_scalar(2)), a[1])};
  }});
  return custom_call_sample("fwd", fwd, "bwd", bwd);
}

// custom_lin

std::vector<Aval> Def<Prim::kCustomLin>::shape(const Params& p, const std::vector<Aval>& in) {
  const int64_t res = param<int64_t>(p, "num_res", kName), outs = param<int64_t>(p, "num_outs", kName);
  if (res < 0 || outs < 0 || static_cast<size_t>(res + outs) > in.size())
    fail(ErrorKind::kValue, kName, ": ", in.size(), " operands for ", res, " residuals and ", outs, " outputs");
  return std::vector<Aval>(in.begin() + res, in.begin() + res + outs);
}

std::vector<MaybeAtom> Def<Prim::kCustomLin>::jvp(Builder&, const Params&, const std::vector<Atom>&,
                                                  const std::vector<Atom>&, const std::vector<MaybeAtom>&) {
  fail_jvp_of_custom_vjp();
}

std::vector<MaybeAtom> Def<Prim::kCustomLin>::transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                                        const std::vector<Atom>& inputs,
                                                        const std::vector<bool>& linear) {
  const auto res = static_cast<size_t>(param<int64_t>(p, "num_res", kName));
  const auto outs = static_cast<size_t>(param<int64_t>(p, "num_outs", kName));
  const Rule& bwd = *param<RuleRef>(p, "bwd", kName);
  for (size_t i = 0; i < res + outs; ++i)
    if (linear[i]) fail(ErrorKind::kValue, kName, ": is linear only in its tangents, not in operand ", i);
  // bwd(residuals, cts of the outputs) -> cts of the arguments
  std::vector<Atom> args(inputs.begin(), inputs.begin() + static_cast<long>(res));
  for (size_t j = 0; j < outs; ++j) args.push_back(cts[j] ? *cts[j] : zeros_like(b, inputs[res + j].aval));
  const std::vector<Atom> got = bwd.fn(b, args);
  const std::vector<Atom> tangents = tail(inputs, res + outs);
  check_rule_types("Custom VJP bwd rule " + bwd.name, got, tangents,
                   "an output for each argument of the primal function (a tuple)");
  std::vector<MaybeAtom> r(res + outs);
  for (const Atom& c : got) r.push_back(c);
  return r;
}

std::vector<Batched> Def<Prim::kCustomLin>::batch(Builder&, const Params&, const std::vector<Batched>&, int64_t) {
  fail_jvp_of_custom_vjp();
}

// Never batched nor run (it exists only to be transposed): its sample has no operands.
Sample Def<Prim::kCustomLin>::sample() {
  return {{}, {{"bwd", rule_named("bwd")}, {"num_outs", int64_t{0}}, {"num_res", int64_t{0}}, {"symbolic_zeros", false}}};
}

// custom_lin cannot run: it exists only to be transposed.
std::vector<Atom> Def<Prim::kCustomLin>::lower(Builder&, const Params&, const std::vector<Atom>&) {
  fail_jvp_of_custom_vjp();
}

bool has_custom_lin(const Program& p) {
  for (const Eqn& e : p.eqns) {
    if (e.prim == Prim::kCustomLin) return true;
    for (const Program* q : subprograms(e))
      if (has_custom_lin(*q)) return true;
  }
  return false;
}

}  // namespace shardlab::ir
