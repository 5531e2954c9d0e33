#include "ir/primitives/control_flow.h"

#include <algorithm>

#include "ir/primitives/parallel.h"
#include "ir/transforms/batching.h"
#include "ir/tracing/builder.h"
#include "ir/transforms/dce.h"
#include "ir/transforms/jvp.h"
#include "ir/transforms/lower.h"
#include "ir/transforms/partition.h"
#include "ir/transforms/partial_eval.h"
#include "ir/tracing/ops.h"
#include "ir/transforms/vjp.h"
#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

// Whether every axis of `a` is in `b` (both sorted).
bool vma_within(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  for (const std::string& x : a)
    if (std::find(b.begin(), b.end(), x) == b.end()) return false;
  return true;
}

// `index` clamped to 0..n-1 (an int32 scalar or array).
Atom clamped(Builder& b, const Atom& index, size_t n) {
  const Atom lo = Atom::constant(0, DType::kInt32), hi = Atom::constant(static_cast<double>(n - 1), DType::kInt32);
  return min(b, max(b, index, lo), hi);
}

// `ct` in the type `like` (a cotangent varying along fewer manual axes than
// the carry it becomes is pvary'd to them), or zeros of it when there is none.
Atom ct_or_zeros(Builder& b, const MaybeAtom& ct, const Aval& like) {
  return ct ? vary_along(b, *ct, like.vma) : zeros_like(b, like);
}

// An atom carrying only a type (what batched_body reads of its operands' values).
Atom typed(const Aval& a) { return Atom{-1, 0.0, a, 0}; }

}  // namespace

bool holds(const Program& p, Prim prim) {
  for (const Eqn& e : p.eqns) {
    if (e.prim == prim) return true;
    for (const Program* q : subprograms(e))
      if (holds(*q, prim)) return true;
  }
  return false;
}

const char* first_collective(const Program& p) {
  for (const Eqn& e : p.eqns) {
    if (primitive(e.prim).collective) return primitive(e.prim).name;
    for (const Program* q : subprograms(e))
      if (const char* found = first_collective(*q)) return found;
  }
  return nullptr;
}

// cond

std::vector<Aval> Def<Prim::kCond>::shape(const Params& p, const std::vector<Aval>& in) {
  const Programs& branches = param<Programs>(p, "branches", kName);
  if (branches.empty()) fail(ErrorKind::kValue, kName, ": needs at least one branch");
  if (in.empty() || in[0].dtype != DType::kInt32 || !in[0].shape.empty())
    fail(ErrorKind::kShape, kName, ": the branch index must be an int32 scalar, got ",
         in.empty() ? std::string("nothing") : in[0].str());
  const std::vector<Atom>& first = branches[0]->outvars;
  for (size_t k = 0; k < branches.size(); ++k) {
    const Program& br = *branches[k];
    if (br.invars.size() != in.size() - 1)
      fail(ErrorKind::kValue, kName, ": branch ", k, " takes ", br.invars.size(), " operands, got ", in.size() - 1);
    for (size_t i = 0; i + 1 < in.size(); ++i)
      if (!same_type(in[i + 1], br.avals[br.invars[i]]))
        fail(ErrorKind::kShape, kName, ": branch ", k, " takes ", br.avals[br.invars[i]].str(), " as operand ", i,
             ", got ", in[i + 1].str());
    bool same = br.outvars.size() == first.size();
    for (size_t j = 0; same && j < first.size(); ++j) same = same_type(br.outvars[j].aval, first[j].aval);
    if (!same)
      fail(ErrorKind::kShape, "branches of cond must have identical output types, got branch 0 ", types_str(first),
           " and branch ", k, " ", types_str(br.outvars));
    if (!in[0].vma.empty())
      if (const char* c = first_collective(br))
        fail(ErrorKind::kVma, kName, ": the branch index varies across devices along ", param_str(in[0].vma),
             ", but branch ", k, " performs ", c,
             ": devices taking different branches would disagree on it. Make the predicate the same on every "
             "device (e.g. from a psum or pmax over those axes), or move the collective out of the branch.");
  }
  std::vector<Aval> out;
  for (size_t j = 0; j < first.size(); ++j) {
    Aval a = first[j].aval;
    // The branches' outputs joined; the index's axes are not added, as JAX
    // 0.11 types cond (its test_cond_rep_rule: a predicate varying along 'y'
    // allows out_specs P('x')).
    for (const ProgramRef& br : branches) a.vma = vma_union(a.vma, br->outvars[j].aval.vma);
    // Weak where every branch's result is (JAX joins the branches' types).
    for (const ProgramRef& br : branches) a.weak = a.weak && br->outvars[j].aval.weak;
    out.push_back(a);
  }
  return out;
}

std::vector<MaybeAtom> Def<Prim::kCond>::jvp(Builder& b, const Params& p, const std::vector<Atom>& xs,
                                            const std::vector<Atom>& ys, const std::vector<MaybeAtom>& ts) {
  std::vector<bool> wrt;
  std::vector<Atom> args = xs;
  for (size_t i = 1; i < xs.size(); ++i) {
    wrt.push_back(ts[i].has_value());
    if (ts[i]) args.push_back(*ts[i]);
  }
  if (args.size() == xs.size()) return std::vector<MaybeAtom>(ys.size());
  // Each branch's JVP, giving only the tangents (its primal outputs are the cond's own).
  Programs branches;
  for (const ProgramRef& br : param<Programs>(p, "branches", kName)) {
    Program j = dce(ir::jvp(*br, wrt), Effects::kDrop);  // its prints ran in the primal cond
    j.outvars.erase(j.outvars.begin(), j.outvars.begin() + static_cast<long>(ys.size()));
    branches.push_back(std::make_shared<const Program>(dce(j)));
  }
  const std::vector<Atom> dys = b.emit(Prim::kCond, {{"branches", branches}}, args);
  return std::vector<MaybeAtom>(dys.begin(), dys.end());
}

