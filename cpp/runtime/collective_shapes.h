// Shape rules of the collectives, as jax.lax defines them. They run before
// any data moves (on the host, and again on each device), so a bad argument is
// reported with the shapes and the valid choices instead of corrupting memory.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "runtime/shape.h"

namespace shardlab {

/// A ppermute permutation: (source, destination) positions along the axes.
using Permutation = std::vector<std::pair<int, int>>;

/// all_gather(x, axis=axis, tiled): tiled concatenates the n blocks along
/// `axis` (size d -> n*d); untiled stacks them in a new dimension of size n
/// inserted at `axis` (0 <= axis <= rank).
Shape all_gather_shape(const Shape& in, int n, int axis, bool tiled);

/// psum_scatter(x, scatter_dimension=dim, tiled): tiled splits dimension
/// `dim` (size n*c -> c); untiled requires size n and removes the dimension.
Shape reduce_scatter_shape(const Shape& in, int n, int dim, bool tiled);

/// all_to_all(x, split_axis, concat_axis, tiled): tiled divides split_axis by n
/// and multiplies concat_axis by n; untiled requires x.shape[split_axis] == n
/// and gives np.insert(np.delete(x.shape, split_axis), concat_axis, n).
Shape all_to_all_shape(const Shape& in, int n, int split_axis, int concat_axis, bool tiled);

/// Checks a ppermute permutation over a group of n devices: every index in
/// 0..n-1, no source or destination twice.
void check_permutation(const Permutation& perm, int n, const std::string& axes_label);

}  // namespace shardlab
