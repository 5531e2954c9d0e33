// Small C++ allocations of the wasm module go through per-thread caches.
// Emscripten 3.1.6's malloc (dlmalloc) has one global lock, and with 8 device
// threads on 2 cores a contended lock costs a futex sleep: the few small
// vectors a primitive's evaluation allocates per call (shapes, strides,
// dimension lists) made the devices queue on that lock. Natively glibc keeps
// per-thread caches already; this gives wasm the same: freed blocks of up to
// 256 bytes go to the freeing thread's list for their size class (at most
// kCap per class, the rest back to malloc), and allocation takes from it first.
// Large allocations (a megabyte or more: host copies of large values, the
// lockstep executor's values, frames) go to spans (runtime/large_blocks.h),
// as device buffers do, so that freeing one does not leave a hole that the
// small allocations split before the next call asks for it again.
#include "js/thread_cache_alloc.h"

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

#include "runtime/large_blocks.h"

namespace {

constexpr size_t kClassBytes[] = {16, 32, 64, 128, 256};
constexpr int kClasses = sizeof(kClassBytes) / sizeof(kClassBytes[0]);
constexpr int kCap = 64;
constexpr int kMalloc = -1;  // a block straight from malloc
constexpr int kSpan = -2;    // a block of allocate_large

// Before every block: its size class (kMalloc or kSpan beyond the classes)
// and, while cached, the next cached block. 16 bytes keep the payload aligned.
struct alignas(16) Header {
  int size_class;
  Header* next;
};

struct Cache {
  Header* head[kClasses] = {};
  int count[kClasses] = {};
};
thread_local Cache t_cache;
std::atomic<size_t> g_cached_bytes{0};  // malloc'd bytes sitting in the caches

int class_of(size_t n) {
  for (int c = 0; c < kClasses; ++c)
    if (n <= kClassBytes[c]) return c;
  return -1;
}

void* allocate(size_t n) {
  const int c = class_of(n);
  if (c >= 0 && t_cache.head[c]) {
    Header* h = t_cache.head[c];
    t_cache.head[c] = h->next;
    --t_cache.count[c];
    g_cached_bytes.fetch_sub(sizeof(Header) + kClassBytes[c], std::memory_order_relaxed);
    return h + 1;
  }
  if (n > SIZE_MAX - sizeof(Header)) return nullptr;
  const size_t bytes = sizeof(Header) + (c >= 0 ? kClassBytes[c] : n);
  const int kind = c >= 0 ? c : bytes >= shardlab::kLargeBlockBytes ? kSpan : kMalloc;
  auto get = [&] { return static_cast<Header*>(kind == kSpan ? shardlab::allocate_large(bytes) : std::malloc(bytes)); };
  Header* h = get();
  // Unused spans hold memory malloc may need: give them back and try again.
  if (!h && shardlab::release_free_spans()) h = get();
  if (!h) return nullptr;
  h->size_class = kind;
  return h + 1;
}

void release(void* p) noexcept {
  if (!p) return;
  Header* h = static_cast<Header*>(p) - 1;
  const int c = h->size_class;
  if (c >= 0 && t_cache.count[c] < kCap) {
    h->next = t_cache.head[c];
    t_cache.head[c] = h;
    ++t_cache.count[c];
    g_cached_bytes.fetch_add(sizeof(Header) + kClassBytes[c], std::memory_order_relaxed);
    return;
  }
  if (c == kSpan) {
    shardlab::free_large(h);
  } else {
    std::free(h);
  }
}

void* allocate_or_throw(size_t n) {
  void* p = allocate(n);
  if (!p) throw std::bad_alloc();
  return p;
}

}  // namespace

namespace shardlab::js {
size_t thread_cache_bytes() { return g_cached_bytes.load(std::memory_order_relaxed); }
}  // namespace shardlab::js

void* operator new(size_t n) { return allocate_or_throw(n); }
void* operator new[](size_t n) { return allocate_or_throw(n); }
void* operator new(size_t n, const std::nothrow_t&) noexcept { return allocate(n); }
void* operator new[](size_t n, const std::nothrow_t&) noexcept { return allocate(n); }
void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, size_t) noexcept { release(p); }
void operator delete[](void* p, size_t) noexcept { release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { release(p); }
