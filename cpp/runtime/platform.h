// The few operating-system services the device runtime needs. Two
// implementations exist: platform_linux.cc (raw futex syscalls) for native
// builds and cpp/wasm/platform_emscripten.cc (emscripten_futex_*) for wasm, so
// the native and wasm builds run the same waiting algorithm.
#pragma once

#include <atomic>
#include <cstdint>

namespace shardlab::platform {

/// Sleeps while `*word == expected`; may return spuriously. Never called on a
/// browser's main thread (only device threads and native hosts wait).
void futex_wait(std::atomic<uint32_t>* word, uint32_t expected);

/// Wakes every thread sleeping in futex_wait on `word`.
void futex_wake_all(std::atomic<uint32_t>* word);

/// A monotonic clock in nanoseconds, for spin budgets. noexcept and without
/// libc++'s steady_clock, whose calls Emscripten routes through JavaScript's
/// exception handling (see runtime/dims.h).
int64_t now_ns() noexcept;

/// A hint inside spin loops (x86 pause natively; nothing in wasm).
void cpu_relax();

}  // namespace shardlab::platform
