#include "runtime/buffer.h"

#include <cstdlib>
#include <cstring>

#include "runtime/errors.h"
#include "runtime/large_blocks.h"
#include "platform/platform.h"
#include "runtime/sizes.h"

namespace shardlab {

namespace {
constexpr size_t kAlign = 64;
constexpr size_t kStaggerStep = 9 * kAlign;  // 576: 8 devices land on 8 distinct 64-byte slots mod 4 KiB
}  // namespace

Buffer::Buffer(uint64_t bytes, int device) {
  const size_t stagger = (static_cast<size_t>(device) * kStaggerStep) % 4096;
  // The device memory is at most 2 GiB in wasm, so a block within it also
  // fits size_t with its padding.
  const uint64_t limit = platform::device_memory_bytes();
  if (bytes > limit || bytes > SIZE_MAX - kAlign - stagger)
    fail(ErrorKind::kResource, "Buffer: cannot allocate ", bytes_str(bytes), " for device ", device, ": more than the ",
         bytes_str(limit), " of device memory");
  bytes_ = static_cast<size_t>(bytes);
  const size_t total = bytes_ + kAlign + stagger;
  large_ = total >= kLargeBlockBytes;
  raw_ = large_ ? allocate_large(total) : std::malloc(total);
  // Unused spans hold memory malloc may need: give them back and try again.
  if (!raw_ && !large_ && release_free_spans()) raw_ = std::malloc(total);
  if (!raw_)
    fail(ErrorKind::kResource, "Buffer: cannot allocate ", bytes, " bytes for device ", device,
         "; the device memory is exhausted (free arrays, or start the runtime with more memory)");
  const auto base = (reinterpret_cast<uintptr_t>(raw_) + kAlign - 1) & ~(uintptr_t{kAlign} - 1);
  data_ = reinterpret_cast<void*>(base + stagger);
  std::memset(data_, 0, bytes_);
}

Buffer::~Buffer() {
  if (large_) {
    free_large(raw_);
  } else {
    std::free(raw_);
  }
}

}  // namespace shardlab
