// What the debug_callback equations of the programs run (jax.debug.print and
// jax.debug.callback) hand to the host: each call's operand values, on each
// device that ran it, kept until the host takes them after the job.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <vector>

#include "runtime/mesh.h"
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
  int64_t phase = 0;     ///< the top-level equation it was made under (set_phase)
  int64_t sequence = 0;  ///< its number among the device's calls in that phase
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
  /// Records a call (thread-safe), under its device's phase.
  void record(DebugRecord r);
  /// Says device `device` (-1: the host) now runs top-level equation `eqn`:
  /// the calls made under it (a shard_map body's, on every device, or the
  /// host's) come out of take() after those of earlier equations, so the log
  /// reads in program order whatever the threads' timing. Executors call it
  /// as each device reaches each top-level equation, from the thread that
  /// runs that device (each slot has one writer, which is also its reader).
  void set_phase(int device, int64_t eqn);
  /// The calls dropped since the last take() (the log was full), then none.
  int64_t take_dropped();
  /// The calls recorded so far, emptied: by the top-level equation they were
  /// made under (set_phase), and within one, each device's first call in
  /// device order (the host's, device -1, first), then each one's second, and
  /// so on, so a print in a shard_map body reads per device in device order,
  /// and a print after it follows it, whatever the threads' timing.
  std::vector<DebugRecord> take();

 private:
  std::mutex mu_;
  std::vector<DebugRecord> records_;
  std::vector<std::pair<int64_t, int64_t>> counts_;  // per device (index device + 1): its phase, its calls in it
  std::array<int64_t, kMaxDevices + 1> phases_{};     // per device (index device + 1): the equation it runs
  size_t words_ = 0;             // elements held
  int64_t dropped_ = 0;
};

}  // namespace shardlab
