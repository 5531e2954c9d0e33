// checkpoint (jax.checkpoint / jax.remat): the same values and derivatives
// as the program without it, for every policy; the backward pass recomputes
// what the policy does not save (counted in the reverse-mode program: the
// sines of f run once forward and again backward under policy None, once
// under everything_saveable; the matrix product once under dots_saveable),
// printed as JAX prints it; batched, and its errors.
#include <gtest/gtest.h>

#include <functional>

#include "exec/lockstep_program.h"
#include "host_arrays.h"
#include "ir/forms/print.h"
#include "ir/primitives/call.h"
#include "ir/tracing/ops.h"
#include "ir/transforms/vjp.h"
#include "ir_checks.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

using exec::as_floats;
using exec::host_f32;

// f(x, w) = sum(sin(sin(x) @ w)): x [2, 3], w [3, 3].
Program body_program() {
  Builder b;
  const Atom x = b.input(f32({2, 3})), w = b.input(f32({3, 3}));
  const Atom h = matmul(b, unary(b, Prim::kSin, x), w);
  return b.build({reduce_sum(b, unary(b, Prim::kSin, h), {0, 1})});
}

// The program calling f through a checkpoint of `policy` (or inline when policy is empty).
Program with_checkpoint(const std::string& policy) {
  Builder b;
  const Atom x = b.input(f32({2, 3})), w = b.input(f32({3, 3}));
  const Program f = body_program();
  if (policy.empty()) return b.build(b.call(f, {x, w}));
  const Params p{{"differentiated", false},
                 {"jaxpr", std::make_shared<const Program>(f)},
                 {"policy", policy},
                 {"prevent_cse", true}};
  return b.build(b.emit(Prim::kCheckpoint, p, {x, w}));
}

// How many equations of `prim` a program holds, its nested programs' included.
int count(const Program& p, Prim prim) {
  int n = 0;
  for (const Eqn& e : p.eqns) {
    n += e.prim == prim;
    for (const Program* q : subprograms(e)) n += count(*q, prim);
  }
  return n;
}

const std::vector<exec::HostArray> kArgs = {host_f32({2, 3}, testing::random_floats(6, 1)),
                                            host_f32({3, 3}, testing::random_floats(9, 2)),
                                            host_f32({}, {1.0f})};

TEST(Checkpoint, EveryPolicyGivesTheSameValueAndGradient) {
  const auto want = exec::interpret(vjp(with_checkpoint("")), kArgs);
  for (const char* policy : {"None", "nothing_saveable", "everything_saveable", "dots_saveable", "dots_with_no_batch_dims_saveable"}) {
    const auto got = exec::interpret(vjp(with_checkpoint(policy)), kArgs);
    ASSERT_EQ(got.size(), want.size()) << policy;
    for (size_t i = 0; i < got.size(); ++i) {
      const auto g = as_floats(got[i]), w = as_floats(want[i]);
      for (size_t k = 0; k < g.size(); ++k) EXPECT_NEAR(g[k], w[k], 1e-6 * (1 + std::abs(w[k]))) << policy << " output " << i;
    }
  }
}

TEST(Checkpoint, TheBackwardPassRecomputesWhatThePolicyDoesNotSave) {
  // Inline: 2 sines forward, none again (their cosines are the derivative's).
  EXPECT_EQ(count(vjp(with_checkpoint("")), Prim::kSin), 2);
  // None: the forward checkpoint's 2 sines; the backward one recomputes the
  // first (s = sin x feeds w's cotangent; the second's value no derivative reads).
  const Program none = vjp(with_checkpoint("None"));
  EXPECT_EQ(count(none, Prim::kSin), 2 + 1);
  EXPECT_EQ(count(none, Prim::kDotGeneral), 2 + 2);  // the product forward, again backward, and its two transposes
  // everything_saveable: nothing recomputed.
  EXPECT_EQ(count(vjp(with_checkpoint("everything_saveable")), Prim::kSin), 2);
  // dots_saveable: the product is saved (computed once), sin x recomputed.
  const Program dots = vjp(with_checkpoint("dots_saveable"));
  EXPECT_EQ(count(dots, Prim::kDotGeneral), 1 + 2);
  EXPECT_EQ(count(dots, Prim::kSin), 2 + 1);
}

TEST(Checkpoint, PrintedAsJaxWithTheDifferentiatedBackwardCheckpoint) {
  Builder b;
  const Atom x = b.input(f32({}));
  Builder body;
  const Atom bx = body.input(f32({}));
  const auto prog = std::make_shared<const Program>(body.build({unary(body, Prim::kSin, unary(body, Prim::kSin, bx))}));
  const Params p{{"differentiated", false}, {"jaxpr", prog}, {"policy", std::string("None")}, {"prevent_cse", true}};
  const Program f = b.build(b.emit(Prim::kCheckpoint, p, {x}));
  EXPECT_EQ(to_text(f),
            "{ lambda ; a:f32[]. let\n"
            "    b:f32[] = remat2[\n"
            "      differentiated=False\n"
            "      jaxpr={ lambda ; c:f32[]. let d:f32[] = sin c; e:f32[] = sin d in (e,) }\n"
            "      policy=None\n"
            "      prevent_cse=True\n"
            "    ] a\n"
            "  in (b,) }");
  const std::string text = to_text(vjp(f));
  EXPECT_NE(text.find("differentiated=True"), std::string::npos) << text;
  EXPECT_NE(text.find("cos"), std::string::npos) << text;
}

TEST(Checkpoint, JvpMatchesFiniteDifferences) {
  check_jvp(
      [](Builder& b, const std::vector<Atom>& in) {
        Builder body;
        const Atom bx = body.input(in[0].aval);
        const auto prog = std::make_shared<const Program>(body.build({mul(body, unary(body, Prim::kSin, bx), bx)}));
        return b.emit1(Prim::kCheckpoint, {{"differentiated", false}, {"jaxpr", prog}, {"policy", std::string("None")}, {"prevent_cse", true}}, in);
      },
      {f32({4})});
}

TEST(Checkpoint, AnUnknownPolicyIsAnError) {
  Builder b;
  Params p = primitive(Prim::kCheckpoint).sample().params;
  p = with_param(p, "policy", std::string("save_only_these_names"));
  EXPECT_EQ(testing::error_message([&] { b.emit(Prim::kCheckpoint, p, {b.input(f32({2, 3}))}); }),
            "jax.checkpoint: policy save_only_these_names is not one ShardLab has; use None, nothing_saveable, "
            "everything_saveable, dots_saveable or dots_with_no_batch_dims_saveable (jax.checkpoint_policies)");
}

}  // namespace
}  // namespace shardlab::ir
