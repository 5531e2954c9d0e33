// Control flow that loops and branches (issue 35): a scan lowers to a while
// over its steps, so the program the executors run stays the size of the
// body whatever the length; its gradient is a forward scan stacking
// residuals and a transposed scan running the other way; a cond runs as a
// branch, and its transpose is a cond. Values against loops written out here
// in double precision; both executors bitwise equal on a mesh.
#include <gtest/gtest.h>

#include <cmath>

#include "exec/lockstep_program.h"
#include "ir/forms/print.h"
#include "ir/tracing/autodiff.h"
#include "ir/tracing/control_flow.h"
#include "ir/tracing/ops.h"
#include "ir/tracing/parallel_ops.h"
#include "ir/transforms/lower.h"
#include "ir_checks.h"
#include "lax_calls.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

using Atoms = std::vector<Atom>;
using exec::as_floats;
using exec::host_f32;

// How many equations p holds, nested programs included, and how many of them are `prim`.
size_t count(const Program& p, std::optional<Prim> prim = std::nullopt) {
  size_t n = 0;
  for (const Eqn& e : p.eqns) {
    n += !prim || e.prim == *prim;
    for (const Program* q : subprograms(e)) n += count(*q, prim);
  }
  return n;
}

// The scans of p (nested ones included), in order.
void scans(const Program& p, std::vector<const Eqn*>& out) {
  for (const Eqn& e : p.eqns) {
    if (e.prim == Prim::kScan) out.push_back(&e);
    for (const Program* q : subprograms(e)) scans(*q, out);
  }
}

// c' = 0.5 sin(c) k + x, y = c'^2: a non-linear recurrence with a const k.
Atoms recurrence(Builder& b, const Atom& k, const Atom& xs) {
  ScanTrace s(b, {zeros_like(b, Aval{DType::kFloat32, {k.aval.shape}, {}})}, {xs}, std::nullopt, false);
  Builder& in = s.builder();
  const Atom c = add(in, mul(in, mul(in, unary(in, Prim::kSin, s.inputs()[0]), f32_scalar(0.5)), k), s.inputs()[1]);
  return s.finish({c, mul(in, c, c)});
}

// loss(k, xs) = sum(final carry) + sum(ys), and its gradient, in double by hand.
struct Reference {
  double loss = 0;
  std::vector<double> dk, dxs;
};
Reference reference(const std::vector<float>& k, const std::vector<float>& xs, size_t steps) {
  const size_t n = k.size();
  std::vector<std::vector<double>> c(steps + 1, std::vector<double>(n, 0.0));
  Reference r;
  for (size_t t = 0; t < steps; ++t)
    for (size_t j = 0; j < n; ++j) {
      c[t + 1][j] = 0.5 * std::sin(c[t][j]) * k[j] + xs[t * n + j];
      r.loss += c[t + 1][j] * c[t + 1][j];
    }
  for (size_t j = 0; j < n; ++j) r.loss += c[steps][j];
  r.dk.assign(n, 0.0);
  r.dxs.assign(steps * n, 0.0);
  std::vector<double> dc(n, 1.0);  // d loss / d c[steps], from sum(final carry)
  for (size_t t = steps; t-- > 0;)
    for (size_t j = 0; j < n; ++j) {
      const double g = dc[j] + 2 * c[t + 1][j];  // through y = c^2 too
      r.dxs[t * n + j] = g;
      r.dk[j] += g * 0.5 * std::sin(c[t][j]);
      dc[j] = g * 0.5 * std::cos(c[t][j]) * k[j];
    }
  return r;
}

Program loss_and_grad(int64_t steps) {
  Builder b;
  const Atom k = b.input(f32({3})), xs = b.input(f32({steps, 3}));
  const auto loss = [](Builder& bb, const Atoms& a) {
    const Atoms o = recurrence(bb, a[0], a[1]);
    return Atoms{add(bb, reduce_sum(bb, o[0], {0}), reduce_sum(bb, o[1], {0, 1}))};
  };
  const auto g = grad_at(b, loss, {k, xs});
  return b.build({g.outputs[0], g.derivs[0], g.derivs[1]});
}