// The cond of the branches' transposes: its operands are the index, the
// non-linear operands and the cotangents of the outputs; each branch
// recomputes its non-linear part from them, then gives the cotangents of the
// linear operands (zeros where it has none), so only the branch taken runs.
std::vector<MaybeAtom> Def<Prim::kCond>::transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& given,
                                                  const std::vector<Atom>& inputs, const std::vector<bool>& linear) {
  if (linear[0]) fail(ErrorKind::kValue, kName, ": is not linear in its branch index");
  const Programs& branches = param<Programs>(p, "branches", kName);
  std::vector<MaybeAtom> cts = given;
  cts.resize(branches[0]->outvars.size());  // a missing cotangent is a zero
  std::vector<Atom> ops{inputs[0]};
  for (size_t i = 1; i < inputs.size(); ++i)
    if (!linear[i]) ops.push_back(inputs[i]);
  for (const MaybeAtom& ct : cts)
    if (ct) ops.push_back(*ct);
  const std::vector<bool> lin(linear.begin() + 1, linear.end());
  Programs transposed;
  for (const ProgramRef& br : branches) {
    Builder tb(br->scope, nullptr);
    std::vector<Atom> args(br->invars.size());
    for (size_t i = 0; i < args.size(); ++i)
      args[i] = lin[i] ? typed(inputs[i + 1].aval) : tb.input(br->avals[br->invars[i]]);
    std::vector<MaybeAtom> body_cts;
    for (const MaybeAtom& ct : cts) body_cts.push_back(ct ? MaybeAtom(tb.input(ct->aval)) : std::nullopt);
    const Transposed t = emit_transpose(tb, *br, lin, args, body_cts);
    std::vector<Atom> outs;
    for (size_t i = 0; i < lin.size(); ++i)
      if (lin[i]) outs.push_back(ct_or_zeros(tb, t.cts[i], inputs[i + 1].aval));
    transposed.push_back(std::make_shared<const Program>(dce(tb.build(outs))));
  }
  const std::vector<Atom> r = b.emit(Prim::kCond, {{"branches", transposed}}, ops);
  std::vector<MaybeAtom> out(inputs.size());
  for (size_t i = 1, k = 0; i < inputs.size(); ++i)
    if (linear[i]) out[i] = r[k++];
  return out;
}

std::vector<Batched> Def<Prim::kCond>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                            int64_t size) {
  const Programs& branches = param<Programs>(p, "branches", kName);
  const std::vector<Batched> ops = batch_dims_leading(b, std::vector<Batched>(in.begin() + 1, in.end()), size);
  if (!in[0].batched()) {
    Programs nb;
    for (const ProgramRef& br : branches) nb.push_back(batched_body(b.scope(), *br, ops, size));
    std::vector<Atom> args{in[0].value};
    for (const Batched& x : ops) args.push_back(x.value);
    return batched_at(b.emit(Prim::kCond, {{"branches", nb}}, args), 0);
  }
  // A batched index: every branch on the whole batch, then per example the
  // chosen branch's result (JAX turns the cond into a select the same way).
  // Branch i sees an example's operands through select(index == i, x,
  // stop_gradient(x)): the branches an example does not take get no
  // cotangent through its operands, so a derivative that is inf or nan there
  // (sqrt at 0 in the untaken branch) cannot leak into the taken one's
  // (JAX's cond batching rule, its issue 1052).
  const Atom index = clamped(b, move_batch_dim(b, in[0], 0, size), branches.size());
  std::vector<Atom> whole;
  for (const Batched& o : ops) whole.push_back(move_batch_dim(b, o, 0, size));
  std::vector<std::vector<Atom>> outs;
  for (size_t i = 0; i < branches.size(); ++i) {
    const Atom taken = compare(b, Prim::kEq, index, Atom::constant(static_cast<double>(i), index.aval.dtype));
    std::vector<Batched> guarded;
    for (const Atom& x : whole) {
      const Atom frozen = b.emit1(Prim::kStopGradient, {}, {x});
      guarded.push_back(Batched{select_n(b, broadcast_in_dim(b, taken, x.aval.shape, {0}), {frozen, x}), 0});
    }
    std::vector<Atom> r;
    for (const Batched& o : batch_program(b, *branches[i], guarded, size)) r.push_back(move_batch_dim(b, o, 0, size));
    outs.push_back(r);
  }
  std::vector<Atom> result;
  for (size_t j = 0; j < outs[0].size(); ++j) {
    std::vector<Atom> cases;
    for (const auto& o : outs) cases.push_back(o[j]);
    result.push_back(select_n(b, broadcast_in_dim(b, index, cases[0].aval.shape, {0}), cases));
  }
  return batched_at(result, 0);
}

// A cond runs as a branch (exec/cond_branch.h), its branches lowered; one
// whose branches hold a shard_map runs them all and selects (the executors
// run a shard_map only at the top of a program).
std::vector<Atom> Def<Prim::kCond>::lower(Builder& b, const Params& p, const std::vector<Atom>& in) {
  const Programs& branches = param<Programs>(p, "branches", kName);
  const std::vector<Atom> ops(in.begin() + 1, in.end());
  const bool inline_all =
      std::any_of(branches.begin(), branches.end(), [](const ProgramRef& br) { return holds(*br, Prim::kShardMap); });
  if (!inline_all) {
    Programs lowered;
    for (const ProgramRef& br : branches) lowered.push_back(ir::lower(br));
    return b.emit(Prim::kCond, {{"branches", lowered}}, in);
  }
  if (branches.size() == 1) return emit_lowered(b, *branches[0], ops);
  std::vector<std::vector<Atom>> outs;
  for (const ProgramRef& br : branches) outs.push_back(emit_lowered(b, *br, ops));
  const Atom index = clamped(b, in[0], branches.size());
  std::vector<Atom> result;
  for (size_t j = 0; j < outs[0].size(); ++j) {
    std::vector<Atom> cases;
    for (const auto& o : outs) cases.push_back(o[j]);
    result.push_back(select_n(b, index, cases));
  }
  return result;
}

Sample Def<Prim::kCond>::sample() {
  // branches: x * 2, x + 1
  Programs branches;
  for (int k = 0; k < 2; ++k) {
    Builder b;
    const Atom x = b.input(samples::f32({2, 3}));
    branches.push_back(std::make_shared<const Program>(b.build({k ? add(b, x, f32_scalar(1)) : mul(b, x, f32_scalar(2))})));
  }
  return {{samples::i32({}), samples::f32({2, 3})}, {{"branches", branches}}};
}

// scan

Params scan_params(ProgramRef body, int64_t length, int64_t num_carry, int64_t num_consts, bool reverse) {
  const auto nxs = static_cast<int64_t>(body->invars.size()) - num_consts - num_carry;
  const auto nys = static_cast<int64_t>(body->outvars.size()) - num_carry;
  return {{"ft_in", std::vector<int64_t>{num_consts, num_carry, nxs}},
          {"ft_out", std::vector<int64_t>{num_carry, nys}},
          {"jaxpr", std::move(body)},
          {"length", length},
          {"reverse", reverse},
          {"unroll", int64_t{1}}};
}

namespace {

struct ScanParams {
  const Program& body;
  int64_t length;
  size_t num_carry, num_consts;
  bool reverse;
};
// A scan's params read: ft_in = (consts, carries, xs) and ft_out = (carries,
// ys) must count the body's inputs and outputs.
ScanParams scan_of(const Params& p) {
  const char* n = Def<Prim::kScan>::kName;
  const Program& body = *param<ProgramRef>(p, "jaxpr", n);
  const auto& in = param<std::vector<int64_t>>(p, "ft_in", n);
  const auto& out = param<std::vector<int64_t>>(p, "ft_out", n);
  const bool counts = in.size() == 3 && out.size() == 2 && std::all_of(in.begin(), in.end(), [](int64_t k) { return k >= 0; }) &&
                      out[0] == in[1] && out[1] >= 0 &&
                      static_cast<size_t>(in[0] + in[1] + in[2]) == body.invars.size() &&
                      static_cast<size_t>(out[0] + out[1]) == body.outvars.size();
  if (!counts)
    fail(ErrorKind::kValue, n, ": ft_in ", param_str(in), " (consts, carries, xs) and ft_out ", param_str(out),
         " (carries, ys) must count the body's ", body.invars.size(), " inputs and ", body.outvars.size(), " outputs");
  return {body, param<int64_t>(p, "length", n), static_cast<size_t>(in[1]), static_cast<size_t>(in[0]),
          param<bool>(p, "reverse", n)};
}

}  // namespace

