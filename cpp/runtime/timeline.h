// What each device did during the jobs run while a timeline is armed: spans
// of time on one clock (platform::now_ns, which in wasm every worker reads
// with its drift from the main thread's clock removed). Recording is off
// unless asked for (the checker page's Timeline tab, a profiler trace): each
// recording site then costs one relaxed atomic load. While armed, a device
// appends only to its own list, so recording takes no lock; the lists are
// read once the jobs that wrote them have ended.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "runtime/mesh.h"

namespace shardlab {

/// What a span of a device's time was spent on.
enum class SpanKind : int32_t {
  kEquation = 0,    ///< evaluating an equation on this device's values
  kCollective = 1,  ///< a collective (the registry's), its waits included
  kWait = 2,        ///< blocked at a barrier until the group's last device arrived
};

/// One span of one device's time.
struct Span {
  int32_t device;    ///< the device whose time it was
  SpanKind kind;     ///< what the time was spent on
  int32_t depth;     ///< how many of the device's spans hold it: 0 a top-level equation (a shard_map's whole body), 1 an equation of the body, more inside a loop or a collective
  int32_t index;     ///< the equation's position in its (lowered) program (-1 for a wait)
  const char* name;  ///< static text: the primitive, or what a wait was for
  int64_t begin_ns;  ///< platform::now_ns() when it began
  int64_t end_ns;    ///< and when it ended
};

/// What a recording kept: the spans, and how many it dropped past the cap.
struct Recording {
  std::vector<Span> spans;
  int64_t dropped = 0;
};

/// The spans of every device while armed.
class Timeline {
 public:
  /// The most spans one device begins per recording: a long loop records
  /// its first iterations and counts the rest, so memory and the time spent
  /// reading the clock stay bounded; a span begun before the cap is kept
  /// when it ends (the shard_map or loop holding the rest).
  static constexpr size_t kMaxSpansPerDevice = 1 << 14;

  /// Starts recording (forgetting what an earlier recording kept). Only
  /// between jobs: a device may be appending to the lists it clears.
  static void arm();
  /// Stops recording and returns the spans, by device, each device's in
  /// order of their end. Only between jobs, as arm().
  static Recording take();
  /// The armed timeline, or null (the recording sites' one check).
  static Timeline* armed() { return armed_.load(std::memory_order_relaxed); }

  /// Begins a span of device `d`, nested in the spans it has open; returns
  /// its start time, or -1 past the cap (counted as dropped).
  int64_t begin(int d);
  /// Ends the span of device `d` that began at `begin_ns`.
  void end(int d, SpanKind kind, int32_t index, const char* name, int64_t begin_ns);
  /// Forgets device `d`'s open spans (at the start of a job: an equation that
  /// threw in an earlier one never ended its span).
  void restart(int d) { devices_[d].depth = 0; }

 private:
  struct alignas(64) Device {  // a cache line of its own: devices append concurrently
    std::vector<Span> spans;
    int64_t dropped = 0;
    int32_t depth = 0;
  };
  Device devices_[kMaxDevices];
  static std::atomic<Timeline*> armed_;
};

/// Begins a span of device `d` if a timeline is armed and not full (else returns -1).
/// Not a scope object: a destructor at every equation would route each
/// evaluation through Emscripten's JavaScript exception handling in wasm.
inline int64_t span_begin(int d) {
  Timeline* t = Timeline::armed();
  return t ? t->begin(d) : -1;
}

/// Ends the span span_begin returned `begin_ns` for (nothing if it was -1).
inline void span_end(int d, SpanKind kind, int32_t index, const char* name, int64_t begin_ns) {
  if (begin_ns < 0) return;
  if (Timeline* t = Timeline::armed()) t->end(d, kind, index, name, begin_ns);
}

}  // namespace shardlab
