// Wasm implementation of platform/platform.h: Atomics.wait/notify through
// Emscripten's futex calls (std::atomic::wait in em++ 3.1.6 polls with sleeps,
// and sched_yield does nothing in wasm, so neither is usable for waiting).
#include <emscripten/heap.h>
#include <emscripten/threading.h>

#include <climits>
#include <cmath>

#include "platform/platform.h"

// Imports from our JS libraries, declared noexcept: a C function declared
// without it may throw, so every call from a noexcept function (or one with
// destructors pending) would go through JavaScript's exception handling.
extern "C" {
// The fused micro-kernel (cpp/platform/fused_kernel.js).
void shardlab_fused_micro_kernel(int32_t kc, const float* ap, const float* bp, float* c, int32_t ldc,
                                 int32_t accumulate) noexcept;
int32_t shardlab_fused_kernel_available() noexcept;
// Emscripten's clock in milliseconds (cpp/platform/clock.js).
double shardlab_now_ms() noexcept;
}

namespace shardlab::platform {

void futex_wait(std::atomic<uint32_t>* word, uint32_t expected) {
  emscripten_futex_wait(reinterpret_cast<volatile void*>(word), expected, INFINITY);
}

void futex_wake_all(std::atomic<uint32_t>* word) {
  emscripten_futex_wake(reinterpret_cast<volatile void*>(word), INT_MAX);
}

int64_t now_ns() noexcept { return static_cast<int64_t>(shardlab_now_ms() * 1e6); }

void cpu_relax() {}

// The most the heap can grow to (-sMAXIMUM_MEMORY, or its fixed size
// without growth): every device's memory is in it.
uint64_t device_memory_bytes() noexcept { return emscripten_get_heap_max(); }

FusedMicroKernel fused_micro_kernel() noexcept {
  // Asked once: every thread runs the same engine on the same CPU.
  static std::atomic<int> available{-1};
  int a = available.load(std::memory_order_relaxed);
  if (a < 0) available.store(a = shardlab_fused_kernel_available(), std::memory_order_relaxed);
  return a ? &shardlab_fused_micro_kernel : nullptr;
}

}  // namespace shardlab::platform
