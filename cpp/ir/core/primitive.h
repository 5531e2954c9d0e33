// The primitive registry. Every primitive is one `Def<Prim::kX>`
// specialization in the header of its family (primitives/*.h), holding all its
// rules side by side: name, parameter schema, shape rule, evaluation, JVP,
// transpose, batching and a sample to try it on. The
// table below is built from those specializations for every enumerator, so a
// primitive without a Def, or a Def without one of the rules, does not compile.
// Evaluation comes in three kinds: local (a function of the operands), on a
// device (collectives, which meet the other devices), or by the executor
// (shard_map, whose evaluation is the distribution of its body itself, and
// while, whose body runs as many times as its predicate says).
// The generic passes (tracing, printing, evaluation, autodiff) only look rules up.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/core/aval.h"
#include "ir/core/params.h"
#include "runtime/collectives/collectives.h"

namespace shardlab::ir {

/// Every primitive; kCount last.
enum class Prim : uint16_t {
  // elementwise.h
  kAdd,
  kAddAny,
  kSub,
  kMul,
  kDiv,
  kNeg,
  kMax,
  kMin,
  kPow,
  kRem,
  kAtan2,
  kNextafter,
  // unary_math.h
  kExp,
  kLog,
  kTanh,
  kLogistic,
  kSqrt,
  kRsqrt,
  kSquare,
  kIntegerPow,
  kAbs,
  kSign,
  kFloor,
  kRound,
  kSin,
  kCos,
  kTan,
  kAsin,
  kAcos,
  kAtan,
  kSinh,
  kCosh,
  kLog1p,
  kExpm1,
  kExp2,
  kCeil,
  kErf,
  kErfInv,
  // comparisons.h
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kIsFinite,
  kSelectN,
  // bitwise.h
  kAnd,
  kOr,
  kXor,
  kNot,
  kShiftLeft,
  kShiftRightLogical,
  kShiftRightArithmetic,
  kThreefry2x32,
  // dtype_ops.h
  kConvertElementType,
  kBitcastConvertType,
  kIota,
  // shape_ops.h
  kBroadcastInDim,
  kReshape,
  kTranspose,
  kSqueeze,
  kExpandDims,
  kRev,
  // indexing.h
  kConcatenate,
  kSlice,
  kPad,
  kDynamicSlice,
  kDynamicUpdateSlice,
  // gather_scatter.h
  kGather,
  kScatter,
  kScatterAdd,
  kScatterMul,
  kScatterMin,
  kScatterMax,
  // linalg.h
  kDotGeneral,
  // decompositions.h
  kCholesky,
  kTriangularSolve,
  kLu,
  kQr,
  kEigh,
  kSvd,
  // reductions.h
  kReduceSum,
  kReduceProd,
  kReduceMax,
  kReduceMin,
  kReduceAnd,
  kReduceOr,
  kArgmax,
  kArgmin,
  kCumsum,
  kCumprod,
  // sorting.h
  kSort,
  // parallel.h
  kPsum,
  kPmax,
  kPmin,
  kPvary,
  kAllGather,
  kAllGatherInvariant,
  kReduceScatter,
  kPpermute,
  kAllToAll,
  kAxisIndex,
  // debug.h
  kDebugCallback,
  // derivatives.h
  kStopGradient,
  kCustomJvpCall,
  kCustomVjpCall,
  kCustomLin,
  // call.h
  kJit,
  kCheckpoint,
  // control_flow.h
  kCond,
  kScan,
  kWhile,
  // sharding_ops.h
  kReshard,
  // shard_map.h
  kShardMap,
  kCount
};

/// Number of primitives.
constexpr size_t kNumPrims = static_cast<size_t>(Prim::kCount);

class Builder;
struct Atom;

/// A dense array the evaluation rules read or write: an aval and its
/// elements (row-major). The aval is borrowed from the program (copying it
/// would allocate for every operand of every equation on every device).
struct Tensor {
  const Aval& aval;
  void* data = nullptr;
  /// The elements as T.
  template <class T>
  T* as() const {
    return static_cast<T*>(data);
  }
};

/// A tangent or cotangent that may be symbolically zero (nullopt).
using MaybeAtom = std::optional<Atom>;

/// Output avals from input avals (errors name the primitive and the shapes).
using ShapeRule = std::vector<Aval> (*)(const Params& params, const std::vector<Aval>& in);
/// Output shardings (over Explicit mesh axes) from the operands' avals and
/// the outputs' avals the shape rule gave, as JAX's sharding_rule: a
/// ShardingError naming the primitive and the fix where it is ambiguous.
using ShardingRule = std::vector<Sharding> (*)(const Params& params, const std::vector<Aval>& in,
                                               const std::vector<Aval>& out);
class Partitioner;
struct PartEqn;
/// Its partitioned form (ir/transforms/partition.h): emits into a per-device
/// body the equations computing this device's blocks of the results, laid
/// out as their types' shardings say, from its blocks of the operands.
using PartitionRule = std::vector<Atom> (*)(Partitioner& pt, const PartEqn& e);
/// The device an evaluation runs on, and its collectives.
struct DeviceContext {
  int device = 0;                      ///< the device's number in the mesh
  Collectives* collectives = nullptr;  ///< the collectives of the mesh
};

/// Computes outputs from inputs (host memory or one device's blocks).
using EvalRule = void (*)(const Params& params, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out);
/// Computes one device's outputs from its inputs together with the other devices.
using DeviceEvalRule = void (*)(const DeviceContext& ctx, const Params& params, const std::vector<const Tensor*>& in,
                                const std::vector<Tensor*>& out);
/// Emits the output tangents given the primal inputs and outputs and the
/// input tangents (nullopt = zero).
using JvpRule = std::vector<MaybeAtom> (*)(Builder& b, const Params& params, const std::vector<Atom>& primals,
                                           const std::vector<Atom>& outputs, const std::vector<MaybeAtom>& tangents);
/// A primitive whose JVP also decides how its primal outputs are computed
/// (checkpoint: its forward equation returns the residuals its policy saves
/// beside them): emits both given the primal inputs and input tangents
/// (nullopt = zero); returns the primal outputs and their tangents.
using JvpWithPrimalRule = std::pair<std::vector<Atom>, std::vector<MaybeAtom>> (*)(Builder& b, const Params& params,
                                                                                   const std::vector<Atom>& primals,
                                                                                   const std::vector<MaybeAtom>& tangents);
/// Emits the cotangents of the linear inputs given output cotangents
/// (nullopt = zero); `linear[i]` marks the inputs the primitive is linear in,
/// whose primal values are unknown.
using TransposeRule = std::vector<MaybeAtom> (*)(Builder& b, const Params& params, const std::vector<MaybeAtom>& cts,
                                                 const std::vector<Atom>& inputs, const std::vector<bool>& linear);

struct Batched;
/// Emits the equation on inputs of which at least one is batched (jax.vmap,
/// ir/transforms/batching.h) for a batch of `size`; returns the outputs with their batch
/// dimensions.
using BatchRule = std::vector<Batched> (*)(Builder& b, const Params& params, const std::vector<Batched>& in,
                                           int64_t size);

/// Operands and parameters a primitive can be tried on: the generic tests
/// over the registry (batching against a loop over the batch, ...) run every
/// primitive on its sample. A collective's names the axis "i" of a mesh of
/// 8 devices ('i': 8), inside whose shard_map body the tests run it.
struct Sample {
  std::vector<Aval> operands;
  Params params;
};
/// A primitive's sample.
using SampleRule = Sample (*)();

/// Emits, in place of the equation, what the executors run instead (ir/transforms/lower.h):
/// a custom call's program, a cond of lowered branches, a scan as a while over its steps.
using LowerRule = std::vector<Atom> (*)(Builder& b, const Params& params, const std::vector<Atom>& in);

/// Avals for samples (Sample): float32, int32 and bool arrays of `shape`,
/// varying along `vma` (inside a shard_map body).
namespace samples {
inline Aval f32(Shape shape, std::vector<std::string> vma = {}) { return Aval{DType::kFloat32, std::move(shape), std::move(vma)}; }
inline Aval i32(Shape shape, std::vector<std::string> vma = {}) { return Aval{DType::kInt32, std::move(shape), std::move(vma)}; }
inline Aval boolean(Shape shape, std::vector<std::string> vma = {}) { return Aval{DType::kBool, std::move(shape), std::move(vma)}; }
}  // namespace samples

/// Binds a jax.lax function while tracing: checks its arguments (named as
/// jax.lax's keywords: axis_name, axis, tiled, ...; optional ones take
/// jax.lax's defaults), completes what the mesh decides (axis sizes), pvary's
/// the operands along the function's axes as JAX does, and emits the
/// primitive; returns the results, one per operand.
using BindRule = std::vector<Atom> (*)(Builder& b, const Params& args, const std::vector<Atom>& operands);

/// The axes a primitive run on a device names (the mesh axes a collective's
/// devices meet over, or a jax.vmap's axis_name while it is traced), from its parameters.
using GroupAxesRule = const std::vector<std::string>& (*)(const Params& params);

/// Emits an equation naming `axis`, the axis_name of the jax.vmap being
/// batched (ir/transforms/batching.h), for its batch of `size` examples, as
/// JAX's collective batching rules do with the examples standing for the
/// axis' devices (a psum sums the batch); returns the outputs with their batch dimensions.
using AxisBatchRule = std::vector<Batched> (*)(Builder& b, const Params& params, const std::vector<Batched>& in,
                                               int64_t size, const std::string& axis);

/// What one call of a collective moves on the threaded runtime (Traffic,
/// runtime/collectives/collectives.h), from its operands' avals (one
/// device's blocks), its group's size and whether its result is the group's
/// one shared buffer (shared_output_group).
using TrafficRule = Traffic (*)(const Params& params, const std::vector<Aval>& in, int n, bool shared_out);

/// Which operands' weak types make a result weakly typed (JAX's
/// weak_type_rule): a Def names its own as `kWeak`, else kAllOperands.
enum class WeakRule : uint8_t {
  kAllOperands,  ///< weak when every operand is (JAX's standard rule)
  kFirstOperand, ///< the operand's (gather, scatter, dynamic slices: indices and updates do not count)
  kCases,        ///< select_n's: every case weak, the predicate aside
  kEachOperand,  ///< result i as operand i (collectives, sort, stop_gradient)
  kNever,        ///< never weak (iota, argmax, bitcast, the random bits)
  kShapeRule,    ///< as the shape rule sets it (convert_element_type's parameter; a call's program's results)
};

/// Whether result `i` of a primitive with rule `rule` is weak, given its operands' avals.
bool weak_result(WeakRule rule, const std::vector<Aval>& in, size_t i);

/// A jax.lax function: what the JS API and the device runtime call by name.
struct LaxFunction {
  const char* name = nullptr;  ///< jax.lax's name (psum_scatter binds reduce_scatter, pcast binds pvary)
  ParamSchema args;            ///< its arguments besides the operands
  BindRule bind = nullptr;     ///< how it binds
  bool takes_operands = true;  ///< false for axis_index, which reads none

