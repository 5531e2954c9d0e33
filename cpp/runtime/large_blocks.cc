#include "runtime/large_blocks.h"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

// Under AddressSanitizer the free parts of spans are poisoned, so a use of
// a freed device buffer is still reported although malloc never sees it freed.
#if defined(__SANITIZE_ADDRESS__)
#define SHARDLAB_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SHARDLAB_ASAN 1
#endif
#endif
#ifdef SHARDLAB_ASAN
#include <sanitizer/asan_interface.h>
#define SHARDLAB_POISON(p, n) ASAN_POISON_MEMORY_REGION(reinterpret_cast<void*>(p), n)
#define SHARDLAB_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(reinterpret_cast<void*>(p), n)
#else
#define SHARDLAB_POISON(p, n) ((void)(p), (void)(n))
#define SHARDLAB_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace shardlab {

namespace {

// Blocks start on 4 KiB boundaries, so that Buffer's stagger alone decides
// where each device's block starts modulo 4 KiB.
constexpr size_t kAlign = 4096;
// Spans are whole multiples of 64 KiB, so the span made for one device's
// block also fits the same block of another device (Buffer staggers their
// starts by up to 4 KiB).
constexpr size_t kSpanGranule = size_t{64} << 10;
// The room a new span leaves above itself in malloc's heap (Emscripten grows
// the heap by at least this, and usually by 20% up to 96 MiB).
constexpr size_t kHeadroomBytes = size_t{16} << 20;

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

struct Span;

// A range of a span: free (in its span's map) or a live block (in the
// heap's). Both maps hold the same node type, so moving a range from one to
// the other reuses its node: freeing a block allocates nothing.
struct Range {
  size_t bytes;
  Span* span;
};
using Ranges = std::map<uintptr_t, Range>;  // by start address

struct Span {
  void* raw = nullptr;  // from malloc
  uintptr_t begin = 0;  // 4 KiB aligned
  size_t size = 0;
  size_t used = 0;
  Ranges free;  // neighbours are always merged
};

struct Heap {
  std::mutex mu;
  std::vector<std::unique_ptr<Span>> spans;
  Ranges live;
  LargeBlockStats stats;
  std::atomic<std::thread::id> owner{};  // the thread holding mu, if any
};

// Holds the heap's lock, noting which thread holds it.
struct Locked {
  Heap& h;
  std::lock_guard<std::mutex> guard;
  explicit Locked(Heap& of) : h(of), guard(of.mu) { h.owner.store(std::this_thread::get_id()); }
  ~Locked() { h.owner.store(std::thread::id()); }
};

// Never destroyed: blocks may still be freed while the process exits.
Heap& heap() {
  static Heap* h = new Heap;
  return *h;
}

// Frees every span without live blocks; the caller holds the lock.
bool release_unused(Heap& h) {
  bool any = false;
  for (size_t i = h.spans.size(); i-- > 0;) {
    Span& s = *h.spans[i];
    if (s.used != 0) continue;
    SHARDLAB_UNPOISON(s.begin, s.size);
    std::free(s.raw);
    h.stats.reserved -= s.size;
    h.spans.erase(h.spans.begin() + static_cast<std::ptrdiff_t>(i));
    any = true;
  }
  return any;
}

}  // namespace

void* allocate_large(size_t bytes) noexcept {
  if (bytes > SIZE_MAX - kSpanGranule - kAlign) return nullptr;
  const size_t n = round_up(bytes == 0 ? 1 : bytes, kAlign);
  Heap& h = heap();
  try {
    Locked lock(h);
    // Best fit: the smallest free range that holds the block, so a large
    // range stays whole for a large block.
    Span* span = nullptr;
    uintptr_t start = 0;
    size_t size = SIZE_MAX;
    for (const auto& s : h.spans)
      for (const auto& [at, range] : s->free)
        if (range.bytes >= n && range.bytes < size) {
          span = s.get();
          start = at;
          size = range.bytes;
        }
    if (!span) {
      // Every unused span is smaller than this block (else it would fit):
      // freed, it may merge with its neighbours in malloc's heap, or serve
      // malloc's other requests.
      release_unused(h);
      const size_t span_bytes = round_up(n, kSpanGranule);
      h.spans.reserve(h.spans.size() + 1);
      auto s = std::make_unique<Span>();
      s->raw = std::malloc(span_bytes + kAlign - 1);
      if (!s->raw) return nullptr;
      s->begin = round_up(reinterpret_cast<uintptr_t>(s->raw), kAlign);
      s->size = span_bytes;
      try {
        s->free.emplace(s->begin, Range{span_bytes, s.get()});
      } catch (...) {
        std::free(s->raw);
        throw;
      }
      SHARDLAB_POISON(s->begin, span_bytes);
      span = s.get();
      start = s->begin;
      size = span_bytes;
      h.stats.reserved += span_bytes;
      h.spans.push_back(std::move(s));  // reserved above: does not throw
      // A new span usually comes from the top of malloc's heap and leaves no
      // room above it, so the small allocations that come and go between
      // calls (outputs, job messages) would grow the heap once more at some
      // later call, when timing says. Growing it now leaves them that room: a
      // pad malloc'd and freed merges back into the top, which dlmalloc in
      // wasm never gives back (natively it is an mmap and a munmap). The
      // pointer goes through a volatile so the pair is not optimised away.
      void* volatile pad = std::malloc(kHeadroomBytes);
      std::free(pad);
    }
    h.live.emplace(start, Range{n, span});  // the one step that may throw: before any change
    auto node = span->free.extract(start);
    if (size > n) {
      node.key() = start + n;
      node.mapped().bytes = size - n;
      span->free.insert(std::move(node));
    }
    span->used += n;
    h.stats.in_use += n;
    SHARDLAB_UNPOISON(start, n);
    return reinterpret_cast<void*>(start);
  } catch (const std::exception&) {
    return nullptr;  // a bookkeeping allocation failed: memory is exhausted
  }
}

void free_large(void* block) noexcept {
  if (!block) return;
  Heap& h = heap();
  Locked lock(h);
  const auto it = h.live.find(reinterpret_cast<uintptr_t>(block));
  if (it == h.live.end()) std::abort();  // not a block of allocate_large: memory is corrupt
  auto node = h.live.extract(it);
  Span& s = *node.mapped().span;
  uintptr_t start = node.key();
  size_t n = node.mapped().bytes;
  s.used -= n;
  h.stats.in_use -= n;
  SHARDLAB_POISON(start, n);
  // Merge with the free ranges just after and just before.
  auto next = s.free.lower_bound(start);
  if (next != s.free.end() && next->first == start + n) {
    n += next->second.bytes;
    next = s.free.erase(next);
  }
  if (next != s.free.begin()) {
    const auto prev = std::prev(next);
    if (prev->first + prev->second.bytes == start) {
      prev->second.bytes += n;
      return;
    }
  }
  node.mapped().bytes = n;
  s.free.insert(next, std::move(node));
}

LargeBlockStats large_block_stats() noexcept {
  Heap& h = heap();
  Locked lock(h);
  return h.stats;
}

bool release_free_spans() noexcept {
  // Called when a malloc failed, which may be one of ours under the lock (a
  // map node): that allocation is under way, and locking again would deadlock.
  Heap& h = heap();
  if (h.owner.load() == std::this_thread::get_id()) return false;
  Locked lock(h);
  return release_unused(h);
}

}  // namespace shardlab
