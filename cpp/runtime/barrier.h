// A barrier for one group of devices, aware of the job it runs in: it lets its
// waiters go when the job is aborted (another device failed) or when a member
// of the group finished the job without arriving (a program in which devices
// run different collectives), so no device is ever left waiting forever.
#pragma once

#include <atomic>
#include <cstdint>

#include "runtime/event.h"

namespace shardlab {

/// What every barrier of a job watches besides its own count.
struct JobFlags {
  std::atomic<bool> aborted{false};   ///< some device of the job failed
  std::atomic<uint64_t> finished{0};  ///< bit d: device d returned from the job without error
};

/// A counting barrier over the devices in `members` (a bit set).
class Barrier {
 public:
  /// A barrier for the devices in `members`, watching `flags`.
  Barrier(uint64_t members, const JobFlags* flags);

  /// Waits until every member arrived. Throws JobAborted when the job was
  /// aborted, and an Error naming `what` when a member left the job without
  /// arriving.
  void arrive_and_wait(int device, const char* what);

  /// Wakes the waiters so they re-check the job flags.
  void poke() { event_.notify(); }

  /// Forgets partial arrivals (between jobs, when no device is inside).
  void reset() { count_.store(0); }

 private:
  const uint64_t members_;
  const uint32_t size_;
  const JobFlags* flags_;
  alignas(64) std::atomic<uint32_t> count_{0};
  alignas(64) std::atomic<uint32_t> generation_{0};
  EventCount event_;
};

}  // namespace shardlab
