// Partitioning (JAX's SPMD partitioner, for sharding in types): a top-level
// program whose values are typed with shardings over Explicit mesh axes
// becomes one shard_map over the types' mesh whose body computes each
// device's blocks, equation by equation, by each primitive's partition rule
// (beside its sharding rule: the rule types a result, the partition rule
// computes it). Where the types need data moved, the body holds the
// collectives that move it: an all_gather where a sharded operand is needed
// whole, a psum or reduce_scatter of partial sums (a contraction over a
// sharded dimension), an all_to_all where an axis moves between dimensions,
// and a slice by axis_index (no traffic) where a replicated value becomes sharded.
// What the executors run is the partitioned program (the traced one is what
// make_jaxpr prints); jit(f).lower(x).compile().as_text() prints it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ir/core/program.h"
#include "ir/tracing/builder.h"

namespace shardlab::ir {

/// `p` partitioned: `p` itself when none of its values is sharded; computed
/// whole (its types unsharded; the caller lays its results out afterwards)
/// when it holds a shard_map (Manual axes: it runs as written) or a debug
/// callback (which prints whole values once, on the host), or when an
/// equation's rule cannot partition it yet (not_partitioned: a scan over xs
/// split along the scanned dimension). Run before lowering, which then
/// lowers the body.
ProgramRef partition(const ProgramRef& p);

/// An equation as a partition rule sees it: its primitive, parameters, its
/// operands' and results' global types (with their shardings), and this
/// device's blocks of the operands.
struct PartEqn {
  Prim prim;
  const Params& params;
  const std::vector<Aval>& in;
  const std::vector<Aval>& out;
  std::vector<Atom> blocks;
};

/// The per-device body being built, and how blocks move between shardings.
class Partitioner {
 public:
  Partitioner(Builder& body, std::vector<MeshAxis> axes) : b(body), mesh(std::move(axes)) {}
  /// The body's builder.
  Builder& b;
  /// The axes of the mesh the body runs over.
  const std::vector<MeshAxis> mesh;

  /// The number of devices along `axes` (the product of their sizes).
  int64_t devices(const std::vector<std::string>& axes) const;

  /// Block `x` of a value of type `global` laid out as `to` instead: the
  /// unreduced axes `to` drops summed (a reduce_scatter onto a dimension
  /// `to` splits over exactly them, else a psum), an axis moving from one
  /// dimension to an unsharded one by all_to_all, the other axes `to` does
  /// not keep all_gathered, and the axes it adds sliced by axis_index.
  Atom reshard(const Atom& x, const Aval& global, const Sharding& to);
  /// `e` computed whole: every operand gathered (and summed where
  /// unreduced), the primitive emitted with its parameters on the whole
  /// values, each result sliced to its sharding. Right for any primitive;
  /// the rule of those with no cheaper one.
  std::vector<Atom> gathered(const PartEqn& e);
  /// `e` computed block by block: each operand of the results' rank laid
  /// out as result 0 (a broadcasting primitive's unsharded operand is
  /// sliced; rank-0 ones stay whole), the primitive emitted with its
  /// parameters (elementwise and per-operand primitives).
  std::vector<Atom> local(const PartEqn& e);
  /// `e` on the blocks as they are, with `params` (the rules whose
  /// operands already agree; a parameter naming sizes given per block).
  std::vector<Atom> as_is(const PartEqn& e, const Params& params);
  /// A reduction of `e`'s operand 0 over its `axes` parameter: reduced
  /// locally, then combined by collective `combine` (a jax.lax function:
  /// psum, pmax, pmin) over the axes of the reduced dimensions that are
  /// sharded; gathered when `combine` is null and one of them is.
  std::vector<Atom> reduction(const PartEqn& e, const char* combine);
  /// `e` as is where none of its operands and results is sharded, else
  /// not_partitioned (a shard_map, which partition() never reaches).
  std::vector<Atom> unsharded_only(const PartEqn& e);
  /// A primitive holding programs that take its operands and give its
  /// results one for one, each device running them on its blocks: a call
  /// (jit, a custom call, checkpoint) inlined, its program's equations
  /// partitioned (its derivative rules are spent by then); control flow
  /// (cond's branches, while's cond and body, scan's body) emitted with each
  /// program partitioned as a program of blocks (local_program).
  std::vector<Atom> with_programs(const PartEqn& e);
  /// Program `q` as each device runs it: its inputs blocks of their types,
  /// each equation partitioned, its outputs blocks of theirs.
  ProgramRef local_program(const Program& q);
  /// The blocks of program `p`'s outputs from the blocks of its inputs, each
  /// equation partitioned in turn.
  std::vector<Atom> program(const Program& p, const std::vector<Atom>& blocks);
  /// The partitioned form of `e` (its primitive's rule), checked: each
  /// result a block of its type's sharding.
  std::vector<Atom> equation(const PartEqn& e);
};

/// The jax.lax collective that combines a reduction's partial results
/// across devices: psum for reduce_sum, pmax and pmin for reduce_max and
/// reduce_min; null for the others (reduce_prod, reduce_and, argmax, ...).
const char* combine_of(Prim prim);

/// Whether every sharded dimension of `e`'s operand 0 has the same size in
/// its result 0 (a slice, pad or dynamic_slice that cuts no sharded dimension).
bool sharded_dims_kept(const PartEqn& e);

/// The block shape of `global` split by its sharding.
Shape block_shape(const Aval& global);

/// Stops partitioning: primitive `name` is not partitioned (`why`), so the
/// program is left whole (partition() catches it).
[[noreturn]] void not_partitioned(const char* name, const std::string& why);

}  // namespace shardlab::ir
