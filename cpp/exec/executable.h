// A program made ready to run many times on the device threads (what a jit
// cache holds): each device builds its frame for each shard_map body on the
// first run and reuses it, so a cached call allocates only its outputs.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "exec/frame.h"
#include "ir/core/program.h"
#include "runtime/partition_spec.h"

namespace shardlab::exec {

/// How a shard_map output is stored and who writes it. By default replicas
/// share one buffer (ShardedArray::kShareAll) that the first device holding
/// it writes. A large body output a collective makes, replicated over the
/// collective's group, is one buffer per group that each member writes its
/// share of (the Communicator's shared output: no device copies it whole).
/// Without check_vma nothing proves replicas agree: each device keeps and
/// writes its own, as in JAX.
struct OutputPlan {
  uint32_t share_mask = ~0u;         ///< ShardedArray's share mask for the output
  bool every_device_writes = false;  ///< else only Layout::owner's device writes
};

/// A program plus its per-device frames. Runs of one Executable must not
/// overlap; a DevicePool runs its jobs one at a time.
class Executable {
 public:
  /// Wraps `program`, lowered (ir::lower); frames are built lazily, by the devices themselves.
  explicit Executable(std::shared_ptr<const ir::Program> program);

  /// The program it runs (lowered and prepared: its plan is built from it once).
  const ir::Program& program() const { return *program_; }

  /// Device d's frame for the body of equation i (a shard_map): it runs what
  /// the body outputs device d writes need (see Frame). Each device touches
  /// only its own frames, so devices may call this concurrently.
  Frame& frame(size_t eqn, int device);

  /// The block layouts of the inputs of equation i (a shard_map) on its mesh:
  /// made once here rather than on every call.
  const std::vector<Layout>& in_layouts(size_t eqn) const { return in_layouts_.at(eqn); }

  /// How the outputs of equation i (a shard_map) are stored and written.
  const std::vector<OutputPlan>& output_plans(size_t eqn) const { return output_plans_.at(eqn); }

 private:
  std::shared_ptr<const ir::Program> program_;
  std::vector<std::vector<std::unique_ptr<Frame>>> frames_;  // [eqn][device]
  std::vector<std::vector<Layout>> in_layouts_;              // [eqn][input]
  std::vector<std::vector<Layout>> out_layouts_;             // [eqn][output]
  std::vector<std::vector<OutputPlan>> output_plans_;        // [eqn][output]
};

}  // namespace shardlab::exec
