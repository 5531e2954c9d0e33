// Device memory: 64-byte aligned blocks whose start addresses are staggered
// modulo 4 KiB by device, because per-device buffers that all start at the
// same offset modulo 4 KiB made copy-heavy collectives 1.4-2x slower
// (cache-set and store-forwarding aliasing between the devices' streams).
// Blocks of a megabyte or more live in spans of their own (runtime/large_blocks.h),
// so that a freed large buffer is there again for the next call; they start
// on 4 KiB boundaries, so their stagger is exact.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace shardlab {

/// An owned, aligned, zero-initialised block of device memory.
class Buffer {
 public:
  /// Allocates `bytes` for device `device` (which sets the stagger); throws a
  /// ResourceError when they exceed the device memory or it is exhausted.
  /// 64 bits, so that no byte count is truncated where size_t has 32.
  Buffer(uint64_t bytes, int device);
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer();

  /// The first byte.
  void* data() { return data_; }
  /// The first byte.
  const void* data() const { return data_; }
  /// Size in bytes.
  size_t bytes() const { return bytes_; }

 private:
  void* raw_ = nullptr;
  void* data_ = nullptr;
  size_t bytes_ = 0;
  bool large_ = false;  // raw_ is a block of allocate_large, not of malloc
};

}  // namespace shardlab
