#include "runtime/barrier.h"

#include <string>

#include "runtime/errors.h"
#include "runtime/timeline.h"

namespace shardlab {

Barrier::Barrier(uint64_t members, const JobFlags* flags)
    : members_(members), size_(static_cast<uint32_t>(__builtin_popcountll(members))), flags_(flags) {}

void Barrier::arrive_and_wait(int device, const char* what) {
  if (size_ == 1) return;
  const uint32_t gen = generation_.load();
  if (count_.fetch_add(1) + 1 == size_) {
    count_.store(0);
    generation_.fetch_add(1);
    event_.notify();
    return;
  }
  const int64_t t0 = span_begin(device);
  event_.wait(
      [&] { return generation_.load() != gen || flags_->aborted.load() || (flags_->finished.load() & members_) != 0; });
  span_end(device, SpanKind::kWait, -1, what, t0);
  // A member can only leave after the barrier released, so re-reading the
  // generation after seeing an exit tells a late release from a missing member.
  if (generation_.load() != gen) return;
  // A missing member is reported even if the job was aborted meanwhile (the
  // abort may stem from a peer that saw the same exit), so every waiter of
  // the group reports it and the lowest device's message wins deterministically.
  const uint64_t missing = flags_->finished.load() & members_;
  if (missing == 0) throw JobAborted{};
  const int gone = __builtin_ctzll(missing);
  fail(ErrorKind::kDevice, what, " on device ", device, ": device ", gone,
       " finished its program without reaching this collective; every device of the group must run the same "
       "collectives in the same order");
}

}  // namespace shardlab
