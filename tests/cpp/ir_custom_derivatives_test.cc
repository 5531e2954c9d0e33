// Custom derivatives (jax.custom_jvp, jax.custom_vjp) and stop_gradient:
// the printed programs against what JAX 0.11 prints for the same functions
// (tests/custom_api_test.py, test_pretty_print), derivatives taken through
// the user's rules and not the function's own program (rules chosen to
// differ from it, so that a test cannot pass by differentiating the
// program), JAX's error for a jvp of a custom_vjp function, rules under
// vmap (per-example and summed cotangents), closed-over values, programs
// read back from JSON, and custom calls in a shard_map body on both executors.
#include <gtest/gtest.h>

#include "exec/lockstep_program.h"
#include "ir/tracing/autodiff.h"
#include "ir/forms/json.h"
#include "ir/forms/json_read.h"
#include "ir/transforms/jvp.h"
#include "ir/tracing/ops.h"
#include "ir/tracing/parallel_ops.h"
#include "lax_calls.h"
#include "ir/forms/print.h"
#include "ir/tracing/rule.h"
#include "ir/tracing/vmap.h"
#include "ir_checks.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

using Atoms = std::vector<Atom>;
using exec::as_floats;
using exec::host_f32;

RuleRef rule(const std::string& name, TracedFn fn) { return std::make_shared<const Rule>(Rule{name, std::move(fn)}); }

// f(x) = x + 1 with jvp(x, dx) = (f(x), 3 dx): a rule that disagrees with f's own derivative.
Atoms plus_one_custom_jvp(Builder& b, const Atoms& args) {
  FunctionTrace t(b, args);
  const Atoms outs{add(t.builder(), t.inputs()[0], f32_scalar(1))};
  return t.custom_jvp_call(outs, "f", rule("f_jvp", [](Builder& bb, const Atoms& a) {
    return Atoms{add(bb, a[0], f32_scalar(1)), mul(bb, a[1], f32_scalar(3))};
  }));
}

// f(x) = x + 1 with fwd(x) = (f(x), x) and bwd(x, g) = (5 x g,).
Atoms plus_one_custom_vjp(Builder& b, const Atoms& args) {
  FunctionTrace t(b, args);
  const Atoms outs{add(t.builder(), t.inputs()[0], f32_scalar(1))};
  return t.custom_vjp_call(
      outs, "f", rule("f_fwd", [](Builder& bb, const Atoms& a) { return Atoms{add(bb, a[0], f32_scalar(1)), a[0]}; }),
      rule("f_bwd", [](Builder& bb, const Atoms& a) { return Atoms{mul(bb, mul(bb, a[0], f32_scalar(5)), a[1])}; }));
}

std::vector<float> run(const Program& p, const std::vector<exec::HostArray>& in, size_t out = 0) {
  return as_floats(exec::interpret(p, in)[out]);
}

TEST(CustomJvp, PrintsAsJax) {
  Builder b;
  const Atom x = b.input(f32({1}));
  // JAX 0.11, custom_api_test.py CustomJVPTest.test_pretty_print (jvp=f_jvp as there).
  EXPECT_EQ(to_text(b.build(plus_one_custom_jvp(b, {x}))),
            "{ lambda ; a:f32[1]. let\n"
            "    b:f32[1] = custom_jvp_call[\n"
            "      name=f\n"
            "      call_jaxpr={ lambda ; c:f32[1]. let d:f32[1] = add c 1.0:f32[] in (d,) }\n"
            "      jvp=f_jvp\n"
            "      symbolic_zeros=False\n"
            "    ] a\n"
            "  in (b,) }");
}

TEST(CustomVjp, PrintsAsJax) {
  Builder b;
  const Atom x = b.input(f32({1}));
  // JAX 0.11, custom_api_test.py CustomVJPTest.test_pretty_print.
  EXPECT_EQ(to_text(b.build(plus_one_custom_vjp(b, {x}))),
            "{ lambda ; a:f32[1]. let\n"
            "    b:f32[1] = custom_vjp_call[\n"
            "      name=f\n"
            "      bwd=f_bwd\n"
            "      call_jaxpr={ lambda ; c:f32[1]. let d:f32[1] = add c 1.0:f32[] in (d,) }\n"
            "      fwd=f_fwd\n"
            "      symbolic_zeros=False\n"
            "    ] a\n"
            "  in (b,) }");
}

