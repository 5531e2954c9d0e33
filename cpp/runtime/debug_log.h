// What the debug_callback equations of the programs run (jax.debug.print and
// jax.debug.callback) hand to the host: each call's operand values, on each
// device that ran it, kept until the host takes them after the job.
#pragma once

#include <cstdint>
#include <mutex>
#include <vector>

#include "runtime/shape.h"

namespace shardlab {

/// One operand value of a debug call: its dtype, shape and elements (lanes, row-major).
struct DebugValue {
  DType dtype = DType::kFloat32;
  Shape shape;
  std::vector<uint32_t> words;
};

/// One debug call: the host callback it names, the device that made it (-1
/// outside a shard_map body) and the values.
struct DebugRecord {
  int64_t callback = 0;
  int device = -1;
  std::vector<DebugValue> values;
  int64_t sequence = 0;  ///< its number among the device's calls since the last take()
};

/// The calls recorded since the host last took them. Devices record
/// concurrently; take() orders them deterministically. At most kMaxWords
/// elements wait at once (a print in a long loop cannot exhaust the memory):
/// calls beyond are counted as dropped.
class DebugLog {
 public:
  /// Elements the log holds at most between two take()s (64 MiB).
  static constexpr size_t kMaxWords = size_t{16} << 20;
  /// The process's log (one per device runtime: a module holds one).
  static DebugLog& instance();
  /// Records a call (thread-safe).
  void record(DebugRecord r);
  /// The calls dropped since the last take() (the log was full), then none.
  int64_t take_dropped();
  /// The calls recorded so far, emptied: each device's first call, in device
  /// order (the host's, device -1, first), then each one's second, and so
  /// on, so a print in a shard_map body reads per device in device order,
  /// whatever the threads' timing.
  std::vector<DebugRecord> take();

 private:
  std::mutex mu_;
  std::vector<DebugRecord> records_;
  std::vector<int64_t> counts_;  // calls per device (index device + 1) since the last take()
  size_t words_ = 0;             // elements held
  int64_t dropped_ = 0;
};

}  // namespace shardlab
