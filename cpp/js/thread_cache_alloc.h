// The wasm module's per-thread caches of small C++ allocations
// (thread_cache_alloc.cc replaces the global operator new and delete).
#pragma once

#include <cstddef>

namespace shardlab::js {

/// Bytes malloc counts as in use that sit free in the threads' caches.
size_t thread_cache_bytes();

}  // namespace shardlab::js