TEST(CustomJvp, RunsItsProgramAndDifferentiatesByItsRule) {
  Builder b;
  const Atom x = b.input(f32({3}));
  const auto jv = jvp_at(b, plus_one_custom_jvp, {x}, {full_like(b, f32({3}), 2.0)});
  const auto g = vjp_at(b, plus_one_custom_jvp, {x}, {full_like(b, f32({3}), 1.0)});
  const Program p = b.build({jv.outputs[0], jv.derivs[0], g.derivs[0]});
  const auto in = host_f32({3}, {1, -2, 0.5});
  EXPECT_EQ(run(p, {in}, 0), (std::vector<float>{2, -1, 1.5}));  // x + 1
  EXPECT_EQ(run(p, {in}, 1), (std::vector<float>{6, 6, 6}));     // 3 * dx, dx = 2
  EXPECT_EQ(run(p, {in}, 2), (std::vector<float>{3, 3, 3}));     // the transpose of dx -> 3 dx
}

TEST(CustomVjp, GradUsesBwdAndJvpIsJaxsError) {
  Builder b;
  const Atom x = b.input(f32({3}));
  const auto g = vjp_at(b, plus_one_custom_vjp, {x}, {full_like(b, f32({3}), 2.0)});
  const Program p = b.build({g.outputs[0], g.derivs[0]});
  const auto in = host_f32({3}, {1, -2, 0.5});
  EXPECT_EQ(run(p, {in}, 0), (std::vector<float>{2, -1, 1.5}));
  EXPECT_EQ(run(p, {in}, 1), (std::vector<float>{10, -20, 5}));  // 5 x g, g = 2
  Builder c;
  const Atom y = c.input(f32({3}));
  EXPECT_EQ(testing::error_message([&] { jvp_at(c, plus_one_custom_vjp, {y}, {y}); }),
            "can't apply forward-mode autodiff (jvp) to a custom_vjp function.");
}

TEST(StopGradient, HasZeroDerivative) {
  // d/dx [x * stop_gradient(x)] = stop_gradient(x) = x
  Builder b;
  const Atom x = b.input(f32({3}));
  const auto g = grad_at(
      b, [](Builder& bb, const Atoms& a) {
        return Atoms{reduce_sum(bb, mul(bb, a[0], bb.emit1(Prim::kStopGradient, {}, {a[0]})), {0})};
      },
      {x});
  EXPECT_EQ(run(b.build({g.derivs[0]}), {host_f32({3}, {1, -2, 0.5})}), (std::vector<float>{1, -2, 0.5}));
}

// x: f32[4, 3] mapped along 0, w: f32[3] not mapped; f(x, w) = sum(x * w),
// a custom_vjp whose bwd gives (7 g w, 7 g x): vmap(grad) gives per-example
// cotangents, grad of the vmapped sum sums w's over the batch.
TEST(CustomVjp, UnderVmap) {
  const auto f = [](Builder& b, const Atoms& args) {
    FunctionTrace t(b, args);
    Builder& in = t.builder();
    const Atoms outs{reduce_sum(in, mul(in, t.inputs()[0], t.inputs()[1]), {0})};
    return t.custom_vjp_call(
        outs, "dot",
        rule("dot_fwd", [](Builder& bb, const Atoms& a) { return Atoms{reduce_sum(bb, mul(bb, a[0], a[1]), {0}), a[0], a[1]}; }),
        rule("dot_bwd", [](Builder& bb, const Atoms& a) {
          const Atom g7 = mul(bb, a[2], f32_scalar(7));
          return Atoms{mul(bb, broadcast_in_dim(bb, g7, {3}, {}), a[1]), mul(bb, broadcast_in_dim(bb, g7, {3}, {}), a[0])};
        }));
  };
  Builder b;
  const Atom x = b.input(f32({4, 3}));
  const Atom w = b.input(f32({3}));
  const Atoms per_example = vmap_at(
      b, [&](Builder& bb, const Atoms& a) { return grad_at(bb, f, a).derivs; }, {x, w}, {0, std::nullopt}, {0, 0});
  const auto summed = grad_at(
      b, [&](Builder& bb, const Atoms& a) {
        return Atoms{reduce_sum(bb, vmap_at(bb, f, a, {0, std::nullopt}, {0})[0], {0})};
      },
      {x, w});
  const Program p = b.build({per_example[0], per_example[1], summed.derivs[0], summed.derivs[1]});
  const auto xv = testing::random_floats(12, 1), wv = testing::random_floats(3, 2);
  const auto r = exec::interpret(p, {host_f32({4, 3}, xv), host_f32({3}, wv)});
  ASSERT_EQ(r[1].aval.shape, (Shape{4, 3}));
  ASSERT_EQ(r[3].aval.shape, (Shape{3}));
  const auto dx = as_floats(r[0]), dw = as_floats(r[1]), sx = as_floats(r[2]), sw = as_floats(r[3]);
  for (int k = 0; k < 3; ++k) {
    double sum_w = 0;
    for (int e = 0; e < 4; ++e) {
      EXPECT_NEAR(dx[e * 3 + k], 7.0 * wv[k], 1e-5);
      EXPECT_NEAR(dw[e * 3 + k], 7.0 * xv[e * 3 + k], 1e-5);
      EXPECT_NEAR(sx[e * 3 + k], 7.0 * wv[k], 1e-5);
      sum_w += 7.0 * xv[e * 3 + k];
    }
    EXPECT_NEAR(sw[k], sum_w, 1e-5);
  }
}

