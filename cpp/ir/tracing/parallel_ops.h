// The jax.lax parallel functions as C++ calls (each binds its primitive
// through the registry: the rules live in primitives/parallel.cc), tracing a
// shard_map, and the one-collective program the device runtime runs.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ir/tracing/builder.h"

namespace shardlab::ir {

/// Axis names as jax.lax takes them: one name or several.
using AxisNames = std::vector<std::string>;

/// jax.lax.psum(x, axes).
Atom psum(Builder& b, const Atom& x, const AxisNames& axes);
/// jax.lax.pmean(x, axes): psum(x, axes) / (product of the axis sizes).
Atom pmean(Builder& b, const Atom& x, const AxisNames& axes);
/// jax.lax.pmax(x, axes).
Atom pmax(Builder& b, const Atom& x, const AxisNames& axes);
/// jax.lax.pmin(x, axes).
Atom pmin(Builder& b, const Atom& x, const AxisNames& axes);
/// jax.lax.psum of a tree: one psum equation over all the leaves (one rendezvous of the devices).
std::vector<Atom> psum(Builder& b, const std::vector<Atom>& xs, const AxisNames& axes);
/// jax.lax.pmean of a tree: one psum equation, then a division per leaf.
std::vector<Atom> pmean(Builder& b, const std::vector<Atom>& xs, const AxisNames& axes);
/// jax.lax.pmax of a tree (one equation).
std::vector<Atom> pmax(Builder& b, const std::vector<Atom>& xs, const AxisNames& axes);
/// jax.lax.pmin of a tree (one equation).
std::vector<Atom> pmin(Builder& b, const std::vector<Atom>& xs, const AxisNames& axes);
/// jax.lax.pcast(x, axes, to='varying'): x, typed as varying along `axes`.
Atom pvary(Builder& b, const Atom& x, const AxisNames& axes);
/// jax.lax.all_gather(x, axes, axis=axis, tiled=tiled).
Atom all_gather(Builder& b, const Atom& x, const AxisNames& axes, int axis, bool tiled);
/// jax.lax.psum_scatter(x, axes, scatter_dimension=dim, tiled=tiled).
Atom psum_scatter(Builder& b, const Atom& x, const AxisNames& axes, int dim, bool tiled);
/// jax.lax.ppermute(x, axes, perm): (source, destination) position pairs.
Atom ppermute(Builder& b, const Atom& x, const AxisNames& axes, const std::vector<std::pair<int, int>>& perm);
/// jax.lax.all_to_all(x, axes, split_axis, concat_axis, tiled=tiled).
Atom all_to_all(Builder& b, const Atom& x, const AxisNames& axes, int split_axis, int concat_axis, bool tiled);
/// jax.lax.axis_index(axes): this device's position along the axes (major first).
Atom axis_index(Builder& b, const AxisNames& axes);

/// A shard_map being traced: a builder for its body, nested in the
/// enclosing one, whose inputs are the blocks of the arguments. Callers
/// (the JS tracer, shard_map() below) trace the body, then finish().
class ShardMapTrace {
 public:
  /// Starts tracing jax.shard_map(f, mesh=mesh, in_specs, check_vma) on `args` of `outer`.
  ShardMapTrace(Builder& outer, MeshRef mesh, Specs in_specs, bool check_vma, std::vector<Atom> args);
  /// The body's builder.
  Builder& body() { return body_; }
  /// The body's inputs: one block per argument.
  const std::vector<Atom>& blocks() const { return blocks_; }
  /// Emits the shard_map returning `outs` (values of the body) laid out by
  /// `out_specs` into the outer builder; values of the outer trace the body
  /// used become leading inputs with spec P(). Returns the global outputs.
  std::vector<Atom> finish(const Specs& out_specs, std::vector<Atom> outs);

 private:
  Builder& outer_;
  MeshRef mesh_;
  Specs in_specs_;
  bool check_vma_;
  std::vector<Atom> args_;
  Builder body_;
  std::vector<Atom> blocks_;
};

/// A shard_map body: the per-device outputs from the per-device inputs.
using BodyFn = std::function<std::vector<Atom>(Builder& body, const std::vector<Atom>& blocks)>;

/// jax.shard_map(f, mesh=mesh, in_specs, out_specs, check_vma)(*args), traced with a ShardMapTrace.
std::vector<Atom> shard_map(Builder& b, const MeshRef& mesh, const Specs& in_specs, const Specs& out_specs,
                            bool check_vma, const std::vector<Atom>& args, const BodyFn& f);

/// The program of jax.lax function `lax_name` (with its keyword arguments
/// `args`) applied to each device's block of an array `in` laid out by
/// `in_spec`, the results laid out by `out_spec`: a shard_map whose body is
/// that one function (a scalar result of axis_index becomes a [1] block).
/// How the device runtime runs a single collective; with check_vma, an
/// out_spec that omits an axis the result varies along is an error naming it.
Program collective_program(const MeshRef& mesh, const Aval& in, const PartitionSpec& in_spec,
                           const std::string& lax_name, const Params& args, const PartitionSpec& out_spec,
                           bool check_vma);

}  // namespace shardlab::ir
