// Primitives that steer differentiation: stop_gradient (a value whose
// derivative is taken to be zero) and the custom-derivative calls, which run
// a function's own program but differentiate through rules the user gave
// (jax.custom_jvp, jax.custom_vjp). A call's program may close over values
// of the enclosing trace: they come first among its operands (num_consts),
// and rules see only the others.
#pragma once

#include "ir/transforms/lower.h"
#include "ir/core/primitive.h"
#include "ir/primitives/rule_bases.h"
#include "ir/core/program.h"

namespace shardlab::ir {

/// stop_gradient: z = x, with dz = 0 whatever dx is (jax.lax.stop_gradient);
/// not linear, so it has no transpose.
template <>
struct Def<Prim::kStopGradient> : NonDifferentiable<Def<Prim::kStopGradient>>, BatchPerOperand<Prim::kStopGradient>, ShardPerOperand<Def<Prim::kStopGradient>, true> {
  static constexpr const char* kName = "stop_gradient";
  static constexpr WeakRule kWeak = WeakRule::kEachOperand;
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONDIFFERENTIABLE_RULES
};

/// The output types of a custom call (`prim`): its program's, for operands of its input types.
std::vector<Aval> call_shape(const char* prim, const Params& p, const std::vector<Aval>& in);

/// What the two custom calls share: their types and what runs are their
/// program's (the rules only matter to derivatives); linear in nothing.
template <class D>
struct CustomCall : NotLinear<D> {
  static std::vector<Aval> shape(const Params& p, const std::vector<Aval>& in) { return call_shape(D::kName, p, in); }
  static std::vector<Atom> lower(Builder& b, const Params& p, const std::vector<Atom>& in) {
    return emit_lowered(b, *param<ProgramRef>(p, "call_jaxpr", D::kName), in);
  }
  static constexpr bool kRunByExecutor = true;
  static constexpr const char* kCallProgram = "call_jaxpr";
};

/// custom_jvp_call[name, call_jaxpr, jvp, num_consts, symbolic_zeros]:
/// y = call_jaxpr(consts, x). JVP: (y', dy) = jvp((x), (dx)), the rule traced
/// when the derivative is taken (dy from the rule; y is the call's). Batched:
/// the call of the batched program, its rule batched by vmap, every output
/// batched along 0. Not linear.
template <>
struct Def<Prim::kCustomJvpCall> : CustomCall<Def<Prim::kCustomJvpCall>>, ShardFromProgram<Def<Prim::kCustomJvpCall>> {
  static constexpr const char* kName = "custom_jvp_call";
  static constexpr WeakRule kWeak = WeakRule::kShapeRule;
  static constexpr ParamSchema kParams{{"name", ParamType::kString},
                                       {"call_jaxpr", ParamType::kProgram},
                                       {"jvp", ParamType::kRule},
                                       {"num_consts", ParamType::kInt, false, true},
                                       {"symbolic_zeros", ParamType::kBool}};
  SHARDLAB_JVP_RULE
  SHARDLAB_BATCH_RULE
  SHARDLAB_SAMPLE
};

/// custom_vjp_call[name, bwd, call_jaxpr, fwd, num_consts, symbolic_zeros]:
/// y = call_jaxpr(consts, x). JVP: (y', res) = fwd(x), traced when the
/// derivative is taken, and dy = custom_lin[bwd](res, y, dx), whose
/// transpose is bwd(res, ct_y). Batched like custom_jvp_call (fwd and bwd
/// batched by vmap). Not linear.
template <>
struct Def<Prim::kCustomVjpCall> : CustomCall<Def<Prim::kCustomVjpCall>>, ShardFromProgram<Def<Prim::kCustomVjpCall>> {
  static constexpr const char* kName = "custom_vjp_call";
  static constexpr WeakRule kWeak = WeakRule::kShapeRule;
  static constexpr ParamSchema kParams{{"name", ParamType::kString},
                                       {"bwd", ParamType::kRule},
                                       {"call_jaxpr", ParamType::kProgram},
                                       {"fwd", ParamType::kRule},
                                       {"num_consts", ParamType::kInt, false, true},
                                       {"symbolic_zeros", ParamType::kBool}};
  SHARDLAB_JVP_RULE
  SHARDLAB_BATCH_RULE
  SHARDLAB_SAMPLE
};

/// custom_lin[bwd, num_outs, num_res, symbolic_zeros](res, y, dx) = dy: the
/// linear map whose transpose is custom_vjp's bwd (ct_x = bwd(res, ct_y));
/// y only gives dy's types. It exists only to be transposed: evaluating,
/// differentiating or batching it is JAX's error for a jvp of a custom_vjp.
template <>
struct Def<Prim::kCustomLin> : ShardFromProgram<Def<Prim::kCustomLin>> {
  static constexpr const char* kName = "custom_lin";
  static constexpr WeakRule kWeak = WeakRule::kShapeRule;
  static constexpr ParamSchema kParams{{"bwd", ParamType::kRule},
                                       {"num_outs", ParamType::kInt},
                                       {"num_res", ParamType::kInt},
                                       {"symbolic_zeros", ParamType::kBool}};
  SHARDLAB_TRACE_RULES
  SHARDLAB_BATCH_RULE
  SHARDLAB_LOWER_RULE  // JAX's error: it exists only to be transposed
};

/// JAX's message for forward-mode differentiation of a custom_vjp function.
[[noreturn]] void fail_jvp_of_custom_vjp();

/// Whether `p` (or a program nested in it) holds a custom_lin.
bool has_custom_lin(const Program& p);

}  // namespace shardlab::ir