// A custom_jvp function closing over a value of the enclosing trace: it
// becomes the call's first operand (num_consts=1, printed as JAX does); the
// rule sees only the argument; differentiating through the closed-over value is an error.
TEST(CustomJvp, ClosedOverValues) {
  Builder b;
  const Atom x = b.input(f32({}));
  const Atom c = b.input(f32({}));
  const auto f = [&](Builder& bb, const Atoms& args) {
    FunctionTrace t(bb, args);
    const Atoms outs{mul(t.builder(), t.inputs()[0], c)};
    return t.custom_jvp_call(outs, "scale", rule("scale_jvp", [](Builder& r, const Atoms& a) {
      return Atoms{mul(r, a[0], f32_scalar(2)), mul(r, a[1], f32_scalar(2))};
    }));
  };
  const Atoms y = f(b, {x});
  const std::string text = to_text(b.build(y));
  EXPECT_NE(text.find("num_consts=1"), std::string::npos) << text;
  const auto g = grad_at(b, f, {x});
  EXPECT_EQ(run(b.build({y[0], g.derivs[0]}), {host_f32({}, {4}), host_f32({}, {3})}, 1), (std::vector<float>{2}));
  Builder d;
  const Atom z = d.input(f32({}));
  const std::string msg = testing::error_message([&] {
    grad_at(d, [&](Builder& bb, const Atoms& a) {
      FunctionTrace t(bb, {z});
      const Atoms outs{mul(t.builder(), t.inputs()[0], a[0])};
      return t.custom_jvp_call(outs, "scale", rule("scale_jvp", [](Builder&, const Atoms& q) { return q; }));
    }, {z});
  });
  EXPECT_NE(msg.find("closes over a value that is being differentiated"), std::string::npos) << msg;
}

// A program read back from JSON runs; a derivative that needs the rule names it.
TEST(CustomJvp, ReadFromJsonRunsButKeepsOnlyTheRulesName) {
  Builder b;
  const Atom x = b.input(f32({2}));
  const Program p = b.build(plus_one_custom_jvp(b, {x}));
  const Program q = program_from_json(to_json(p));
  EXPECT_EQ(to_text(q), to_text(p));
  EXPECT_EQ(run(q, {host_f32({2}, {1, 2})}), (std::vector<float>{2, 3}));
  const std::string msg = testing::error_message([&] { jvp(q); });
  EXPECT_NE(msg.find("f_jvp"), std::string::npos) << msg;
}

// A custom_jvp and a custom_vjp function in a shard_map body, with a psum:
// both executors bitwise equal, and the gradient through the rules.
TEST(CustomCalls, InAShardMapBodyOnBothExecutors) {
  auto mesh = testing::make_mesh({2, 4}, {"a", "b"});
  Builder b;
  const Atom x = b.input(f32({8, 2}));
  const auto body = [&](Builder& bb, const Atoms& blocks) {
    const Atom u = plus_one_custom_jvp(bb, {blocks[0]})[0];
    const Atom v = plus_one_custom_vjp(bb, {u})[0];
    return Atoms{psum(bb, reduce_sum(bb, v, {0, 1}), {"a", "b"})};
  };
  const auto g = grad_at(
      b, [&](Builder& bb, const Atoms& a) {
        return shard_map(bb, mesh, {PartitionSpec{{{"a", "b"}}}}, {PartitionSpec{}}, true, a, body);
      },
      {x});
  const Program p = b.build({g.outputs[0], g.derivs[0]});
  const auto xv = testing::random_floats(16, 3);
  const auto outs = run_both(p, mesh, {host_f32({8, 2}, xv)});
  double want = 0;
  for (float v : xv) want += double(v) + 2;
  EXPECT_NEAR(as_floats(outs[0])[0], want, 1e-4);
  // d/dx of sum(f_vjp(f_jvp(x))): the jvp rule's 3, then bwd's 5 u = 5 (x + 1).
  const auto gx = as_floats(outs[1]);
  for (size_t i = 0; i < xv.size(); ++i) EXPECT_NEAR(gx[i], 3 * 5 * (double(xv[i]) + 1), 1e-4) << i;
}

}  // namespace
}  // namespace shardlab::ir