std::vector<Aval> Def<Prim::kScan>::shape(const Params& p, const std::vector<Aval>& in) {
  const ScanParams s = scan_of(p);
  const Program& body = s.body;
  const size_t fixed = s.num_consts + s.num_carry;
  if (s.length < 0) fail(ErrorKind::kValue, kName, ": length must be at least 0, got ", s.length);
  if (in.size() < fixed || body.invars.size() != in.size())
    fail(ErrorKind::kValue, kName, ": ", in.size(), " operands for a body of ", body.invars.size(), " inputs (",
         s.num_consts, " consts, ", s.num_carry, " carries)");
  for (size_t i = 0; i < in.size(); ++i) {
    Aval want = in[i];
    if (i >= fixed) {
      if (in[i].shape.empty() || in[i].shape[0] != s.length)
        fail(ErrorKind::kShape, kName, ": scanned-over operand ", i - fixed, " is ", in[i].str(),
             ", whose leading axis must have the scan's length ", s.length);
      want.shape.erase(want.shape.begin());
    }
    if (!same_type(want, body.avals[body.invars[i]]))
      fail(ErrorKind::kShape, kName, ": the body takes ", body.avals[body.invars[i]].str(), " as input ", i, ", got ",
           want.str());
  }
  if (body.outvars.size() < s.num_carry)
    fail(ErrorKind::kValue, kName, ": the body returns ", body.outvars.size(), " values, fewer than its ", s.num_carry,
         " carries");
  std::vector<Aval> out;
  for (size_t i = 0; i < s.num_carry; ++i) {
    const Aval& carry_in = body.avals[body.invars[s.num_consts + i]];
    const Aval& carry_out = body.outvars[i].aval;
    if (!same_type(carry_in, carry_out))
      fail(ErrorKind::kShape, "scan body function carry input and carry output must have equal types, but carry ", i,
           " is ", carry_in.str(), " as input and ", carry_out.str(), " as output");
    if (!vma_within(carry_out.vma, carry_in.vma))
      fail(ErrorKind::kShape, "scan body function carry input and carry output must have equal types: carry ", i,
           " is ", carry_in.str(), " as input but ", carry_out.str(),
           " as output, so the varying manual axes do not match; make the initial carry varying with "
           "jax.lax.pcast(..., to='varying')");
    Aval carry = carry_in;
    carry.weak = carry_out.weak;  // the body's result type, as JAX's scan gives
    out.push_back(carry);
  }
  for (size_t j = s.num_carry; j < body.outvars.size(); ++j) {
    Aval y = body.outvars[j].aval;
    y.shape.insert(y.shape.begin(), s.length);
    out.push_back(y);
  }
  return out;
}

// The scan of the body's JVP, as JAX's rule: tangents only for the consts
// and xs given one and for the float carries given or made from one (a
// fixpoint over the steps), and ys tangents only where the body makes one.
std::vector<MaybeAtom> Def<Prim::kScan>::jvp(Builder& b, const Params& p, const std::vector<Atom>& xs,
                                            const std::vector<Atom>& ys, const std::vector<MaybeAtom>& ts) {
  const ScanParams s = scan_of(p);
  const size_t n = xs.size(), nc = s.num_consts, nk = s.num_carry, fixed = nc + nk, m = ys.size();
  std::vector<bool> nz(n);
  for (size_t i = 0; i < n; ++i) nz[i] = ts[i].has_value();
  std::vector<bool> dep;
  for (bool changed = true; changed;) {
    changed = false;
    dep = linear_outputs(s.body, nz);
    for (size_t j = 0; j < nk; ++j)
      if (!nz[nc + j] && dep[j] && is_float(xs[nc + j].aval.dtype)) nz[nc + j] = changed = true;
  }
  if (std::find(nz.begin(), nz.end(), true) == nz.end()) return std::vector<MaybeAtom>(m);
  // The body's JVP regrouped so that each value's tangent sits beside its
  // group: (consts, dconsts, carry, dcarry, x, dx) -> (carry, dcarry, y, dy).
  const Program jb = dce(ir::jvp(s.body, nz), Effects::kDrop);  // its prints ran in the primal scan
  Builder rb(s.body.scope, nullptr);
  std::vector<Atom> primal(n), tangent;
  std::vector<Atom> args;
  const auto group = [&](size_t from, size_t to) {
    for (size_t i = from; i < to; ++i) primal[i] = rb.input(jb.avals[jb.invars[i]]);
    for (size_t i = from; i < to; ++i)
      if (nz[i]) tangent.push_back(rb.input(jb.avals[jb.invars[n + tangent.size()]]));
    for (size_t i = from; i < to; ++i) args.push_back(xs[i]);
    for (size_t i = from; i < to; ++i)
      if (nz[i]) args.push_back(ts[i] ? *ts[i] : zeros_like(b, xs[i].aval));
  };
  group(0, nc);
  const size_t dconsts = tangent.size();
  group(nc, fixed);
  const size_t dcarry = tangent.size() - dconsts;
  group(fixed, n);
  std::vector<Atom> call_args = primal;
  call_args.insert(call_args.end(), tangent.begin(), tangent.end());
  const std::vector<Atom> o = rb.call(jb, call_args);
  std::vector<Atom> outs(o.begin(), o.begin() + static_cast<long>(nk));
  for (size_t j = 0; j < nk; ++j)
    if (nz[nc + j]) outs.push_back(o[m + j]);
  for (size_t j = nk; j < m; ++j) outs.push_back(o[j]);
  for (size_t j = nk; j < m; ++j)
    if (dep[j]) outs.push_back(o[m + j]);
  auto body = std::make_shared<const Program>(rb.build(outs));
  const std::vector<Atom> r = b.emit(Prim::kScan,
                                     scan_params(body, s.length, static_cast<int64_t>(nk + dcarry),
                                                 static_cast<int64_t>(nc + dconsts), s.reverse),
                                     args);
  std::vector<MaybeAtom> dys(m);
  size_t k = nk;
  for (size_t j = 0; j < nk; ++j)
    if (nz[nc + j]) dys[j] = r[k++];
  k += m - nk;  // the ys
  for (size_t j = nk; j < m; ++j)
    if (dep[j]) dys[j] = r[k++];
  return dys;
}

