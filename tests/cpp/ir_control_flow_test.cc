// Control flow (jax.lax.cond / switch / scan): the printed program against
// JAX 0.11's (api_test.py test_cond), values against loops written out
// here in double precision, gradients through cond and scan against the
// analytic ones, a ring of ppermute steps written as a scan inside a
// shard_map on both executors (bitwise equal) and differentiated, and the
// VMA error for a varying predicate around a collective.
#include <gtest/gtest.h>

#include <cmath>

#include "exec/lockstep_program.h"
#include "ir/tracing/autodiff.h"
#include "ir/tracing/control_flow.h"
#include "ir/tracing/ops.h"
#include "ir/tracing/parallel_ops.h"
#include "lax_calls.h"
#include "ir/forms/print.h"
#include "ir_checks.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

using Atoms = std::vector<Atom>;
using exec::as_floats;
using exec::host_f32;

// lax.cond(x >= 0, lambda xt, _: xt + x, lambda _, xf: xf - x, x + 1, x + 2), as JAX's test.
Atoms jax_cond_example(Builder& b, const Atom& x) {
  const Atom pred = compare(b, Prim::kGe, x, f32_scalar(0));
  CondTrace c(b, {add(b, x, f32_scalar(1)), add(b, x, f32_scalar(2))});
  const Atom index = convert_element_type(b, pred, DType::kInt32);
  Builder& f = c.begin_branch();  // false_fun first, as lax.cond orders them
  c.end_branch({sub(f, c.inputs()[1], x)});
  Builder& t = c.begin_branch();
  c.end_branch({add(t, c.inputs()[0], x)});
  return c.finish(index);
}

TEST(Cond, PrintsAsJax) {
  Builder b;
  const Atom x = b.input(f32({}));
  EXPECT_EQ(to_text(b.build(jax_cond_example(b, x))),
            "{ lambda ; a:f32[]. let\n"
            "    b:bool[] = ge a 0.0:f32[]\n"
            "    c:f32[] = add a 1.0:f32[]\n"
            "    d:f32[] = add a 2.0:f32[]\n"
            "    e:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b\n"
            "    f:f32[] = cond[\n"
            "      branches=(\n"
            "        { lambda ; g:f32[] h:f32[] i:f32[]. let j:f32[] = sub i g in (j,) }\n"
            "        { lambda ; k:f32[] l:f32[] m:f32[]. let n:f32[] = add l k in (n,) }\n"
            "      )\n"
            "    ] e a c d\n"
            "  in (f,) }");
}

TEST(Cond, ValuesAndGradients) {
  // f(x) = 2x + 1 for x >= 0, else 2 - ... : (x + 1) + x = 2x + 1, or (x + 2) - x = 2.
  Builder b;
  const Atom x = b.input(f32({}));
  const auto g = grad_at(b, [](Builder& bb, const Atoms& a) { return jax_cond_example(bb, a[0]); }, {x});
  const Program p = b.build({g.outputs[0], g.derivs[0]});
  for (float v : {3.0f, -1.5f}) {
    const auto r = exec::interpret(p, {host_f32({}, {v})});
    EXPECT_EQ(as_floats(r[0])[0], v >= 0 ? 2 * v + 1 : 2.0f) << v;
    EXPECT_EQ(as_floats(r[1])[0], v >= 0 ? 2.0f : 0.0f) << v;
  }
}

// ema(xs) = scan(c -> 0.9 c + 0.1 x, 0, xs), with the ys the running values.
Atoms ema(Builder& b, const Atom& xs, bool reverse = false) {
  ScanTrace s(b, {f32_scalar(0)}, {xs}, std::nullopt, reverse);
  Builder& in = s.builder();
  const Atom c = add(in, mul(in, s.inputs()[0], f32_scalar(0.9)), mul(in, s.inputs()[1], f32_scalar(0.1)));
  return s.finish({c, c});
}

TEST(Scan, ValuesGradientsAndPrinting) {
  const std::vector<float> xv{1, -2, 3, 0.5f, 4};
  for (bool reverse : {false, true}) {
    Builder b;
    const Atom xs = b.input(f32({5}));
    const Atoms out = ema(b, xs, reverse);
    // d(final carry)/dx_i = 0.1 * 0.9^(steps after i)
    const auto g = grad_at(b, [&](Builder& bb, const Atoms& a) { return Atoms{ema(bb, a[0], reverse)[0]}; }, {xs});
    const Program p = b.build({out[0], out[1], g.derivs[0]});
    const auto r = exec::interpret(p, {host_f32({5}, xv)});
    double c = 0;
    std::vector<double> ys(5);
    for (int step = 0; step < 5; ++step) {
      const int i = reverse ? 4 - step : step;
      c = 0.9 * c + 0.1 * xv[i];
      ys[i] = c;
    }
    EXPECT_NEAR(as_floats(r[0])[0], c, 1e-6);
    for (int i = 0; i < 5; ++i) {
      EXPECT_NEAR(as_floats(r[1])[i], ys[i], 1e-6) << i;
      const int after = reverse ? i : 4 - i;
      EXPECT_NEAR(as_floats(r[2])[i], 0.1 * std::pow(0.9, after), 1e-6) << i;
    }
  }
  Builder b;
  const Atom xs = b.input(f32({5}));
  const std::string text = to_text(b.build(ema(b, xs)));
  // JAX 0.11's parameters: the flat trees of the operands (no consts, a carry, xs) and results (a carry, ys).
  EXPECT_NE(text.find("scan[\n      ft_in=((), (None,), (None,))\n      ft_out=((None,), (None,))\n      jaxpr={ lambda ; d:f32[] e:f32[]. let\n"), std::string::npos) << text;
  EXPECT_NE(text.find("      length=5\n      reverse=False\n      unroll=1\n    ] 0.0:f32[] a"), std::string::npos) << text;
}

