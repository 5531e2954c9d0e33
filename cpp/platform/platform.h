// The few operating-system services the device runtime needs. Two
// implementations exist: cpp/platform/platform_linux.cc (raw futex syscalls) for native
// builds and cpp/platform/platform_emscripten.cc (emscripten_futex_*) for wasm, so
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

/// The device memory in bytes, the most any array may need (see
/// runtime/sizes.h): the wasm heap's maximum size, natively the physical memory.
uint64_t device_memory_bytes() noexcept;

/// Rows of the fused micro-kernel's tile (6 x 8: 12 f32x4 accumulators,
/// which V8's 15 vector registers for wasm still hold with the operands).
constexpr int64_t kFusedRows = 6;

/// The matrix micro-kernel a platform may supply: c (6 x 8 floats, rows
/// `ldc` floats apart) = (accumulate ? c : 0) + sum over k < kc of
/// ap[6k + r] * bp[8k + j], each term added with one rounding (a fused
/// multiply-add), in ascending k. `ap` is kc groups of 6, `bp` kc rows of 8.
/// noexcept, so that a call is never routed through Emscripten's JavaScript
/// exception handling, whatever destructors are pending at the call site.
using FusedMicroKernel = void (*)(int32_t kc, const float* ap, const float* bp, float* c, int32_t ldc,
                                  int32_t accumulate) noexcept;

/// The platform's fused micro-kernel, or null where it has none (natively,
/// where Eigen's products use the CPU's FMA themselves, and in wasm engines
/// without relaxed SIMD or on CPUs without FMA; see cpp/platform/fused_kernel.js).
FusedMicroKernel fused_micro_kernel() noexcept;

}  // namespace shardlab::platform
