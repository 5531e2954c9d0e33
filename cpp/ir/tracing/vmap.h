// jax.vmap in the middle of a trace: the function is traced on one example
// of each argument in a builder nested in the enclosing one (values it
// captures from there are the same for every example), then batched into the
// enclosing trace (ir/transforms/batching.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/transforms/batching.h"
#include "ir/tracing/builder.h"

namespace shardlab::ir {

/// A mapped axis as jax.vmap's in_axes and out_axes give it: a dimension
/// (negative ones count from the end), or nullopt (None: not mapped).
using MapAxis = std::optional<int>;

/// A function being traced for jax.vmap. Callers (the JS tracer, vmap_at)
/// trace the function on inputs(), then finish().
class VmapTrace {
 public:
  /// Starts tracing jax.vmap(f, in_axes, axis_size=axis_size,
  /// axis_name=axis_name)(*args) on values of `outer`: args[i] is mapped
  /// along in_axes[i]. The batch size is that of the mapped axes (which must
  /// agree) or `axis_size` when given (it must then be given if no argument
  /// is mapped). With `axis_name`, collectives in f may name it: a psum over
  /// it sums the batch (batch_over_axis).
  VmapTrace(Builder& outer, std::vector<Atom> args, const std::vector<MapAxis>& in_axes,
            std::optional<int64_t> axis_size, std::optional<std::string> axis_name = std::nullopt);
  /// The function's builder.
  Builder& builder() { return inner_; }
  /// One example of each argument (its mapped dimension taken out).
  const std::vector<Atom>& inputs() const { return inputs_; }
  /// The batch size.
  int64_t size() const { return size_; }
  /// The function's outputs `outs` (values of builder()) for the whole batch,
  /// emitted into the outer builder: output j with its batch dimension at
  /// out_axes[j] (repeated if it is the same for every example), or, for
  /// None, as it is (an error if it differs across the batch).
  std::vector<Atom> finish(std::vector<Atom> outs, const std::vector<MapAxis>& out_axes);

 private:
  Builder& outer_;
  std::vector<Batched> args_;
  int64_t size_ = 0;
  std::optional<std::string> axis_name_;
  Builder inner_;
  std::vector<Atom> inputs_;
};

/// jax.vmap(f, in_axes, out_axes, axis_size=axis_size, axis_name=axis_name)(*args), emitted into b.
std::vector<Atom> vmap_at(Builder& b, const TracedFn& f, const std::vector<Atom>& args,
                          const std::vector<MapAxis>& in_axes, const std::vector<MapAxis>& out_axes,
                          std::optional<int64_t> axis_size = std::nullopt,
                          std::optional<std::string> axis_name = std::nullopt);

}  // namespace shardlab::ir