// A ring: each device passes its block to the next 7 times (a scan of
// ppermute steps), so every block comes back home having visited all 8;
// the sum of what each device saw is the total. Both executors agree
// bitwise, and the gradient of the total is 8 everywhere... of what it saw.
TEST(Scan, ARingOfPpermuteStepsInAShardMap) {
  auto mesh = testing::make_mesh({8}, {"i"});
  const auto ring = [&](Builder& b, const Atoms& x) {
    return shard_map(b, mesh, {PartitionSpec{{{"i"}}}}, {PartitionSpec{{{"i"}}}}, true, x, [](Builder& body, const Atoms& blk) {
      ScanTrace s(body, {blk[0], blk[0]}, {}, 7, false);
      Builder& in = s.builder();
      std::vector<std::pair<int, int>> perm;
      for (int d = 0; d < 8; ++d) perm.emplace_back(d, (d + 1) % 8);
      const Atom next = ppermute(in, s.inputs()[0], {"i"}, perm);
      return Atoms{s.finish({next, add(in, s.inputs()[1], next)})[1]};
    });
  };
  Builder b;
  const Atom x = b.input(f32({16}));
  const auto g = grad_at(b, [&](Builder& bb, const Atoms& a) { return Atoms{reduce_sum(bb, mul(bb, ring(bb, a)[0], ring(bb, a)[0]), {0})}; }, {x});
  const Program p = b.build({ring(b, {x})[0], g.derivs[0]});
  const auto xv = testing::random_floats(16, 7);
  const auto outs = run_both(p, mesh, {host_f32({16}, xv)});
  const auto sums = as_floats(outs[0]), grads = as_floats(outs[1]);
  for (int k = 0; k < 2; ++k) {
    double total = 0;
    for (int d = 0; d < 8; ++d) total += xv[d * 2 + k];
    for (int d = 0; d < 8; ++d) {
      EXPECT_NEAR(sums[d * 2 + k], total, 1e-5);
      // loss = sum over devices of total^2 (8 copies): d/dx = 8 * 2 * total
      EXPECT_NEAR(grads[d * 2 + k], 16 * total, 1e-3);
    }
  }
}

// JVPs against central finite differences, transposes by the dot-product
// identity (<ct, f(t)> = <f^T(ct), t>), for a cond (on a traced predicate)
// and a scan with a const, a carry and xs.
Atom cond_body(Builder& b, const Atoms& a) {
  CondTrace c(b, {a[0], a[1]});
  Builder& f = c.begin_branch();
  c.end_branch({mul(f, c.inputs()[0], c.inputs()[1])});
  Builder& t = c.begin_branch();
  c.end_branch({add(t, unary(t, Prim::kTanh, c.inputs()[0]), c.inputs()[1])});
  return c.finish(convert_element_type(b, compare(b, Prim::kGt, reduce_sum(b, a[1], {0}), f32_scalar(0)), DType::kInt32))[0];
}
Atom scan_body(Builder& b, const Atoms& a) {  // a[0]: k f32[3], a[1]: xs f32[4, 3]
  ScanTrace s(b, {a[0]}, {a[1]}, std::nullopt, false);
  Builder& in = s.builder();
  const Atom next = add(in, mul(in, s.inputs()[0], unary(in, Prim::kTanh, s.inputs()[1])), a[0]);
  const Atoms out = s.finish({next, mul(in, next, next)});
  return add(b, out[0], reduce_sum(b, out[1], {0}));
}

