// The collectives a device calls while it runs a shard_map body, as one
// interface with two implementations: the Communicator (each device on its own
// thread, meeting its peers in shared memory) and LockstepCollectives (one
// thread calls for every device in turn; the results appear once the last
// device of the mesh has called). Every device of the mesh calls the same
// collectives in the same order; `in` and `out` hold 4-byte elements.
//
// One file per collective family in this folder holds the family's shape
// rule, its threaded algorithm and its serial counterpart side by side
// (all_reduce.cc, all_gather.cc, reduce_scatter.cc, ppermute.cc,
// all_to_all.cc). Adding a collective: a method in SHARDLAB_COLLECTIVE_METHODS
// below, and its family file.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "kernels/reduce_kernels.h"
#include "runtime/mesh.h"
#include "runtime/shape.h"

namespace shardlab {

/// A ppermute permutation: (source, destination) positions along the axes.
using Permutation = std::vector<std::pair<int, int>>;

/// One operand of a batched all-reduce.
struct ReduceBuffer {
  DType dtype;     ///< float32 or int32
  const void* in;  ///< this device's operand
  void* out;       ///< where its result goes
  int64_t count;   ///< elements
};

/// jax.lax's name of a reduction ("psum", "pmax", "pmin").
const char* reduce_op_name(ReduceOp op);

/// Payloads up to this many bytes per device take the Communicator's
/// one-barrier staging path (communicator.h); larger ones are read in place.
inline constexpr int64_t kStagingBytes = 16 * 1024;
/// Whether an exchange of `bytes` per device goes through the staging buffers.
inline bool staged(int64_t bytes) { return bytes <= kStagingBytes; }

/// What one call of a collective moves on the threaded runtime (the
/// Communicator): how, in words, and for each position of its group the
/// bytes that leave that device, read by peers from its buffers or written
/// by it into theirs (or into the group's one shared result), and who reads
/// from whom. Each family's file computes it beside its algorithm, from the
/// rules the algorithm runs by; the program JSON carries it per collective
/// equation (the page draws it from that alone; a cost analysis can read it). `shared_out`: the result is one buffer
/// the whole group writes (how the executor stores a large replicated
/// result, ir::shared_output_group).
struct Traffic {
  std::string algorithm;      ///< how the data moves, and the exchange's path
  std::vector<int64_t> sent;  ///< bytes, by position in the group
  std::string computes;       ///< what the group ends with, in words
  std::string combine;        ///< the operator combining the blocks ("+", "max", "min"); empty when none is
  Permutation links;          ///< (source, destination) positions whose data moves between them
};

/// Every ordered pair of distinct positions in a group of n: the links of an exchange where each device reads from every peer.
Permutation all_pairs(int n);

/// all_reduce_many(op, bufs) over a group of n (a psum, pmax or pmin).
Traffic all_reduce_traffic(ReduceOp op, const std::vector<ReduceBuffer>& bufs, int n, bool shared_out);
/// all_gather of a block of `in_shape` over a group of n.
Traffic all_gather_traffic(const Shape& in_shape, DType dtype, int n, bool shared_out);
/// psum_scatter of a block of `in_shape` over a group of n.
Traffic reduce_scatter_traffic(const Shape& in_shape, DType dtype, int n);
/// ppermute of `count` elements by `perm` over a group of n.
Traffic ppermute_traffic(int64_t count, DType dtype, int n, const Permutation& perm);
/// all_to_all of a block of `in_shape` over a group of n.
Traffic all_to_all_traffic(const Shape& in_shape, DType dtype, int n);
/// The exchange's path for `bytes` per device, in words (for Traffic::algorithm).
std::string exchange_path(int64_t bytes, bool shared_out);
/// The bytes `count` elements of `dtype` are on a device of JAX (its itemsize
/// each): what Traffic::sent counts.
int64_t element_bytes(DType dtype, int64_t count);
/// The bytes `count` elements take as the collectives store them (a lane
/// each): what the algorithms move and choose their path by.
inline int64_t lane_bytes(int64_t count) { return count * static_cast<int64_t>(kElemBytes); }

// Shape rules of the collectives, as jax.lax defines them. They run before
// any data moves (when a program is traced, and again on each device), so a
// bad argument is reported with the shapes and the valid choices instead of
// corrupting memory.

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

/// Declares every collective: `virtual ... = 0` in the interface, `override`
/// in each implementation, so a new collective is declared once, here.
#define SHARDLAB_COLLECTIVE_METHODS(VIRTUAL, SPEC)                                                                  \
  /** psum / pmax / pmin over the axes of g: out = in_0 op in_1 op ... (device order). */                          \
  VIRTUAL void all_reduce(int device, const AxisGroup& g, ReduceOp op, DType dtype, const void* in, void* out,     \
                          int64_t count) SPEC;                                                                     \
  /** all_reduce of several operands with one rendezvous per dtype (how a psum of a tree runs): the operands are \
   * packed end to end and reduced together, so each result is bitwise what its own all_reduce gives. */         \
  VIRTUAL void all_reduce_many(int device, const AxisGroup& g, ReduceOp op, const std::vector<ReduceBuffer>& bufs) \
      SPEC;                                                                                                        \
  /** all_gather: out holds every peer's block, in position order, along `axis`. */                               \
  VIRTUAL void all_gather(int device, const AxisGroup& g, const void* in, void* out, const Shape& in_shape,        \
                          int axis, bool tiled) SPEC;                                                              \
  /** psum_scatter: out = chunk `position` of the sum of every peer's input. */                                    \
  VIRTUAL void reduce_scatter(int device, const AxisGroup& g, DType dtype, const void* in, void* out,              \
                              const Shape& in_shape, int dim, bool tiled) SPEC;                                    \
  /** ppermute: out = the input of the peer whose pair names this device as destination, or zeros when none   \
   * does. */                                                                                                      \
  VIRTUAL void ppermute(int device, const AxisGroup& g, const void* in, void* out, int64_t count,                  \
                        const Permutation& perm) SPEC;                                                             \
  /** all_to_all: chunk j of split_axis goes to position j; received chunks are concatenated (tiled) or stacked \
   * along concat_axis in source order. */                                                                         \
  VIRTUAL void all_to_all(int device, const AxisGroup& g, const void* in, void* out, const Shape& in_shape,        \
                          int split_axis, int concat_axis, bool tiled) SPEC;

/// Collectives among the devices of one mesh, called per device. Each writes
/// every element of its output (callers need not clear it first).
class Collectives {
 public:
  virtual ~Collectives() = default;
  /// The mesh whose axes the collectives' groups are taken from.
  virtual const Mesh& mesh() const = 0;
  SHARDLAB_COLLECTIVE_METHODS(virtual, = 0)
  /// Returns once every device of the mesh has called it (values written
  /// before are then visible to all).
  virtual void sync(int device) = 0;
};

/// Copies the inputs of `bufs` stored in lanes of `dtype` (lane_of), end to
/// end, into `dst` (resized to fit); returns how many elements that is.
int64_t pack_inputs(const std::vector<ReduceBuffer>& bufs, DType dtype, std::vector<uint32_t>& dst);
/// Copies consecutive runs of `src` into the outputs of `bufs` in lanes of `dtype` (pack_inputs' inverse).
void unpack_outputs(const uint32_t* src, const std::vector<ReduceBuffer>& bufs, DType dtype);

}  // namespace shardlab