  /// Binds it: `args` with each optional argument left out given its default, then `bind`.
  std::vector<Atom> call(Builder& b, Params args, const std::vector<Atom>& operands) const;
};

/// All the rules of one primitive; exactly one of eval and eval_on_device is
/// set, or neither for a primitive the executors run themselves.
struct PrimitiveDef {
  const char* name;
  ParamSchema params;
  ShapeRule shape;
  EvalRule eval;
  DeviceEvalRule eval_on_device;
  JvpRule jvp;  ///< null when jvp_with_primal stands for it
  TransposeRule transpose;
  BatchRule batch;
  SampleRule sample;
  /// Its sharding rule (ir/primitives/sharding_rules.h).
  ShardingRule sharding = nullptr;
  /// Its partition rule, beside its sharding rule (ir/transforms/partition.h).
  PartitionRule partition = nullptr;
  /// Whether it sends data between devices (psum, all_gather, ...): the
  /// program JSON marks its equations, and the page's pictures list them.
  bool collective = false;
  /// A collective's group: the axes its devices meet over (null otherwise).
  GroupAxesRule group_axes = nullptr;
  /// The axes a primitive run on a device names (null for the others).
  GroupAxesRule axis_names = nullptr;
  /// Its batching over a jax.vmap's own axis_name (null for the others).
  AxisBatchRule batch_over_axis = nullptr;
  /// A collective's traffic (null otherwise).
  TrafficRule traffic = nullptr;
  /// The jax.lax function that binds it at trace time (name null for the
  /// primitives the JS API emits directly).
  LaxFunction lax{};
  /// For a primitive the executors do not run as such, what they run instead (else null).
  LowerRule lower = nullptr;
  /// Its JVP when it emits the primal outputs itself (else null; jvp then).
  JvpWithPrimalRule jvp_with_primal = nullptr;
  /// A call's program parameter (else null): the primitive hands its operands
  /// one for one to that program's inputs and gives its outputs one for one
  /// (jit, the custom calls; shard_map, block by block). The program JSON
  /// marks such equations, which the checker's data-flow queries follow.
  const char* call_program = nullptr;
  /// Which operands' weak types its results take (see WeakRule).
  WeakRule weak = WeakRule::kAllOperands;
  /// Whether it acts on the host (debug_callback: its Def's kEffect): dead-code
  /// elimination keeps it though it has no outputs, and its device rule runs
  /// outside shard_map bodies too, as device -1.
  bool effect = false;
  /// Parameters JAX 0.11 has and ShardLab leaves None (shardings, which are
  /// not in its types yet), space-separated: the printed program shows them
  /// as JAX prints them (`reduce_sum[axes=(0,) out_sharding=None]`).
  const char* none_params = nullptr;
};

/// The rules of primitive P: specialized once, in the primitive's family
/// header, as `{ static constexpr const char* kName = "..."; SHARDLAB_RULES }`,
/// and defined in the family's .cc file.
template <Prim P>
struct Def;

/// Declares a Def's shape rule.
#define SHARDLAB_SHAPE_RULE static std::vector<Aval> shape(const Params& p, const std::vector<Aval>& in);
/// Declares a Def's JVP rule.
#define SHARDLAB_JVP_RULE                                                                          \
  static std::vector<MaybeAtom> jvp(Builder& b, const Params& p, const std::vector<Atom>& primals, \
                                    const std::vector<Atom>& outputs, const std::vector<MaybeAtom>& tangents);
/// Declares a Def's transpose rule.
#define SHARDLAB_TRANSPOSE_RULE                                                                               \
  static std::vector<MaybeAtom> transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts, \
                                          const std::vector<Atom>& inputs, const std::vector<bool>& linear);