TEST(ControlFlow, JvpAgainstFiniteDifferencesAndTransposeIdentity) {
  check_jvp(cond_body, {f32({3}), f32({3})});
  check_jvp(scan_body, {f32({3}), f32({4, 3})});
  // Linear in t: cond(pred(w), t * w, t + ... ) with t linear; a scan summing t's rows times a const.
  check_transpose(
      [](Builder& b, const Atoms& a) {
        CondTrace c(b, {a[0], a[1]});
        Builder& f = c.begin_branch();
        c.end_branch({mul(f, c.inputs()[0], c.inputs()[1])});
        Builder& t = c.begin_branch();
        c.end_branch({neg(t, c.inputs()[0])});
        return c.finish(convert_element_type(b, compare(b, Prim::kGt, reduce_sum(b, a[1], {0}), f32_scalar(0)), DType::kInt32))[0];
      },
      {f32({3}), f32({3})}, 0);
  check_transpose(
      [](Builder& b, const Atoms& a) {
        const Atom zero = zeros_like(b, f32({3}));
        ScanTrace s(b, {zero}, {a[0]}, std::nullopt, true);
        Builder& in = s.builder();
        const Atom next = add(in, mul(in, s.inputs()[0], f32_scalar(0.5)), mul(in, s.inputs()[1], a[1]));
        return s.finish({next, next})[0];
      },
      {f32({4, 3}), f32({3})}, 0);
}

// cond and scan in a shard_map body over a 2-D mesh, with collectives
// along each axis inside: both executors bitwise equal, values against a loop.
TEST(ControlFlow, InAShardMapBodyOverATwoDimensionalMesh) {
  auto mesh = testing::make_mesh({2, 4}, {"a", "b"});
  Builder b;
  const Atom x = b.input(f32({8, 3}));
  const Atoms out = shard_map(
      b, mesh, {PartitionSpec{{{"a", "b"}}}}, {PartitionSpec{}}, true, {x}, [](Builder& body, const Atoms& blk) {
        // a per-device f32[1, 3] block; the scan psums over 'b' 3 times, then the cond (on an invariant predicate) psums over 'a'.
        ScanTrace s(body, {blk[0]}, {}, 3, false);
        Builder& in = s.builder();
        const Atom c = mul(in, psum(in, s.inputs()[0], {"b"}), f32_scalar(0.5));
        const Atom carried = s.finish({c})[0];
        const Atom total = psum(body, reduce_sum(body, carried, {0, 1}), {"a", "b"});
        CondTrace k(body, {carried});
        Builder& f = k.begin_branch();
        k.end_branch({psum(f, k.inputs()[0], {"a"})});
        Builder& t = k.begin_branch();
        k.end_branch({psum(t, neg(t, k.inputs()[0]), {"a"})});
        const Atom r = k.finish(convert_element_type(body, compare(body, Prim::kGt, total, f32_scalar(0)), DType::kInt32))[0];
        return Atoms{psum(body, r, {"b"})};
      });
  const Program p = b.build(out);
  const auto xv = testing::random_floats(24, 9);
  const auto r = as_floats(run_both(p, mesh, {host_f32({8, 3}, xv)})[0]);
  // Each step: c = 0.5 * (sum over the 4 'b' devices of c): after 3 steps, (4 * 0.5)^2 * ... per 'a' group.
  std::vector<double> group[2];
  for (int g = 0; g < 2; ++g) {
    std::vector<double> c(3, 0);
    for (int d = 0; d < 4; ++d)
      for (int j = 0; j < 3; ++j) c[j] += xv[(g * 4 + d) * 3 + j];
    for (int j = 0; j < 3; ++j) c[j] *= 0.5;                  // step 1 (the same on every device of the group)
    for (int j = 0; j < 3; ++j) c[j] = 0.5 * 4 * c[j] * 1.0;  // step 2
    for (int j = 0; j < 3; ++j) c[j] = 0.5 * 4 * c[j];        // step 3
    group[g] = c;
  }
  double total = 0;
  for (int g = 0; g < 2; ++g)
    for (int j = 0; j < 3; ++j) total += 4 * group[g][j];
  for (int j = 0; j < 3; ++j) {
    const double both = group[0][j] + group[1][j];
    EXPECT_NEAR(r[j], 4 * (total > 0 ? -both : both), 1e-4) << j;  // branch 1 (total > 0) negates
  }
}

TEST(Cond, AVaryingPredicateAroundACollectiveIsAnError) {
  auto mesh = testing::make_mesh({8}, {"i"});
  Builder b;
  const Atom x = b.input(f32({8}));
  const std::string msg = testing::error_message([&] {
    shard_map(b, mesh, {PartitionSpec{{{"i"}}}}, {PartitionSpec{}}, true, {x}, [](Builder& body, const Atoms& blk) {
      const Atom s = reduce_sum(body, blk[0], {0});  // varies along 'i'
      CondTrace c(body, {s});
      Builder& f = c.begin_branch();
      c.end_branch({psum(f, c.inputs()[0], {"i"})});
      Builder& t = c.begin_branch();
      c.end_branch({add(t, c.inputs()[0], f32_scalar(1))});
      return Atoms{c.finish(convert_element_type(body, compare(body, Prim::kGt, s, f32_scalar(0)), DType::kInt32))};
    });
  });
  EXPECT_NE(msg.find("the branch index varies across devices along ('i',), but branch 0 performs psum"), std::string::npos) << msg;
}

}  // namespace
}  // namespace shardlab::ir
