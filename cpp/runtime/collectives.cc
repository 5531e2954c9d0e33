#include "runtime/collectives.h"

#include <cstring>

namespace shardlab {

int64_t pack_inputs(const std::vector<ReduceBuffer>& bufs, DType dtype, std::vector<uint32_t>& dst) {
  int64_t total = 0;
  for (const ReduceBuffer& b : bufs)
    if (b.dtype == dtype) total += b.count;
  dst.resize(static_cast<size_t>(total));
  int64_t at = 0;
  for (const ReduceBuffer& b : bufs)
    if (b.dtype == dtype && b.count > 0) {
      std::memcpy(dst.data() + at, b.in, static_cast<size_t>(b.count) * kElemBytes);
      at += b.count;
    }
  return total;
}

void unpack_outputs(const uint32_t* src, const std::vector<ReduceBuffer>& bufs, DType dtype) {
  for (const ReduceBuffer& b : bufs)
    if (b.dtype == dtype && b.count > 0) {
      std::memcpy(b.out, src, static_cast<size_t>(b.count) * kElemBytes);
      src += b.count;
    }
}

}  // namespace shardlab
