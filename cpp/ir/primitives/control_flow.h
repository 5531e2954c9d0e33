// Control flow as primitives holding sub-programs, as JAX's: cond (one of
// several branches, by an index), scan (a body over the leading axis of its
// inputs, with a carry) and while (a body repeated while a predicate holds).
// The executors run cond and while themselves: a cond evaluates the branch
// its index picks (exec/cond_branch.h); a while loops (exec/while_loop.h), every device meeting
// the collectives of each iteration, and the host's time limit cancels a
// loop that never ends. A scan is lowered (ir/transforms/lower.h) to a while
// over its steps, as XLA runs it, so its program stays the size of its body.
#pragma once

#include "ir/core/primitive.h"
#include "ir/primitives/sharding_rules.h"
#include "ir/core/program.h"

namespace shardlab::ir {

/// cond[branches](index, *operands) = branches[index](*operands), index an
/// int32 scalar (clamped to the branches when run), every branch taking the
/// operands' types and giving the same output types. JVP: the cond of the
/// branches' JVPs (tangent outputs only). Transpose: the cond of the
/// branches' transposes. Lowered: the cond of its lowered branches, run as a
/// branch (all branches and a select_n when they hold a shard_map). Batched: the cond of the batched branches,
/// or, for a batched index, every branch (each seeing the operands of the
/// examples that do not take it through stop_gradient) and a select_n per
/// example (JAX's rule). In a shard_map body, an index that varies across devices is an
/// error when a branch holds a collective.
template <>
struct Def<Prim::kCond> : ShardFromProgram<Def<Prim::kCond>> {
  static constexpr const char* kName = "cond";
  static constexpr WeakRule kWeak = WeakRule::kShapeRule;
  static constexpr ParamSchema kParams{{"branches", ParamType::kPrograms}};
  SHARDLAB_TRACE_RULES
  SHARDLAB_BATCH_RULE
  SHARDLAB_LOWER_RULE
};

/// scan[ft_in, ft_out, jaxpr, length, reverse, unroll](consts, init, xs),
/// JAX 0.11's parameters: ft_in counts the consts, carries and xs, ft_out the
/// carries and ys (FlatTrees of Nones in JAX, printed alike). carry = init; for i in 0..length-1 (from the end when reverse):
/// (carry, ys[i]) = jaxpr(consts, carry, xs[i]); gives (carry, ys). JVP: the
/// scan of the body's JVP (consts, carry and xs with their tangents).
/// Transpose: a forward scan of the body's non-linear part stacking its
/// residuals, then a scan of the linear part's transpose the other way.
/// Batched: carries batched along 0, xs and ys along 1. Lowered: a while
/// over the steps with dynamic slices of xs and ys (unrolled only when the
/// body holds a shard_map, which the executors run only at a program's top).
template <>
struct Def<Prim::kScan> : ShardFromProgram<Def<Prim::kScan>> {
  static constexpr const char* kName = "scan";
  static constexpr WeakRule kWeak = WeakRule::kShapeRule;
  static constexpr ParamSchema kParams{{"ft_in", ParamType::kInts, false, false, ParamFormat::kNoneGroups},
                                       {"ft_out", ParamType::kInts, false, false, ParamFormat::kNoneGroups},
                                       {"jaxpr", ParamType::kProgram},
                                       {"length", ParamType::kInt},
                                       {"reverse", ParamType::kBool},
                                       {"unroll", ParamType::kInt}};
  SHARDLAB_TRACE_RULES
  SHARDLAB_BATCH_RULE
  SHARDLAB_LOWER_RULE
  /// Its body on each device's blocks, where no xs is split along the scanned dimension.
  static std::vector<Atom> partition(Partitioner& pt, const PartEqn& e);
};

/// while[body_jaxpr, body_nconsts, cond_jaxpr, cond_nconsts](cond_consts,
/// body_consts, init): carry = init; while cond_jaxpr(cond_consts, carry):
/// carry = body_jaxpr(body_consts, carry); gives carry. JVP: the while of
/// the body's JVP, carrying the tangents of the body consts given one and
/// of the float carries given or made from one (forward mode).
/// Transpose: JAX's error (the trip count is unknown until it runs; reverse
/// mode needs a scan). Batched: every carry along 0 but a read-only one
/// (unbatched and returned unchanged); the loop runs while any example's
/// predicate holds and an example whose predicate fails keeps its carry (a
/// select_n per carry, as JAX's rule for a batched predicate). In a
/// shard_map body, a predicate that varies across devices is an error when
/// the loop holds a collective.
template <>
struct Def<Prim::kWhile> : ShardFromProgram<Def<Prim::kWhile>> {
  static constexpr const char* kName = "while";
  static constexpr WeakRule kWeak = WeakRule::kShapeRule;
  static constexpr ParamSchema kParams{{"body_jaxpr", ParamType::kProgram},
                                       {"body_nconsts", ParamType::kInt},
                                       {"cond_jaxpr", ParamType::kProgram},
                                       {"cond_nconsts", ParamType::kInt}};
  SHARDLAB_EXECUTOR_RULES
  SHARDLAB_BATCH_RULE
};

/// The params of a while of `cond` and `body` (schema order).
Params while_params(ProgramRef cond, int64_t cond_nconsts, ProgramRef body, int64_t body_nconsts);

/// A while equation's parts: its programs and how its operands divide.
struct WhileParts {
  const Program& cond;
  const Program& body;
  size_t cond_nconsts, body_nconsts, num_carry;
};
/// The parts of a while with `params` over `num_operands` operands.
WhileParts while_parts(const Params& params, size_t num_operands);

/// The params of a scan of `body` (schema order).
Params scan_params(ProgramRef body, int64_t length, int64_t num_carry, int64_t num_consts, bool reverse);

/// Whether `p` (or a program nested in it) holds a `prim` equation.
bool holds(const Program& p, Prim prim);

/// The collective `p` (or a program nested in it) performs first, or null.
const char* first_collective(const Program& p);

}  // namespace shardlab::ir
