// One device's storage for running a shard_map body equation by equation
// without allocating per call: every variable and literal has a fixed place
// in one buffer, and every equation's operand and result tensors are built
// once. With 8 device threads sharing one malloc lock in wasm, a handful of
// allocations per equation per device cost more than the arithmetic.
// A device runs only the equations the outputs it writes need, and every
// collective: a replicated output is one buffer the first device holding it
// writes, so after the body's last collective the other devices would only
// compute copies nobody reads (7 of 8 optimizer updates after a pmean).
#pragma once

#include <cstdint>
#include <vector>

#include "ir/primitive.h"
#include "ir/program.h"

namespace shardlab::exec {

/// The storage and prebuilt tensors of one program for one device.
class Frame {
 public:
  /// Lays out every variable and literal of `body` (which must outlive the
  /// frame); writes[j] says whether this device writes body output j.
  Frame(const ir::Program& body, std::vector<bool> writes);
  Frame(const Frame&) = delete;
  Frame& operator=(const Frame&) = delete;

  /// The elements of variable v (as many words as its aval has elements).
  uint32_t* var(ir::VarId v) { return arena_.data() + var_offset_[static_cast<size_t>(v)]; }
  /// Whether this device writes body output j (else it may not compute it).
  bool writes(size_t j) const { return writes_[j]; }
  /// The elements of output j of the body (a variable or a literal), if writes(j).
  const uint32_t* output(size_t j) const { return arena_.data() + output_offset_[j]; }
  /// How many of the body's equations run() evaluates on this device.
  size_t equations_run() const { return steps_.size(); }
  /// Runs the body's equations this device needs, the inputs having been written with var().
  void run(const ir::DeviceContext& ctx);

 private:
  struct Step {
    const ir::Eqn* eqn;
    std::vector<const ir::Tensor*> in;
    std::vector<ir::Tensor*> out;
    std::vector<size_t> out_bytes;
  };
  std::vector<bool> writes_;
  std::vector<uint32_t> arena_;
  std::vector<size_t> var_offset_;
  std::vector<size_t> output_offset_;
  std::vector<std::pair<size_t, uint32_t>> literals_;  // (offset, bits) written once the arena exists
  std::vector<ir::Tensor> tensors_;                    // reserved up front: steps_ point into it
  std::vector<Step> steps_;
};

}  // namespace shardlab::exec