namespace {

// Per variable of a scan's body: whether it is loop-invariant, one of the
// known consts (the first `nc` inputs not marked `linear`) or computed from
// them and literals alone.
std::vector<bool> loop_invariant(const Program& body, const std::vector<bool>& linear, size_t nc) {
  std::vector<bool> inv(body.avals.size(), false);
  for (size_t i = 0; i < nc; ++i) inv[body.invars[i]] = !linear[i];
  for (const Eqn& e : body.eqns) {
    const bool all = std::all_of(e.inputs.begin(), e.inputs.end(), [&](const Atom& a) { return a.is_literal() || inv[a.var]; });
    for (VarId v : e.outputs) inv[v] = all;
  }
  return inv;
}

// The loop-invariant body variables `vars`, computed once into `b` from the
// scan's operands `inputs`: the equations making them, emitted outside the
// loop (they read only known consts, so the other inputs are never read).
std::vector<Atom> hoisted(Builder& b, const Program& body, const std::vector<Atom>& inputs, const std::vector<VarId>& vars) {
  Program making = body;
  making.outvars.clear();
  for (VarId v : vars) making.outvars.push_back(Atom::of(v, body.avals[v], 0));
  return b.call(dce(making, Effects::kDrop), inputs);  // recomputed: its prints ran with the primal
}

Aval stacked(Aval a, int64_t length) {
  a.shape.insert(a.shape.begin(), length);
  return a;
}

}  // namespace

// As JAX's scan transpose after its partial evaluation: the body splits
// (ir/transforms/partial_eval.h) into a non-linear part, run forward as a
// scan that stacks the residuals each step's linear part reads, and the
// linear part, transposed into a scan running the other way. That scan
// carries the cotangents of the linear carries (ct_carry_in = the body's
// transpose of ct_carry_out) and the sums of the linear consts' cotangents
// (ct_c = sum over steps), and gives each step's cotangent of the linear xs
// as its ys. Residuals that are the scan's own known consts or xs are passed
// to it as they are, not stacked again.
std::vector<MaybeAtom> Def<Prim::kScan>::transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& given,
                                                  const std::vector<Atom>& inputs, const std::vector<bool>& linear) {
  const ScanParams s = scan_of(p);
  const Program& body = s.body;
  const size_t nc = s.num_consts, nk = s.num_carry, fixed = nc + nk, n = inputs.size();
  std::vector<MaybeAtom> out(n), cts = given;
  cts.resize(body.outvars.size());  // a missing cotangent is a zero
  if (std::none_of(cts.begin(), cts.end(), [](const MaybeAtom& c) { return c.has_value(); })) return out;
  // A carry is linear when its initial value is, or when the body makes it
  // from a linear value (a tangent carry that starts as zeros).
  std::vector<bool> lin = linear;
  for (bool changed = true; changed;) {
    changed = false;
    const std::vector<bool> dep = linear_outputs(body, lin);
    for (size_t j = 0; j < nk; ++j)
      if (dep[j] && !lin[nc + j]) lin[nc + j] = changed = true;
  }
  std::vector<bool> instantiate(body.outvars.size(), false);
  for (size_t j = 0; j < nk; ++j) instantiate[j] = lin[nc + j];
  const PartialEval pe = partial_eval(body, lin, instantiate);

  // Each residual: loop-invariant (a known const of the scan, or computed
  // from them alone: computed once, here, and passed as a const), one of the
  // scan's known xs, or stacked by the forward scan.
  std::vector<int64_t> input_of(body.avals.size(), -1);
  for (size_t i = 0; i < n; ++i) input_of[body.invars[i]] = static_cast<int64_t>(i);
  const std::vector<bool> invariant = loop_invariant(body, lin, nc);
  std::vector<size_t> res_consts, res_xs, res_stacked;  // positions in pe.residuals
  std::vector<VarId> invariant_res;
  for (size_t k = 0; k < pe.residuals.size(); ++k) {
    const int64_t i = input_of[pe.residuals[k]];
    (invariant[pe.residuals[k]] ? res_consts : i >= 0 && static_cast<size_t>(i) >= fixed ? res_xs : res_stacked)
        .push_back(k);
    if (invariant[pe.residuals[k]]) invariant_res.push_back(pe.residuals[k]);
  }
  const std::vector<Atom> invariant_values = hoisted(b, body, inputs, invariant_res);
  const auto known = [&](size_t from, size_t to) {
    std::vector<Atom> xs;
    for (size_t i = from; i < to; ++i)
      if (!lin[i]) xs.push_back(inputs[i]);
    return xs;
  };
  const std::vector<Atom> known_consts = known(0, nc), known_carry = known(nc, fixed);
  std::vector<Atom> stacked_res;
  if (!res_stacked.empty()) {
    // The forward scan: known (consts, carries, xs) -> (known carries, stacked residuals).
    Program fwd = pe.known;
    const size_t known_outs = fwd.outvars.size() - pe.residuals.size();
    std::vector<Atom> outs(fwd.outvars.begin(), fwd.outvars.begin() + static_cast<long>(known_carry.size()));
    for (size_t k : res_stacked) outs.push_back(fwd.outvars[known_outs + k]);
    fwd.outvars = outs;
    std::vector<Atom> ops = known_consts;
    ops.insert(ops.end(), known_carry.begin(), known_carry.end());
    const std::vector<Atom> kx = known(fixed, n);
    ops.insert(ops.end(), kx.begin(), kx.end());
    const std::vector<Atom> r = b.emit(
        Prim::kScan,
        scan_params(std::make_shared<const Program>(dce(fwd, Effects::kDrop)), s.length, static_cast<int64_t>(known_carry.size()),
                    static_cast<int64_t>(known_consts.size()), s.reverse),
        ops);
    stacked_res.assign(r.begin() + static_cast<long>(known_carry.size()), r.end());
  }

  // The transposed scan: consts (residual consts), carries (a cotangent sum
  // per linear const, a cotangent per linear carry), xs (stacked residuals,
  // residual xs, cotangents of the linear ys) -> ys (cotangents of the linear xs).
  Builder tb(body.scope, nullptr);
  std::vector<Atom> res(pe.residuals.size()), ops;
  const auto res_aval = [&](size_t k) { return body.avals[pe.residuals[k]]; };
  for (size_t m = 0; m < res_consts.size(); ++m) {
    res[res_consts[m]] = tb.input(res_aval(res_consts[m]));
    ops.push_back(invariant_values[m]);
  }
  std::vector<size_t> lin_in;  // the linear inputs, in order: the unknown part's inputs after the residuals
  for (size_t i = 0; i < n; ++i)
    if (lin[i]) lin_in.push_back(i);
  std::vector<Atom> carry_ct;  // per linear const then linear carry: the body's carry
  for (size_t i : lin_in) {
    if (i >= fixed) continue;
    const Aval& a = inputs[i].aval;
    carry_ct.push_back(tb.input(a));
    ops.push_back(i < nc ? zeros_like(b, a) : ct_or_zeros(b, cts[i - nc], a));
  }
  for (size_t m = 0; m < res_stacked.size(); ++m) {
    res[res_stacked[m]] = tb.input(res_aval(res_stacked[m]));
    ops.push_back(stacked_res[m]);
  }
  for (size_t k : res_xs) {
    res[k] = tb.input(res_aval(k));
    ops.push_back(inputs[static_cast<size_t>(input_of[pe.residuals[k]])]);
  }
  std::vector<MaybeAtom> body_cts;  // per output of the unknown part
  const size_t nlc = static_cast<size_t>(std::count_if(lin_in.begin(), lin_in.end(), [&](size_t i) { return i < nc; }));
  for (size_t j = 0, c = nlc; j < nk; ++j)
    if (pe.out_unknown[j]) body_cts.push_back(carry_ct[c++]);
  for (size_t j = nk; j < body.outvars.size(); ++j) {
    if (!pe.out_unknown[j]) continue;
    const Aval y = body.outvars[j].aval;
    body_cts.push_back(tb.input(y));
    ops.push_back(ct_or_zeros(b, cts[j], stacked(y, s.length)));
  }
  std::vector<Atom> u_in = res;
  std::vector<bool> u_linear(res.size(), false);
  for (size_t i : lin_in) {
    u_in.push_back(typed(inputs[i].aval));
    u_linear.push_back(true);
  }
  const Transposed t = emit_transpose(tb, pe.unknown, u_linear, u_in, body_cts);
  std::vector<Atom> tb_outs;
  for (size_t m = 0; m < lin_in.size(); ++m) {
    const size_t i = lin_in[m];
    const MaybeAtom& ct = t.cts[res.size() + m];
    if (i < nc) {
      const Atom& sum = carry_ct[tb_outs.size()];
      tb_outs.push_back(ct ? add_any(tb, sum, vary_along(tb, *ct, sum.aval.vma)) : sum);
    } else if (i < fixed) {
      tb_outs.push_back(ct_or_zeros(tb, ct, inputs[i].aval));
    }
  }
  for (size_t m = 0; m < lin_in.size(); ++m) {
    const size_t i = lin_in[m];
    if (i < fixed) continue;
    const Aval row = body.avals[body.invars[i]];
    tb_outs.push_back(ct_or_zeros(tb, t.cts[res.size() + m], row));
  }
  const std::vector<Atom> r = b.emit(
      Prim::kScan,
      scan_params(std::make_shared<const Program>(dce(tb.build(tb_outs))), s.length,
                  static_cast<int64_t>(carry_ct.size()), static_cast<int64_t>(res_consts.size()), !s.reverse),
      ops);
  for (size_t m = 0; m < lin_in.size(); ++m)
    if (linear[lin_in[m]]) out[lin_in[m]] = r[m];
  return out;
}

