#include "runtime/buffer.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "runtime/errors.h"

namespace shardlab {

namespace {
constexpr size_t kAlign = 64;
constexpr size_t kStaggerStep = 9 * kAlign;  // 576: 8 devices land on 8 distinct 64-byte slots mod 4 KiB
}  // namespace

Buffer::Buffer(size_t bytes, int device) : bytes_(bytes) {
  const size_t stagger = (static_cast<size_t>(device) * kStaggerStep) % 4096;
  raw_ = std::malloc(bytes + kAlign + stagger);
  if (!raw_)
    fail(ErrorKind::kResource, "Buffer: cannot allocate ", bytes, " bytes for device ", device,
         "; the device memory is exhausted (free arrays, or start the runtime with more memory)");
  const auto base = (reinterpret_cast<uintptr_t>(raw_) + kAlign - 1) & ~(uintptr_t{kAlign} - 1);
  data_ = reinterpret_cast<void*>(base + stagger);
  std::memset(data_, 0, bytes);
}

Buffer::~Buffer() { std::free(raw_); }

}  // namespace shardlab