TEST(Loops, AScanRunsAsAWhileTheSizeOfItsBody) {
  const Program short_one = loss_and_grad(4), long_one = loss_and_grad(10000);
  const ProgramRef lowered = lower(std::make_shared<const Program>(long_one));
  EXPECT_EQ(count(*lowered, Prim::kScan), 0u);
  EXPECT_GE(count(*lowered, Prim::kWhile), 2u);  // the forward scan and the transposed one
  EXPECT_EQ(count(*lowered), count(*lower(std::make_shared<const Program>(short_one))));
  EXPECT_EQ(count(long_one), count(short_one));

  const int64_t steps = 10000;
  const auto k = testing::random_floats(3, 1), xs = testing::random_floats(static_cast<size_t>(steps) * 3, 2);
  const auto r = exec::interpret(long_one, {host_f32({3}, k), host_f32({steps, 3}, xs)});
  const Reference want = reference(k, xs, static_cast<size_t>(steps));
  EXPECT_NEAR(as_floats(r[0])[0], want.loss, 1e-5 * std::abs(want.loss));
  for (size_t j = 0; j < 3; ++j) EXPECT_NEAR(as_floats(r[1])[j], want.dk[j], 1e-4 * (1 + std::abs(want.dk[j]))) << j;
  const auto dxs = as_floats(r[2]);
  for (size_t i = 0; i < dxs.size(); i += 997) EXPECT_NEAR(dxs[i], want.dxs[i], 1e-4 * (1 + std::abs(want.dxs[i]))) << i;
}

// A scan of no steps gives its initial carries and empty ys, and its
// gradient passes the carry's cotangent straight through.
TEST(Loops, AScanOfNoSteps) {
  Builder b;
  const Atom c0 = b.input(f32({})), xs = b.input(f32({0, 3}));
  const auto f = [](Builder& bb, const Atoms& a) {
    ScanTrace s(bb, {a[0]}, {a[1]}, std::nullopt, false);
    Builder& in = s.builder();
    const Atom next = add(in, mul(in, s.inputs()[0], f32_scalar(2)), reduce_sum(in, s.inputs()[1], {0}));
    return s.finish({next, mul(in, s.inputs()[1], f32_scalar(2))});
  };
  const Atoms out = f(b, {c0, xs});
  const auto g = grad_at(b, [&](Builder& bb, const Atoms& a) { return Atoms{f(bb, a)[0]}; }, {c0, xs});
  const Program p = b.build({out[0], out[1], g.derivs[0], g.derivs[1]});
  const auto r = exec::interpret(p, {host_f32({}, {1.5f}), host_f32({0, 3}, {})});
  EXPECT_EQ(as_floats(r[0]), std::vector<float>{1.5f});
  EXPECT_EQ(r[1].aval.shape, (Shape{0, 3}));
  EXPECT_EQ(as_floats(r[2]), std::vector<float>{1.0f});
  EXPECT_EQ(r[3].aval.shape, (Shape{0, 3}));
}

// The gradient's program: the forward scan, stacking the carry each step
// starts from (the residual sin and cos read), and the transposed scan,
// reverse, carrying the carry's cotangent and the sum of k's.
TEST(Loops, TheGradientOfAScanIsAForwardScanAndATransposedScan) {
  const Program p = loss_and_grad(6);
  std::vector<const Eqn*> found;
  scans(p, found);
  std::vector<bool> reverse;
  for (const Eqn* e : found) reverse.push_back(param<bool>(e->params, "reverse", "scan"));
  // The primal scan, the JVP's forward part, and the transposed one.
  ASSERT_GE(found.size(), 2u) << to_text(p);
  EXPECT_FALSE(reverse.front()) << to_text(p);
  EXPECT_TRUE(reverse.back()) << to_text(p);
  const Eqn& t = *found.back();
  EXPECT_EQ(param<int64_t>(t.params, "length", "scan"), 6);
  // Its carries: k's cotangent sum and the carry's cotangent.
  EXPECT_EQ(param<std::vector<int64_t>>(t.params, "ft_in", "scan")[1], 2) << to_text(p);
  const auto k = testing::random_floats(3, 3), xs = testing::random_floats(18, 4);
  const auto r = exec::interpret(p, {host_f32({3}, k), host_f32({6, 3}, xs)});
  const Reference want = reference(k, xs, 6);
  for (size_t j = 0; j < 3; ++j) EXPECT_NEAR(as_floats(r[1])[j], want.dk[j], 1e-5) << j;
  for (size_t i = 0; i < 18; ++i) EXPECT_NEAR(as_floats(r[2])[i], want.dxs[i], 1e-5) << i;
}

