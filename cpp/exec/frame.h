// One device's storage for running a shard_map body equation by equation
// without allocating per call: every intermediate variable and literal has a
// fixed place in one buffer, and every equation's operand and result tensors
// are built once. With 8 device threads sharing one malloc lock in wasm, a
// handful of allocations per equation per device cost more than the arithmetic.
// The body's inputs and the outputs this device writes are not copied: each
// run points the tensors that read an input at the device's block of the
// argument, and those that make an output at its block of the result.
// A device runs only the equations the outputs it writes need, and every
// collective: a replicated output is one buffer the first device holding it
// writes, so after the body's last collective the other devices would only
// compute copies nobody reads (7 of 8 optimizer updates after a pmean).
#pragma once

#include <cstdint>
#include <vector>

#include "ir/core/primitive.h"
#include "ir/core/program.h"

namespace shardlab::exec {

/// The storage and prebuilt tensors of one program for one device.
class Frame {
 public:
  /// Lays out every variable and literal of `body` (which must outlive the
  /// frame); writes[j] says whether this device writes body output j.
  Frame(const ir::Program& body, std::vector<bool> writes);
  Frame(const Frame&) = delete;
  Frame& operator=(const Frame&) = delete;

  /// Reads body input k from `block` (this device's block of the argument,
  /// read in place) in the runs that follow.
  void bind_input(size_t k, const void* block);
  /// The frame's own storage for body input k, for a block that must be cut
  /// from a larger array first (allocated when first asked for); bind it after.
  uint32_t* input_storage(size_t k);
  /// Whether body output j is computed in place into the block bind_output gives.
  bool binds_output(size_t j) const { return out_users_[j].bound; }
  /// Computes body output j (binds_output(j)) into `block` in the runs that follow.
  void bind_output(size_t j, void* block);
  /// Whether this device writes body output j (else it may not compute it).
  bool writes(size_t j) const { return writes_[j]; }
  /// The elements of output j of the body (a variable or a literal), if writes(j).
  const uint32_t* output(size_t j) const;
  /// How many of the body's equations run() evaluates on this device.
  size_t equations_run() const { return steps_.size(); }
  /// Runs the body's equations this device needs, the inputs having been bound.
  void run(const ir::DeviceContext& ctx);

 private:
  struct Step {
    const ir::Eqn* eqn;
    std::vector<const ir::Tensor*> in;
    std::vector<ir::Tensor*> out;
    std::vector<size_t> out_bytes;
    bool clear;  // local rules may accumulate into their outputs; collectives write every element
    int32_t index;  // the equation's position in the body, for an armed timeline
  };
  // A variable whose storage is outside the arena: the tensors to repoint.
  struct Users {
    bool bound = false;
    const void* data = nullptr;  // where it is now
    std::vector<ir::Tensor*> tensors;
  };
  void point(Users& u, const void* data);

  const ir::Program& body_;
  std::vector<bool> writes_;
  static constexpr size_t kAlignWords = 16;  // 64 bytes: where each array of the arena starts
  std::vector<uint32_t> arena_;
  size_t base_ = 0;  // the arena's first 64-byte-aligned word: offsets count from it
  std::vector<size_t> var_offset_;  // arena offset of each variable kept there
  std::vector<size_t> output_offset_;
  std::vector<std::pair<size_t, uint32_t>> literals_;  // (offset, bits) written once the arena exists
  std::vector<ir::Tensor> tensors_;                    // reserved up front: steps_ point into it
  std::vector<Step> steps_;
  std::vector<Users> in_users_, out_users_;               // per body input / output
  std::vector<std::vector<uint32_t>> input_storage_;     // per body input, when cut
};

}  // namespace shardlab::exec