std::vector<Batched> Def<Prim::kScan>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                            int64_t size) {
  const ScanParams s = scan_of(p);
  const size_t fixed = s.num_consts + s.num_carry;
  // consts as they are (batched ones along 0), every carry along 0, xs along 1 (the body sees them along 0).
  std::vector<Atom> args;
  std::vector<Batched> body_in;
  for (size_t i = 0; i < in.size(); ++i) {
    const bool carry = i >= s.num_consts && i < fixed, is_x = i >= fixed;
    const bool batched = in[i].batched() || carry;
    const Atom v = batched ? move_batch_dim(b, in[i], is_x ? 1 : 0, size) : in[i].value;
    args.push_back(v);
    Aval a = v.aval;
    if (is_x) a.shape.erase(a.shape.begin());
    body_in.push_back(Batched{typed(a), batched ? 0 : kNotBatched});
  }
  const ProgramRef body = batched_body(b.scope(), s.body, body_in, size);
  const std::vector<Atom> r = b.emit(Prim::kScan, with_param(p, "jaxpr", body), args);
  std::vector<Batched> out;
  for (size_t j = 0; j < r.size(); ++j) out.push_back(Batched{r[j], j < s.num_carry ? 0 : 1});
  return out;
}

namespace {

// Row i of x (its leading dimension dropped).
Atom row(Builder& b, const Atom& x, int64_t i) {
  std::vector<int64_t> start(x.aval.shape.size(), 0), limit(x.aval.shape.begin(), x.aval.shape.end()),
      strides(x.aval.shape.size(), 1);
  start[0] = i;
  limit[0] = i + 1;
  return reshape(b, slice(b, x, start, limit, strides), Shape(x.aval.shape.begin() + 1, x.aval.shape.end()));
}

// A scan unrolled: one whose body holds a shard_map (the executors run a
// shard_map only at the top of a program, not inside a while's body), or of
// no steps (its carries as given, its ys empty).
std::vector<Atom> unrolled_scan(Builder& b, const ScanParams& s, const std::vector<Atom>& in) {
  constexpr double kMaxUnrolled = 1 << 20;
  if (static_cast<double>(s.length) * static_cast<double>(s.body.eqns.size() + 1) > kMaxUnrolled)
    fail(ErrorKind::kResource, "scan: a loop of ", s.length, " steps over a body of ", s.body.eqns.size(),
         " equations holding a shard_map; ShardLab runs such a loop unrolled, at most ",
         static_cast<int64_t>(kMaxUnrolled), " equations in all");
  const size_t fixed = s.num_consts + s.num_carry;
  std::vector<Atom> carry(in.begin() + static_cast<long>(s.num_consts), in.begin() + static_cast<long>(fixed));
  const size_t ny = s.body.outvars.size() - s.num_carry;
  std::vector<std::vector<Atom>> ys(ny, std::vector<Atom>(static_cast<size_t>(s.length)));
  for (int64_t step = 0; step < s.length; ++step) {
    const int64_t i = s.reverse ? s.length - 1 - step : step;
    std::vector<Atom> args(in.begin(), in.begin() + static_cast<long>(s.num_consts));
    args.insert(args.end(), carry.begin(), carry.end());
    for (size_t k = fixed; k < in.size(); ++k) args.push_back(row(b, in[k], i));
    const std::vector<Atom> outs = emit_lowered(b, s.body, args);
    carry.assign(outs.begin(), outs.begin() + static_cast<long>(s.num_carry));
    for (size_t j = 0; j < ny; ++j) ys[j][static_cast<size_t>(i)] = outs[s.num_carry + j];
  }
  std::vector<Atom> result = carry;
  for (size_t j = 0; j < ny; ++j) {
    Aval y = s.body.outvars[s.num_carry + j].aval;
    y.shape.insert(y.shape.begin(), s.length);
    if (s.length == 0) {
      result.push_back(zeros_like(b, y));
      continue;
    }
    std::vector<Atom> rows;
    for (const Atom& r : ys[j]) rows.push_back(expand_dims(b, r, {0}));
    result.push_back(rows.size() == 1 ? rows[0] : concatenate(b, rows, 0));
  }
  return result;
}

// The start indices of row `i` of an array of rank `rank` (i, 0, 0, ...).
std::vector<Atom> row_start(const Atom& i, size_t rank) {
  std::vector<Atom> start(rank, Atom::constant(0, DType::kInt32));
  start[0] = i;
  return start;
}

}  // namespace

