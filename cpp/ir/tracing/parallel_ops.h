// Tracing a shard_map, the one-collective program the device runtime runs,
// and pvary (which tracing inserts). The jax.lax functions are bound by name
// through the registry (lax_function); tests call them through
// tests/cpp/lax_calls.h.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ir/tracing/builder.h"

namespace shardlab::ir {

/// Axis names as jax.lax takes them: one name or several.
using AxisNames = std::vector<std::string>;

/// jax.lax.pcast(x, axes, to='varying'): x, typed as varying along `axes`.
Atom pvary(Builder& b, const Atom& x, const AxisNames& axes);

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