// h' = tanh(Wᵀ h + x): the transpose of the const W is loop-invariant, so the
// gradient computes it once outside the loops instead of stacking it per step
// (JAX's scan partial evaluation hoists such residuals the same way).
TEST(Loops, ALoopInvariantResidualIsComputedOnceNotStacked) {
  const int64_t steps = 50;
  Builder b;
  const Atom w = b.input(f32({3, 3})), xs = b.input(f32({steps, 3}));
  const auto loss = [](Builder& bb, const Atoms& a) {
    ScanTrace s(bb, {zeros_like(bb, f32({3}))}, {a[1]}, std::nullopt, false);
    Builder& in = s.builder();
    const Atom pre = add(in, matmul(in, transpose(in, a[0], {1, 0}), s.inputs()[0]), s.inputs()[1]);
    const Atom h = unary(in, Prim::kTanh, pre);
    return Atoms{reduce_sum(bb, s.finish({h})[0], {0})};
  };
  const auto g = grad_at(b, loss, {w, xs});
  const Program p = b.build({g.derivs[0]});
  std::vector<const Eqn*> found;
  scans(p, found);
  for (const Eqn* e : found)
    for (VarId v : e->outputs) EXPECT_NE(p.avals[v].shape, (Shape{steps, 3, 3})) << to_text(p);
  const auto wv = testing::random_floats(9, 7), xv = testing::random_floats(static_cast<size_t>(steps) * 3, 8);
  const auto dw = as_floats(exec::interpret(p, {host_f32({3, 3}, wv), host_f32({steps, 3}, xv)})[0]);
  std::vector<std::vector<double>> h(static_cast<size_t>(steps) + 1, std::vector<double>(3, 0.0));
  for (int64_t t = 0; t < steps; ++t)
    for (int j = 0; j < 3; ++j) {
      double pre = xv[t * 3 + j];
      for (int i = 0; i < 3; ++i) pre += wv[i * 3 + j] * h[t][i];
      h[t + 1][j] = std::tanh(pre);
    }
  std::vector<double> dh(3, 1.0), want(9, 0.0);
  for (int64_t t = steps; t-- > 0;) {
    std::vector<double> gpre(3), next(3, 0.0);
    for (int j = 0; j < 3; ++j) gpre[j] = dh[j] * (1 - h[t + 1][j] * h[t + 1][j]);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        want[i * 3 + j] += gpre[j] * h[t][i];
        next[i] += wv[i * 3 + j] * gpre[j];
      }
    dh = next;
  }
  for (int k = 0; k < 9; ++k) EXPECT_NEAR(dw[k], want[k], 1e-5) << k;
}

// A long scan inside a shard_map body, a psum each step: the while meets the
// collective every iteration on both executors, bitwise equal; its gradient
// too (the transposed scan holds the psum's transpose).
TEST(Loops, AScanWithACollectiveEachStepInAShardMap) {
  auto mesh = testing::make_mesh({8}, {"i"});
  const int64_t steps = 500;
  const auto f = [&](Builder& b, const Atoms& a) {
    return shard_map(b, mesh, {PartitionSpec{{{"i"}}}}, {PartitionSpec{}}, true, a, [&](Builder& body, const Atoms& blk) {
      // blk: f32[1, steps]; c' = 0.5 c + psum(x_t) / 8 - 0.01 c^2 over the rows of blk's transpose.
      const Atom rows = transpose(body, blk[0], {1, 0});
      ScanTrace s(body, {zeros_like(body, Aval{DType::kFloat32, {1}, {}})}, {rows}, std::nullopt, false);
      Builder& in = s.builder();
      const Atom c = s.inputs()[0];
      const Atom mean = mul(in, psum(in, s.inputs()[1], {"i"}), f32_scalar(0.125));
      const Atom next = sub(in, add(in, mul(in, c, f32_scalar(0.5)), mean), mul(in, mul(in, c, c), f32_scalar(0.01)));
      return Atoms{reduce_sum(body, s.finish({next})[0], {0})};
    });
  };
  Builder b;
  const Atom x = b.input(f32({8, steps}));
  const auto g = grad_at(b, f, {x});
  const Program p = b.build({g.outputs[0], g.derivs[0]});
  EXPECT_EQ(count(*lower(std::make_shared<const Program>(p)), Prim::kScan), 0u);
  const auto xv = testing::random_floats(8 * static_cast<size_t>(steps), 5);
  const auto r = run_both(p, mesh, {host_f32({8, steps}, xv)});
  std::vector<double> c(static_cast<size_t>(steps) + 1, 0.0), mean(static_cast<size_t>(steps), 0.0);
  for (int64_t t = 0; t < steps; ++t) {
    for (int d = 0; d < 8; ++d) mean[t] += xv[d * steps + t] / 8.0;
    c[t + 1] = 0.5 * c[t] + mean[t] - 0.01 * c[t] * c[t];
  }
  EXPECT_NEAR(as_floats(r[0])[0], c[steps], 1e-5);
  // d c_T / d x[d, t] = (1/8) * prod over later steps of (0.5 - 0.02 c): the same on every device.
  double dc = 1.0;
  std::vector<double> dmean(static_cast<size_t>(steps));
  for (int64_t t = steps; t-- > 0;) {
    dmean[t] = dc;
    dc *= 0.5 - 0.02 * c[t];
  }
  const auto dx = as_floats(r[1]);
  for (int d = 0; d < 8; d += 3)
    for (int64_t t = 0; t < steps; t += 37) EXPECT_NEAR(dx[d * steps + t], dmean[t] / 8.0, 1e-6) << d << " " << t;
}