/// Declares a Def's batching rule (a Def may take it from a base instead,
/// primitives/rule_bases.h).
#define SHARDLAB_BATCH_RULE \
  static std::vector<Batched> batch(Builder& b, const Params& p, const std::vector<Batched>& in, int64_t size);
/// Declares a Def's sharding rule and the partition rule that computes what
/// it types (a Def may take both from a base instead, primitives/sharding_rules.h).
#define SHARDLAB_SHARDING_RULE                                                        \
  static std::vector<Sharding> sharding(const Params& p, const std::vector<Aval>& in, \
                                        const std::vector<Aval>& out);                \
  static std::vector<Atom> partition(Partitioner& pt, const PartEqn& e);
/// Declares a Def's sample (Sample).
#define SHARDLAB_SAMPLE static Sample sample();
/// Declares a Def's local evaluation rule.
#define SHARDLAB_EVAL_RULE \
  static void eval(const Params& p, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out);

/// Declares the shape, JVP and transpose rules and the sample every Def<P>
/// defines (its batching rule it declares itself or takes from a base).
#define SHARDLAB_TRACE_RULES SHARDLAB_SHAPE_RULE SHARDLAB_JVP_RULE SHARDLAB_TRANSPOSE_RULE SHARDLAB_SAMPLE

/// Declares the rules of a primitive evaluated locally (see PrimitiveDef).
#define SHARDLAB_RULES SHARDLAB_TRACE_RULES SHARDLAB_EVAL_RULE