// As XLA runs a scan: a while over a step counter i whose body reads row i of
// each xs (a dynamic_slice), runs the scan's body, and writes its ys into row
// i of buffers carried through the loop (a dynamic_update_slice, done in
// place by the executors). The program stays the size of the body.
std::vector<Atom> Def<Prim::kScan>::lower(Builder& b, const Params& p, const std::vector<Atom>& in) {
  const ScanParams s = scan_of(p);
  // No steps (the body is never run, and has no row to read) or a shard_map inside: unrolled.
  if (s.length == 0 || holds(s.body, Prim::kShardMap)) return unrolled_scan(b, s, in);
  const size_t fixed = s.num_consts + s.num_carry, nxs = in.size() - fixed, ny = s.body.outvars.size() - s.num_carry;
  const Aval counter{DType::kInt32, {}, {}, false};
  // Operands: body consts (consts, xs), then carries (i, carry, ys).
  std::vector<Atom> ops(in.begin(), in.begin() + static_cast<long>(s.num_consts));
  ops.insert(ops.end(), in.begin() + static_cast<long>(fixed), in.end());
  ops.push_back(Atom::constant(0, DType::kInt32));
  ops.insert(ops.end(), in.begin() + static_cast<long>(s.num_consts), in.begin() + static_cast<long>(fixed));
  std::vector<Aval> ys;
  for (size_t j = 0; j < ny; ++j) {
    Aval y = s.body.outvars[s.num_carry + j].aval;
    y.shape.insert(y.shape.begin(), s.length);
    ys.push_back(y);
    ops.push_back(zeros_like(b, y));
  }
  const auto carry_avals = [&] {
    std::vector<Aval> avals{counter};
    for (size_t k = s.num_consts; k < fixed; ++k) avals.push_back(in[k].aval);
    avals.insert(avals.end(), ys.begin(), ys.end());
    return avals;
  }();
  // cond(i, carry, ys) = i < length
  Builder cb(b.scope(), nullptr);
  std::vector<Atom> cargs;
  for (const Aval& a : carry_avals) cargs.push_back(cb.input(a));
  auto cond = std::make_shared<const Program>(
      cb.build({compare(cb, Prim::kLt, cargs[0], Atom::constant(static_cast<double>(s.length), DType::kInt32))}));
  // body(consts, xs, i, carry, ys): one step at row i (length - 1 - i when reverse)
  Builder bb(b.scope(), nullptr);
  std::vector<Atom> consts, xs, carries;
  for (size_t k = 0; k < s.num_consts; ++k) consts.push_back(bb.input(in[k].aval));
  for (size_t k = fixed; k < in.size(); ++k) xs.push_back(bb.input(in[k].aval));
  for (const Aval& a : carry_avals) carries.push_back(bb.input(a));
  const Atom i = carries[0];
  const Atom at = s.reverse ? sub(bb, Atom::constant(static_cast<double>(s.length - 1), DType::kInt32), i) : i;
  std::vector<Atom> args = consts;
  args.insert(args.end(), carries.begin() + 1, carries.begin() + 1 + static_cast<long>(s.num_carry));
  for (const Atom& x : xs) {
    Shape one = x.aval.shape;
    one[0] = 1;
    args.push_back(reshape(bb, dynamic_slice(bb, x, row_start(at, one.size()), one),
                           Shape(one.begin() + 1, one.end())));
  }
  const std::vector<Atom> outs = emit_lowered(bb, s.body, args);
  std::vector<Atom> next{add(bb, i, Atom::constant(1, DType::kInt32))};
  next.insert(next.end(), outs.begin(), outs.begin() + static_cast<long>(s.num_carry));
  for (size_t j = 0; j < ny; ++j) {
    const Atom& buffer = carries[1 + s.num_carry + j];
    Shape one = buffer.aval.shape;
    one[0] = 1;
    next.push_back(dynamic_update_slice(bb, buffer, reshape(bb, outs[s.num_carry + j], one), row_start(at, one.size())));
  }
  auto body = std::make_shared<const Program>(bb.build(next));
  const std::vector<Atom> r =
      b.emit(Prim::kWhile, while_params(cond, 0, body, static_cast<int64_t>(s.num_consts + nxs)), ops);
  return std::vector<Atom>(r.begin() + 1, r.end());
}

Sample Def<Prim::kScan>::sample() {
  // body(k, c, x) = (c * k + x, c * k + x + 1)
  Builder b;
  const Atom k = b.input(samples::f32({3})), c = b.input(samples::f32({3})), x = b.input(samples::f32({3}));
  const Atom next = add(b, mul(b, c, k), x);
  auto body = std::make_shared<const Program>(b.build({next, add(b, next, f32_scalar(1))}));
  return {{samples::f32({3}), samples::f32({3}), samples::f32({4, 3})}, scan_params(body, 4, 1, 1, false)};
}

// while

Params while_params(ProgramRef cond, int64_t cond_nconsts, ProgramRef body, int64_t body_nconsts) {
  return {{"body_jaxpr", std::move(body)},
          {"body_nconsts", body_nconsts},
          {"cond_jaxpr", std::move(cond)},
          {"cond_nconsts", cond_nconsts}};
}

WhileParts while_parts(const Params& p, size_t num_operands) {
  const char* n = Def<Prim::kWhile>::kName;
  const int64_t cn = param<int64_t>(p, "cond_nconsts", n), bn = param<int64_t>(p, "body_nconsts", n);
  if (cn < 0 || bn < 0 || static_cast<uint64_t>(cn) > num_operands ||
      static_cast<uint64_t>(bn) > num_operands - static_cast<uint64_t>(cn))
    fail(ErrorKind::kValue, n, ": cond_nconsts=", cn, " and body_nconsts=", bn, " do not fit its ", num_operands,
         " operands");
  return {*param<ProgramRef>(p, "cond_jaxpr", n), *param<ProgramRef>(p, "body_jaxpr", n), static_cast<size_t>(cn),
          static_cast<size_t>(bn), num_operands - static_cast<size_t>(cn + bn)};
}

namespace {

// Checks that `prog` (a while's cond or body) takes `consts` then the carries `carry`.
void check_inputs(const Program& prog, const char* what, const std::vector<Aval>& consts,
                  const std::vector<Aval>& carry) {
  if (prog.invars.size() != consts.size() + carry.size())
    fail(ErrorKind::kValue, "while: ", what, " takes ", prog.invars.size(), " inputs, but the loop gives it ",
         consts.size(), " consts and ", carry.size(), " carries");
  for (size_t i = 0; i < prog.invars.size(); ++i) {
    const Aval& got = i < consts.size() ? consts[i] : carry[i - consts.size()];
    if (!same_type(got, prog.avals[prog.invars[i]]))
      fail(ErrorKind::kShape, "while: ", what, " takes ", prog.avals[prog.invars[i]].str(), " as input ", i,
           ", got ", got.str());
  }
}

}  // namespace

