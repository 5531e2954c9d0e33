// Batching (jax.vmap) of a whole program, as JAX's batching interpreter does
// it equation by equation: every value either has a batch dimension (its
// position in the batched value's shape) or is the same for every example;
// an equation none of whose inputs is batched is emitted unchanged, the
// others through their primitive's batching rule. The helpers below are what
// the rules are written with.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ir/tracing/builder.h"

namespace shardlab::ir {

/// The batch dimension of a value that is the same for every example (JAX's not_mapped).
constexpr int kNotBatched = -1;

/// A value of a batched trace and where its batch dimension is.
struct Batched {
  Atom value;
  int dim = kNotBatched;  ///< the batch dimension, or kNotBatched
  /// Whether the value differs per example.
  bool batched() const { return dim != kNotBatched; }
  /// The rank of one example's value.
  int example_rank() const { return static_cast<int>(value.aval.shape.size()) - (batched() ? 1 : 0); }
};

/// `x` with its batch dimension at `to`: moved there (a transpose), or, for a
/// value the same for every example, repeated `size` times along a new dimension `to`.
Atom move_batch_dim(Builder& b, const Batched& x, int to, int64_t size);

/// Every operand with its batch dimension first (move_batch_dim to 0): what
/// a rule emits its primitive on when a leading dimension is one more of the
/// primitive's own (its parameters' dimensions then shift by one).
std::vector<Atom> batch_dims_first(Builder& b, const std::vector<Batched>& in, int64_t size);

/// Each of `outs` batched along `dim`.
std::vector<Batched> batched_at(const std::vector<Atom>& outs, int dim);

/// `dims` (dimension numbers of one example) as dimensions of the batched
/// value whose batch dimension is at `batch_dim`: those at or after it move up by one.
std::vector<int64_t> skip_batch_dim(const std::vector<int64_t>& dims, int batch_dim = 0);

/// The batching rule of an elementwise primitive: every operand is brought
/// to the result's batched shape, the batch dimension where the first batched
/// operand of the result's rank has it (values the same for every example and
/// batched scalars are repeated), except that the first `scalars_kept`
/// operands stay scalars when they are the same for every example (the
/// primitive repeats a scalar operand itself). The outputs are batched there.
std::vector<Batched> batch_elementwise(Builder& b, Prim prim, const Params& params, const std::vector<Batched>& in,
                                       int64_t size, size_t scalars_kept);

/// Every operand with its batch dimension, if it has one, at 0 (values the
/// same for every example stay as they are): how a rule hands its operands
/// to a body it batches (batched_body).
std::vector<Batched> batch_dims_leading(Builder& b, const std::vector<Batched>& in, int64_t size);

/// The values of `in`.
std::vector<Atom> values_of(const std::vector<Batched>& in);

/// The program `p` (a body traced in `scope`: a custom call's program, a
/// branch, a loop body) batched for operands of the types of `in` (a batched
/// one's batch dimension at 0), every output batched along 0: what a rule
/// emits its primitive with.
ProgramRef batched_body(const Scope& scope, const Program& p, const std::vector<Batched>& in, int64_t size);

/// Emits into `b` the program `p` (traced in b's scope) on the batched
/// `inputs` (one per input of p) for a batch of `size`; returns p's outputs
/// with their batch dimensions. An equation naming the axis_name of the
/// vmap being batched (VmapAxisName) goes through its primitive's
/// batch_over_axis rule (a psum of the examples), even with no operand batched.
std::vector<Batched> batch_program(Builder& b, const Program& p, const std::vector<Batched>& inputs, int64_t size);

/// While it lives, the batching of a jax.vmap with axis_name `name` (none:
/// nullopt) is under way on this thread: batch_program and the bodies its
/// rules batch treat equations naming it as that vmap's collectives.
class VmapAxisName {
 public:
  explicit VmapAxisName(const std::optional<std::string>& name);
  ~VmapAxisName();
  VmapAxisName(const VmapAxisName&) = delete;
  VmapAxisName& operator=(const VmapAxisName&) = delete;

 private:
  const std::string* saved_;
};

}  // namespace shardlab::ir