/// Declares the rules of a primitive evaluated locally and linear in none of
/// its operands: the Def derives from NotLinear<Def> (primitives/rule_bases.h),
/// which gives its transpose rule.
#define SHARDLAB_NONLINEAR_RULES SHARDLAB_SHAPE_RULE SHARDLAB_JVP_RULE SHARDLAB_EVAL_RULE SHARDLAB_SAMPLE

/// Declares the rules of a primitive evaluated locally whose outputs are
/// piecewise constant (comparisons): the Def derives from
/// NonDifferentiable<Def>, which gives its zero JVP and its transpose rule.
#define SHARDLAB_NONDIFFERENTIABLE_RULES SHARDLAB_SHAPE_RULE SHARDLAB_EVAL_RULE SHARDLAB_SAMPLE

/// Declares the rules of a primitive evaluated on a device with its peers
/// over named axes (a collective, pvary, axis_index): the axes it names, and
/// its batching over a jax.vmap's own axis_name (AxisBatchRule).
#define SHARDLAB_DEVICE_RULES                                                                                 \
  SHARDLAB_TRACE_RULES                                                                                        \
  static void eval_on_device(const DeviceContext& ctx, const Params& p, const std::vector<const Tensor*>& in, \
                             const std::vector<Tensor*>& out);                                                \
  static const std::vector<std::string>& axis_names(const Params& p);                                        \
  static std::vector<Batched> batch_over_axis(Builder& b, const Params& p, const std::vector<Batched>& in,    \
                                              int64_t size, const std::string& axis);

