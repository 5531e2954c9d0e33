// Sharding in types (JAX's sharding rules): each primitive's rule computes
// its outputs' shardings over Explicit mesh axes from its operands', or
// raises JAX's ShardingTypeError (a ShardingError here) where the answer is
// ambiguous, naming the fix (out_sharding=, jax.reshard); beside it, its
// partition rule computes what it types on each device's blocks
// (ir/transforms/partition.h). The rules many primitives share are bases of
// their Def (CRTP, for the name), like the batching bases; the registry takes
// every Def's `sharding` and `partition`, so a Def with neither its own rules
// nor a base does not compile.
#pragma once

#include <string>
#include <vector>

#include "ir/core/primitive.h"
#include "ir/transforms/partition.h"

namespace shardlab::ir {

/// The mesh the sharded operands share (empty if none is sharded); a
/// ShardingError names `name` when two differ ("Mesh for all inputs should be equal").
std::vector<MeshAxis> common_mesh(const char* name, const std::vector<Aval>& in);

/// Refuses operands unreduced over some axes for a primitive not linear in
/// them (its result of partial sums would be wrong), naming the fix. A
/// reduced operand is replicated (JAX 301: only autodiff tells them apart).
void check_settled(const char* name, const std::vector<Aval>& in);

/// The axes the operands are reduced over (JAX's default_nary_reduced_rule):
/// where one is reduced, every other (scalars aside) is reduced over the
/// same axes, else a ShardingError; the result is reduced over them.
std::vector<std::string> common_reduced(const char* name, const std::vector<Aval>& in);

/// JAX's broadcasting_sharding_rule: operands of equal rank (scalars aside)
/// agree per dimension, an unsharded dimension of size 1 or None taking the
/// other's sharding; two different shardings of one dimension are an error.
/// `linear`: the primitive is a sum of its operands (add, sub), so operands
/// unreduced over the same axes give a result unreduced over them.
Sharding broadcast_sharding(const char* name, const std::vector<Aval>& in, bool linear);

/// The sharding of a result whose dimension k is operand dimension
/// `from[k]` (-1: a new, unsharded dimension), keeping the operand's
/// unreduced and reduced axes.
Sharding mapped_sharding(const Sharding& s, const std::vector<int64_t>& from);

/// JAX's _get_sharding_for_varying_out_shape (slice, pad, dynamic_slice): the
/// operand's sharding, where every sharded dimension that changes size
/// still divides over its axes (else a ShardingError naming `what`).
Sharding varying_shape_sharding(const char* what, const Aval& operand, const Aval& out);

/// Every result shares the sharding of the broadcast of all operands
/// (binary arithmetic, comparisons, bitwise ops).
template <class D>
struct ShardBroadcast {
  static std::vector<Sharding> sharding(const Params&, const std::vector<Aval>& in, const std::vector<Aval>& out) {
    check_settled(D::kName, in);
    return std::vector<Sharding>(out.size(), broadcast_sharding(D::kName, in, false));
  }
  static std::vector<Atom> partition(Partitioner& pt, const PartEqn& e) { return pt.local(e); }
};

/// As ShardBroadcast, for a sum of its operands (add, add_any, sub): operands
/// unreduced over the same axes give a result unreduced over them.
template <class D>
struct ShardSum {
  static std::vector<Sharding> sharding(const Params&, const std::vector<Aval>& in, const std::vector<Aval>& out) {
    return std::vector<Sharding>(out.size(), broadcast_sharding(D::kName, in, true));
  }
  static std::vector<Atom> partition(Partitioner& pt, const PartEqn& e) { return pt.local(e); }
};

/// Result i is sharded as operand i (unary math, dtype conversions, rev,
/// cumulative reductions, and in shard_map bodies the collectives, whose
/// values are unsharded). `kLinear`: linear in its operand (neg, a
/// conversion), so unreduced and reduced axes pass through.
template <class D, bool kLinear = false>
struct ShardPerOperand {
  static std::vector<Sharding> sharding(const Params&, const std::vector<Aval>& in, const std::vector<Aval>& out) {
    if (!kLinear) check_settled(D::kName, in);
    std::vector<Sharding> r;
    for (size_t i = 0; i < out.size(); ++i) r.push_back(i < in.size() ? in[i].sharding : Sharding{});
    return r;
  }
  static std::vector<Atom> partition(Partitioner& pt, const PartEqn& e) { return pt.local(e); }
};

/// Typed as ShardPerOperand, for a primitive working along dimensions (rev,
/// the cumulative reductions): partitioned on whole operands, which a
/// sharded dimension it works along needs.
template <class D, bool kLinear = false>
struct ShardAlongDims : ShardPerOperand<D, kLinear> {
  static std::vector<Atom> partition(Partitioner& pt, const PartEqn& e) { return pt.gathered(e); }
};

/// Results of a primitive that makes values from no sharded input (iota,
/// axis_index, the random bits' keys): unsharded.
template <class D>
struct ShardNone {
  static std::vector<Sharding> sharding(const Params&, const std::vector<Aval>& in, const std::vector<Aval>& out) {
    check_settled(D::kName, in);
    return std::vector<Sharding>(out.size());
  }
  static std::vector<Atom> partition(Partitioner& pt, const PartEqn& e) { return pt.gathered(e); }
};

/// A reduction over its `axes` parameter: the reduced dimensions leave the
/// result, the others keep their sharding (reducing a sharded dimension is
/// the partitioner's all-reduce). `kLinear`: reduce_sum, which keeps
/// unreduced axes.
template <class D, bool kLinear = false>
struct ShardReduction {
  static std::vector<Sharding> sharding(const Params& p, const std::vector<Aval>& in, const std::vector<Aval>& out);
  static std::vector<Atom> partition(Partitioner& pt, const PartEqn& e) { return pt.reduction(e, combine_of(e.prim)); }
};

/// A primitive over stacks of matrices [..., m, n] (the jax.lax.linalg
/// decompositions): every result keeps the operands' shared sharding of the
/// leading dimensions; the matrix dimensions must be unsharded.
template <class D>
struct ShardLeading {
  static std::vector<Sharding> sharding(const Params& p, const std::vector<Aval>& in, const std::vector<Aval>& out);
  static std::vector<Atom> partition(Partitioner& pt, const PartEqn& e) { return pt.as_is(e, e.params); }
};

/// A primitive whose results come from a program it calls (jit, the custom
/// calls, control flow): traced on its operands' types, that program's
/// results carry their shardings, which the shape rule hands on; each
/// device runs the program on its blocks (Partitioner::with_programs).
template <class D>
struct ShardFromProgram {
  static std::vector<Sharding> sharding(const Params&, const std::vector<Aval>&, const std::vector<Aval>& out) {
    std::vector<Sharding> r;
    for (const Aval& a : out) r.push_back(a.sharding);
    return r;
  }
  static std::vector<Atom> partition(Partitioner& pt, const PartEqn& e) { return pt.with_programs(e); }
};

/// Refuses operands sharded over Explicit axes where ShardLab has no rule
/// yet (gather, scatter, sort along a sharded dimension): the error names
/// jax.reshard to P() as the way through.
void unsupported_sharded(const char* name, const std::vector<Aval>& in);

/// Results unsharded, operands required unsharded (unsupported_sharded).
template <class D>
struct ShardUnsharded {
  static std::vector<Sharding> sharding(const Params&, const std::vector<Aval>& in, const std::vector<Aval>& out) {
    unsupported_sharded(D::kName, in);
    return std::vector<Sharding>(out.size());
  }
  static std::vector<Atom> partition(Partitioner& pt, const PartEqn& e) { return pt.as_is(e, e.params); }
};

/// The reduction rule's dimensions: those of `in` not in `axes`.
Sharding without_dims(const Sharding& s, size_t rank, const std::vector<int64_t>& axes);

template <class D, bool kLinear>
std::vector<Sharding> ShardReduction<D, kLinear>::sharding(const Params& p, const std::vector<Aval>& in,
                                                          const std::vector<Aval>& out) {
  if (!kLinear) check_settled(D::kName, in);
  const auto& axes = param<std::vector<int64_t>>(p, "axes", D::kName);
  return std::vector<Sharding>(out.size(), without_dims(in.at(0).sharding, in[0].shape.size(), axes));
}

/// The leading-dimensions rule for `name`.
std::vector<Sharding> leading_sharding(const char* name, const std::vector<Aval>& in, const std::vector<Aval>& out);

template <class D>
std::vector<Sharding> ShardLeading<D>::sharding(const Params&, const std::vector<Aval>& in,
                                                const std::vector<Aval>& out) {
  return leading_sharding(D::kName, in, out);
}

}  // namespace shardlab::ir
