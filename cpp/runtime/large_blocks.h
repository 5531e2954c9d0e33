// Large blocks of memory (device buffers of a megabyte or more, and in wasm
// every large C++ allocation), kept in spans of their own, apart from the
// small allocations of the rest of the program.
//
// Why: the wasm heap is one dlmalloc heap (Emscripten 3.1.6) that only grows
// (sbrk; MORECORE_CANNOT_TRIM) and has no mmap. A freed 1 GB block that is
// not next to the heap's top becomes a free chunk in a bin, and dlmalloc
// serves small requests from the smallest binned chunk that fits before it
// touches the top (and then keeps the remainder as its "designated victim"
// for the next small requests). Some small allocation always lives above the
// big block (the program's outputs are allocated after its intermediates,
// and the device threads' allocation caches, Embind handles and job messages
// come and go), so the next call's first few small allocations split the
// freed block, and its 1 GB request no longer fits in the rest: the heap grew
// by 1 GB per call (1.05 -> 2.07 GB over three calls while 17 MB were in
// use), and a 1.6 GB intermediate failed on the second call. Natively glibc
// maps such blocks with mmap and unmaps them on free, which is why only wasm
// showed it.
//
// The fix: a large block is carved (best fit) from a span, one malloc'd
// region that nothing else allocates from, and freeing it returns it to its
// span (coalescing with its free neighbours) instead of to dlmalloc. The
// spans stay after their blocks are freed, so the next call's blocks reuse
// them and the heap stops growing after the first call. A new span also
// leaves room above itself in malloc's heap (a pad malloc'd and freed), for
// the small allocations that come and go between calls, which would
// otherwise grow the heap once more at some later call. A span nobody uses
// goes back to malloc only when memory runs short: when a request fits no
// span (those spans are all smaller than it, and freeing them lets dlmalloc
// merge them with their neighbours), or when a malloc fails.
#pragma once

#include <cstddef>

namespace shardlab {

/// Blocks of at least this many bytes belong in spans (smaller ones stay with malloc).
constexpr size_t kLargeBlockBytes = size_t{1} << 20;

/// A 4 KiB aligned block of `bytes` in a span (a new span if none has room),
/// or null when memory is exhausted. Thread-safe, like malloc.
void* allocate_large(size_t bytes) noexcept;
/// Returns a block of allocate_large to its span.
void free_large(void* block) noexcept;

/// Bytes held in spans, and how many of them blocks use.
struct LargeBlockStats {
  size_t reserved = 0;  ///< bytes of all spans (malloc counts them in use)
  size_t in_use = 0;    ///< bytes of live blocks
};
/// The spans' current totals.
LargeBlockStats large_block_stats() noexcept;

/// Gives every span without live blocks back to malloc (for a malloc that
/// failed); returns whether there was one.
bool release_free_spans() noexcept;

}  // namespace shardlab