/// Declares a Def's bind rule: the Def also names its jax.lax function
/// (`kLaxName`) and that function's arguments (`kLaxArgs`).
#define SHARDLAB_BIND_RULE \
  static std::vector<Atom> bind(Builder& b, const Params& args, const std::vector<Atom>& operands);

/// Declares the rules of a collective bound by another's jax.lax function
/// (all_gather_invariant, by all_gather's to='invarying'): evaluated on a
/// device, sending data between the devices of a group (group_axes) as its
/// traffic says.
#define SHARDLAB_UNBOUND_COLLECTIVE_RULES                              \
  SHARDLAB_DEVICE_RULES                                                \
  static Traffic traffic(const Params& p, const std::vector<Aval>& in, int n, bool shared_out); \
  static constexpr bool kCollective = true;

/// Declares the rules of a collective bound by its own jax.lax function.
#define SHARDLAB_COLLECTIVE_RULES SHARDLAB_UNBOUND_COLLECTIVE_RULES SHARDLAB_BIND_RULE

/// Declares the rules of a primitive the executors evaluate themselves (shard_map).
#define SHARDLAB_EXECUTOR_RULES \
  SHARDLAB_TRACE_RULES          \
  static constexpr bool kRunByExecutor = true;

/// Declares a Def's lowering rule: the executors run what it emits instead
/// of the primitive (ir/transforms/lower.h).
#define SHARDLAB_LOWER_RULE                                                                            \
  static std::vector<Atom> lower(Builder& b, const Params& p, const std::vector<Atom>& in); \
  static constexpr bool kRunByExecutor = true;

/// The rules of `p`.
const PrimitiveDef& primitive(Prim p);

/// The primitive printed as `name`; throws a ValueError listing the valid names.
Prim primitive_named(const std::string& name);

/// The jax.lax function `name` (a primitive's, or a composite such as pmean);
/// throws a ValueError listing the valid names.
const LaxFunction& lax_function(const std::string& name);

}  // namespace shardlab::ir
