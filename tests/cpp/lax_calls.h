// The jax.lax parallel functions as C++ calls, for tests, the fuzzer and the
// native benchmark: each binds its jax.lax function through the registry
// (lax_function: the rules live in cpp/ir/primitives/parallel.cc), as the JS
// and Python faces do. Production code binds by name and needs none of them.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ir/core/primitive.h"
#include "ir/tracing/parallel_ops.h"

namespace shardlab::ir {

/// jax.lax function `name` with keyword arguments `args` on the leaves `xs`.
inline std::vector<Atom> lax_call(Builder& b, const char* name, Params args, const std::vector<Atom>& xs) {
  return lax_function(name).call(b, args, xs);
}
/// lax_call on one operand, its one result.
inline Atom lax_call1(Builder& b, const char* name, Params args, const Atom& x) {
  return lax_call(b, name, std::move(args), {x})[0];
}

/// jax.lax.psum of a tree: one psum equation over all the leaves (one rendezvous of the devices).
inline std::vector<Atom> psum(Builder& b, const std::vector<Atom>& xs, const AxisNames& axes) {
  return lax_call(b, "psum", {{"axis_name", axes}}, xs);
}
/// jax.lax.pmean of a tree: one psum equation, then a division per leaf.
inline std::vector<Atom> pmean(Builder& b, const std::vector<Atom>& xs, const AxisNames& axes) {
  return lax_call(b, "pmean", {{"axis_name", axes}}, xs);
}
/// jax.lax.psum(x, axes).
inline Atom psum(Builder& b, const Atom& x, const AxisNames& axes) { return lax_call1(b, "psum", {{"axis_name", axes}}, x); }
/// jax.lax.pmean(x, axes): psum(x, axes) / (product of the axis sizes).
inline Atom pmean(Builder& b, const Atom& x, const AxisNames& axes) { return lax_call1(b, "pmean", {{"axis_name", axes}}, x); }
/// jax.lax.pmax(x, axes).
inline Atom pmax(Builder& b, const Atom& x, const AxisNames& axes) { return lax_call1(b, "pmax", {{"axis_name", axes}}, x); }
/// jax.lax.pmin(x, axes).
inline Atom pmin(Builder& b, const Atom& x, const AxisNames& axes) { return lax_call1(b, "pmin", {{"axis_name", axes}}, x); }

/// jax.lax.all_gather(x, axes, axis=axis, tiled=tiled).
inline Atom all_gather(Builder& b, const Atom& x, const AxisNames& axes, int axis, bool tiled) {
  return lax_call1(b, "all_gather", {{"axis_name", axes}, {"axis", int64_t{axis}}, {"tiled", tiled}}, x);
}
/// jax.lax.all_gather(x, axes, axis=axis, tiled=tiled, to='invarying'): all_gather_invariant.
inline Atom all_gather_invariant(Builder& b, const Atom& x, const AxisNames& axes, int axis, bool tiled) {
  return lax_call1(b, "all_gather",
                   {{"axis_name", axes}, {"axis", int64_t{axis}}, {"tiled", tiled}, {"to", std::string("invarying")}}, x);
}
/// jax.lax.psum_scatter(x, axes, scatter_dimension=dim, tiled=tiled).
inline Atom psum_scatter(Builder& b, const Atom& x, const AxisNames& axes, int dim, bool tiled) {
  return lax_call1(b, "psum_scatter", {{"axis_name", axes}, {"scatter_dimension", int64_t{dim}}, {"tiled", tiled}}, x);
}
/// jax.lax.ppermute(x, axes, perm): (source, destination) position pairs.
inline Atom ppermute(Builder& b, const Atom& x, const AxisNames& axes, const std::vector<std::pair<int, int>>& perm) {
  IntLists pairs;
  for (const auto& [src, dst] : perm) pairs.push_back({src, dst});
  return lax_call1(b, "ppermute", {{"axis_name", axes}, {"perm", pairs}}, x);
}
/// jax.lax.all_to_all(x, axes, split_axis, concat_axis, tiled=tiled).
inline Atom all_to_all(Builder& b, const Atom& x, const AxisNames& axes, int split_axis, int concat_axis, bool tiled) {
  return lax_call1(b, "all_to_all",
                   {{"axis_name", axes}, {"split_axis", int64_t{split_axis}}, {"concat_axis", int64_t{concat_axis}}, {"tiled", tiled}},
                   x);
}
/// jax.lax.axis_index(axes): this device's position along the axes (major first).
inline Atom axis_index(Builder& b, const AxisNames& axes) { return lax_call(b, "axis_index", {{"axis_name", axes}}, {})[0]; }

}  // namespace shardlab::ir