std::vector<Aval> Def<Prim::kWhile>::shape(const Params& p, const std::vector<Aval>& in) {
  const WhileParts w = while_parts(p, in.size());
  const auto at = [&](size_t from, size_t n) {
    return std::vector<Aval>(in.begin() + static_cast<long>(from), in.begin() + static_cast<long>(from + n));
  };
  const std::vector<Aval> carry = at(w.cond_nconsts + w.body_nconsts, w.num_carry);
  check_inputs(w.cond, "cond_jaxpr", at(0, w.cond_nconsts), carry);
  check_inputs(w.body, "body_jaxpr", at(w.cond_nconsts, w.body_nconsts), carry);
  if (w.cond.outvars.size() != 1 || w.cond.outvars[0].aval.dtype != DType::kBool ||
      !w.cond.outvars[0].aval.shape.empty()) {
    std::string got;
    for (const Atom& a : w.cond.outvars) got += (got.empty() ? "" : ", ") + a.aval.str();
    fail(ErrorKind::kShape, "cond_fun must return a boolean scalar, but got output type(s) [", got, "].");
  }
  if (w.body.outvars.size() != w.num_carry)
    fail(ErrorKind::kValue, "while: body_jaxpr returns ", w.body.outvars.size(), " values for ", w.num_carry,
         " carries");
  for (size_t i = 0; i < w.num_carry; ++i) {
    const Aval& out = w.body.outvars[i].aval;
    if (!same_type(carry[i], out))
      fail(ErrorKind::kShape, "while_loop body function carry input and carry output must have equal types, but "
           "carry ", i, " is ", carry[i].str(), " as input and ", out.str(), " as output");
    if (!vma_within(out.vma, carry[i].vma))
      fail(ErrorKind::kShape, "while_loop body function carry input and carry output must have equal types: carry ", i,
           " is ", carry[i].str(), " as input but ", out.str(),
           " as output, so the varying manual axes do not match; make the initial carry varying with "
           "jax.lax.pcast(..., to='varying')");
  }
  const std::vector<std::string>& pred_vma = w.cond.outvars[0].aval.vma;
  if (!pred_vma.empty()) {
    const char* c = first_collective(w.cond);
    if (!c) c = first_collective(w.body);
    if (c)
      fail(ErrorKind::kVma, "while_loop: the predicate varies across devices along ", param_str(pred_vma),
           ", but the loop performs ", c,
           ": devices would disagree on how many times to meet. Make the predicate the same on every device (e.g. "
           "from a psum or pmax over those axes), or move the collective out of the loop.");
  }
  if (holds(w.cond, Prim::kShardMap) || holds(w.body, Prim::kShardMap))
    fail(ErrorKind::kValue, "while_loop: a shard_map inside a while_loop is not supported by ShardLab; put the loop "
         "inside the shard_map body instead");
  std::vector<Aval> out = carry;
  for (size_t i = 0; i < out.size(); ++i) out[i].weak = w.body.outvars[i].aval.weak;  // the body's result type
  return out;
}

std::vector<MaybeAtom> Def<Prim::kWhile>::jvp(Builder& b, const Params& p, const std::vector<Atom>& xs,
                                             const std::vector<Atom>& ys, const std::vector<MaybeAtom>& ts) {
  const WhileParts w = while_parts(p, xs.size());
  const size_t first = w.cond_nconsts, m = w.body.invars.size();  // the body's inputs are xs[first..)
  // Which body inputs carry a tangent: the body consts given one, and the
  // float carries given one or made from one (a fixpoint over the
  // iterations, as JAX's rule; int and bool carries have none).
  std::vector<bool> nz(m);
  for (size_t i = 0; i < m; ++i) nz[i] = ts[first + i].has_value();
  for (bool changed = true; changed;) {
    changed = false;
    // The outputs that depend on a marked input (a superset of those with a nonzero derivative).
    const std::vector<bool> dep = linear_outputs(w.body, nz);
    for (size_t j = 0; j < w.num_carry; ++j) {
      const size_t i = w.body_nconsts + j;
      if (!nz[i] && dep[j] && is_float(xs[first + i].aval.dtype)) nz[i] = changed = true;
    }
  }
  if (std::find(nz.begin(), nz.end(), true) == nz.end()) return std::vector<MaybeAtom>(ys.size());
  // The body's JVP regrouped as (consts, dconsts, carry, dcarry) -> (carry, dcarry), for the marked ones.
  const Program jb = dce(ir::jvp(w.body, nz), Effects::kDrop);  // its prints ran in the primal loop
  Builder rb(w.body.scope, nullptr);
  std::vector<Atom> primal(m), tangent;
  auto inputs = [&](size_t from, size_t to) {
    for (size_t i = from; i < to; ++i) primal[i] = rb.input(jb.avals[jb.invars[i]]);
    for (size_t i = from; i < to; ++i)
      if (nz[i]) tangent.push_back(rb.input(jb.avals[jb.invars[m + tangent.size()]]));
  };
  inputs(0, w.body_nconsts);
  const size_t dconsts = tangent.size();
  inputs(w.body_nconsts, m);
  std::vector<Atom> call_args = primal;
  call_args.insert(call_args.end(), tangent.begin(), tangent.end());
  const std::vector<Atom> o = rb.call(jb, call_args);
  std::vector<Atom> outs(o.begin(), o.begin() + static_cast<long>(w.num_carry));
  for (size_t j = 0; j < w.num_carry; ++j)
    if (nz[w.body_nconsts + j]) outs.push_back(o[w.num_carry + j]);
  auto body = std::make_shared<const Program>(rb.build(outs));
  // The cond reads the primal carries and ignores their tangents.
  Builder cb(w.cond.scope, nullptr);
  std::vector<Atom> cond_args;
  for (VarId v : w.cond.invars) cond_args.push_back(cb.input(w.cond.avals[v]));
  for (size_t j = 0; j < w.num_carry; ++j)
    if (nz[w.body_nconsts + j]) cb.input(w.cond.avals[w.cond.invars[w.cond_nconsts + j]]);
  auto cond = std::make_shared<const Program>(cb.build(cb.call(w.cond, cond_args)));

  std::vector<Atom> args(xs.begin(), xs.begin() + static_cast<long>(first));
  auto operands = [&](size_t from, size_t to) {
    for (size_t i = from; i < to; ++i) args.push_back(xs[first + i]);
    for (size_t i = from; i < to; ++i)
      if (nz[i]) args.push_back(ts[first + i] ? *ts[first + i] : zeros_like(b, xs[first + i].aval));
  };
  operands(0, w.body_nconsts);
  operands(w.body_nconsts, m);
  const std::vector<Atom> r = b.emit(
      Prim::kWhile,
      while_params(cond, static_cast<int64_t>(w.cond_nconsts), body, static_cast<int64_t>(w.body_nconsts + dconsts)),
      args);
  std::vector<MaybeAtom> dys(ys.size());
  for (size_t j = 0, k = w.num_carry; j < w.num_carry; ++j)
    if (nz[w.body_nconsts + j]) dys[j] = r[k++];
  return dys;
}