// A cond runs as a branch: the program the executors run holds a cond, not
// every branch and a select_n; its gradient's transpose is a cond of the
// branches' transposes, on both executors inside a shard_map.
TEST(Loops, ACondRunsAsABranchAndItsTransposeIsACond) {
  auto mesh = testing::make_mesh({8}, {"i"});
  const auto f = [&](Builder& b, const Atoms& a) {
    return shard_map(b, mesh, {PartitionSpec{{{"i"}}}}, {PartitionSpec{{{"i"}}}}, true, a, [&](Builder& body, const Atoms& blk) {
      // per device's block of 2: x * 3 when the sum over all devices is
      // positive, else sin(x) + psum(x) (element j: the sum of every block's element j)
      const Atom total = psum(body, reduce_sum(body, blk[0], {0}), {"i"});
      CondTrace c(body, {blk[0]});
      Builder& neg_branch = c.begin_branch();
      c.end_branch({add(neg_branch, unary(neg_branch, Prim::kSin, c.inputs()[0]), psum(neg_branch, c.inputs()[0], {"i"}))});
      Builder& pos_branch = c.begin_branch();
      c.end_branch({mul(pos_branch, c.inputs()[0], f32_scalar(3))});
      return c.finish(convert_element_type(body, compare(body, Prim::kGt, total, f32_scalar(0)), DType::kInt32));
    });
  };
  Builder b;
  const Atom x = b.input(f32({16}));
  const auto g = grad_at(b, [&](Builder& bb, const Atoms& a) { return Atoms{reduce_sum(bb, f(bb, a)[0], {0})}; }, {x});
  const Program p = b.build({g.outputs[0], g.derivs[0]});
  const ProgramRef lowered = lower(std::make_shared<const Program>(p));
  EXPECT_EQ(count(*lowered, Prim::kSelectN), 0u) << to_text(*lowered);
  EXPECT_GE(count(*lowered, Prim::kCond), 2u);  // the primal's and the transposed one
  for (const float sign : {1.0f, -1.0f}) {
    std::vector<float> xv = testing::random_floats(16, 6);
    for (float& v : xv) v = sign * (std::abs(v) + 0.1f);
    const auto r = run_both(p, mesh, {host_f32({16}, xv)});
    double want = 0;
    for (float v : xv) want += sign > 0 ? 3.0 * v : std::sin(v) + 8 * v;  // each x_i is in 8 psums
    EXPECT_NEAR(as_floats(r[0])[0], want, 1e-4 * (1 + std::abs(want)));
    const auto dx = as_floats(r[1]);
    // d/dx_i: 3, or cos(x_i) + 8 (x_i is in the psum of the 8 devices' element i % 2).
    for (size_t i = 0; i < 16; ++i) EXPECT_NEAR(dx[i], sign > 0 ? 3.0 : std::cos(xv[i]) + 8.0, 1e-4) << i;
  }
}

}  // namespace
}  // namespace shardlab::ir
