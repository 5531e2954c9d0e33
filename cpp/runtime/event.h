// An event count: the waiting scheme under every barrier and queue of the
// runtime. Waiters spin for a short time budget, then sleep on a futex word;
// notifiers bump the word and wake sleepers only when there are some. With 8
// device threads on 2 cores a pure spin costs milliseconds per round (the
// thread being waited for is not running), while futex sleeps cost tens of
// microseconds; a short spin catches the cases where the partner is running.
#pragma once

#include <atomic>
#include <cstdint>

#include "platform/platform.h"

namespace shardlab {

/// How long waiters spin before sleeping, in nanoseconds. A time budget,
/// not an iteration count: one spin costs ~15 ns natively (x86 pause) but
/// ~1 ns in wasm.
constexpr int64_t kSpinBudgetNs = 2000;

/// A futex word plus a count of sleepers; see the file comment.
class EventCount {
 public:
  /// Waits until `ready()` returns true. `ready` must become true only after a
  /// notify() on this event (or be true already). With `spin` false it
  /// sleeps at once: for waits that a spin budget never outlasts.
  template <class Ready>
  void wait(Ready&& ready, bool spin = true) {
    if (ready()) return;
    if (spin) {
      const int64_t deadline = platform::now_ns() + kSpinBudgetNs;
      for (int i = 1;; ++i) {
        if (ready()) return;
        platform::cpu_relax();
        if ((i & 15) == 0 && platform::now_ns() >= deadline) break;
      }
    }
    for (;;) {
      const uint32_t seen = word_.load();
      sleepers_.fetch_add(1);
      // Re-check after announcing ourselves: a notify between the load above
      // and here either changed word_ (futex_wait returns at once) or saw us.
      if (ready()) {
        sleepers_.fetch_sub(1);
        return;
      }
      platform::futex_wait(&word_, seen);
      sleepers_.fetch_sub(1);
      if (ready()) return;
    }
  }

  /// Announces that some waiter's condition may have changed.
  void notify() {
    word_.fetch_add(1);
    if (sleepers_.load() != 0) platform::futex_wake_all(&word_);
  }

 private:
  std::atomic<uint32_t> word_{0};
  std::atomic<uint32_t> sleepers_{0};
};

}  // namespace shardlab