std::vector<MaybeAtom> Def<Prim::kWhile>::transpose(Builder&, const Params&, const std::vector<MaybeAtom>&,
                                                   const std::vector<Atom>&, const std::vector<bool>&) {
  fail(ErrorKind::kValue,
       "Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with dynamic start/stop "
       "values. Try using lax.scan, or using fori_loop with static start/stop.");
}

// Under vmap every carry is batched (each example runs until its own
// predicate fails, its carry frozen by a select after that), except a
// read-only one: unbatched on entry and returned unchanged by the body, it
// keeps its one value (JAX's read-only carry optimization).
std::vector<Batched> Def<Prim::kWhile>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                             int64_t size) {
  const WhileParts w = while_parts(p, in.size());
  const size_t carry0 = w.cond_nconsts + w.body_nconsts;
  std::vector<bool> readonly(w.num_carry);
  for (size_t i = 0; i < w.num_carry; ++i) {
    const Atom& out = w.body.outvars[i];
    readonly[i] = !in[carry0 + i].batched() && !out.is_literal() && out.var == w.body.invars[w.body_nconsts + i];
  }
  // Consts as they are (batched ones along 0), carries along 0 but the read-only ones.
  std::vector<Atom> args;
  std::vector<Batched> typed_in;
  for (size_t i = 0; i < in.size(); ++i) {
    const bool batched = in[i].batched() || (i >= carry0 && !readonly[i - carry0]);
    const Atom v = batched ? move_batch_dim(b, in[i], 0, size) : in[i].value;
    args.push_back(v);
    typed_in.push_back(Batched{typed(v.aval), batched ? 0 : kNotBatched});
  }
  const auto part = [&](size_t from, size_t n) {
    return std::vector<Batched>(typed_in.begin() + static_cast<long>(from),
                                typed_in.begin() + static_cast<long>(from + n));
  };
  const std::vector<Batched> cconsts = part(0, w.cond_nconsts), bconsts = part(w.cond_nconsts, w.body_nconsts),
                             carry = part(carry0, w.num_carry);
  const auto with_dims = [](const std::vector<Atom>& xs, const std::vector<Batched>& like) {
    std::vector<Batched> out;
    for (size_t i = 0; i < xs.size(); ++i) out.push_back(Batched{xs[i], like[i].dim});
    return out;
  };
  // Each example's predicate (a bool[size]), emitted into `pb` on its inputs.
  auto predicates = [&](Builder& pb, const std::vector<Atom>& consts, const std::vector<Atom>& carries) {
    std::vector<Batched> ins = with_dims(consts, cconsts);
    for (const Batched& c : with_dims(carries, carry)) ins.push_back(c);
    const Batched pred = batch_program(pb, w.cond, ins, size)[0];
    return move_batch_dim(pb, pred, 0, size);
  };
  // cond: whether any example's predicate holds (a reduce_max of them as int32).
  Builder cb(w.cond.scope, nullptr);
  std::vector<Atom> cc, ccarry;
  for (const Batched& x : cconsts) cc.push_back(cb.input(x.value.aval));
  for (const Batched& x : carry) ccarry.push_back(cb.input(x.value.aval));
  const Atom any = compare(cb, Prim::kGt,
                           reduce_max(cb, convert_element_type(cb, predicates(cb, cc, ccarry), DType::kInt32), {0}),
                           Atom::constant(0, DType::kInt32));
  auto cond = std::make_shared<const Program>(cb.build({any}));
  // body (cond consts, body consts, carry): the batched body's new carry
  // where the example's predicate holds, its old carry where it does not.
  Builder bb(w.body.scope, nullptr);
  std::vector<Atom> bc, bbc, bcarry;
  for (const Batched& x : cconsts) bc.push_back(bb.input(x.value.aval));
  for (const Batched& x : bconsts) bbc.push_back(bb.input(x.value.aval));
  for (const Batched& x : carry) bcarry.push_back(bb.input(x.value.aval));
  const Atom pred = predicates(bb, bc, bcarry);
  std::vector<Batched> body_in = with_dims(bbc, bconsts);
  for (const Batched& c : with_dims(bcarry, carry)) body_in.push_back(c);
  const std::vector<Batched> next = batch_program(bb, w.body, body_in, size);
  std::vector<Atom> outs;
  for (size_t i = 0; i < next.size(); ++i) {
    if (readonly[i]) {
      outs.push_back(bcarry[i]);
      continue;
    }
    const Atom nv = move_batch_dim(bb, next[i], 0, size);
    outs.push_back(select_n(bb, broadcast_in_dim(bb, pred, nv.aval.shape, {0}), {bcarry[i], nv}));
  }
  auto body = std::make_shared<const Program>(bb.build(outs));
  std::vector<Atom> ops(args.begin(), args.begin() + static_cast<long>(w.cond_nconsts));
  ops.insert(ops.end(), args.begin(), args.end());  // the cond consts again, as the body's first consts
  const std::vector<Atom> results = b.emit(
      Prim::kWhile,
      while_params(cond, static_cast<int64_t>(w.cond_nconsts), body, static_cast<int64_t>(w.cond_nconsts + w.body_nconsts)),
      ops);
  return with_dims(results, carry);
}

Sample Def<Prim::kWhile>::sample() {
  // carry (i, x): while i < 3: (i + 1, x * k + 1), k a body const
  Builder cb;
  const Atom ci = cb.input(samples::i32({}));
  cb.input(samples::f32({3}));
  auto cond = std::make_shared<const Program>(
      cb.build({compare(cb, Prim::kLt, ci, Atom::constant(3, DType::kInt32))}));
  Builder bb;
  const Atom k = bb.input(samples::f32({3})), i = bb.input(samples::i32({})), x = bb.input(samples::f32({3}));
  auto body = std::make_shared<const Program>(
      bb.build({add(bb, i, Atom::constant(1, DType::kInt32)), add(bb, mul(bb, x, k), f32_scalar(1))}));
  return {{samples::f32({3}), samples::i32({}), samples::f32({3})}, while_params(cond, 0, body, 1)};
}

// Each device scans its blocks: its xs' slices are blocks of the body's
// x inputs only when the scanned dimension is whole; else not partitioned.
std::vector<Atom> Def<Prim::kScan>::partition(Partitioner& pt, const PartEqn& e) {
  const ScanParams s = scan_of(e.params);
  for (size_t i = s.num_consts + s.num_carry; i < e.in.size(); ++i)
    if (!e.in[i].sharding.dim(0).empty()) not_partitioned(kName, "over xs split along the scanned dimension (" + e.in[i].str() + ")");
  for (size_t j = s.num_carry; j < e.out.size(); ++j)
    if (!e.out[j].sharding.dim(0).empty()) not_partitioned(kName, "to ys split along the scanned dimension (" + e.out[j].str() + ")");
  return pt.with_programs(e);
}

}  // namespace shardlab::ir
