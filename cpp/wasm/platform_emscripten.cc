// Wasm implementation of runtime/platform.h: Atomics.wait/notify through
// Emscripten's futex calls (std::atomic::wait in em++ 3.1.6 polls with sleeps,
// and sched_yield does nothing in wasm, so neither is usable for waiting).
#include <emscripten/emscripten.h>
#include <emscripten/threading.h>

#include <climits>
#include <cmath>

#include "runtime/platform.h"

namespace shardlab::platform {

void futex_wait(std::atomic<uint32_t>* word, uint32_t expected) {
  emscripten_futex_wait(reinterpret_cast<volatile void*>(word), expected, INFINITY);
}

void futex_wake_all(std::atomic<uint32_t>* word) {
  emscripten_futex_wake(reinterpret_cast<volatile void*>(word), INT_MAX);
}

int64_t now_ns() noexcept { return static_cast<int64_t>(emscripten_get_now() * 1e6); }

void cpu_relax() {}

}  // namespace shardlab::platform
