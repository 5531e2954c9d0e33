#include "runtime/strided_copy.h"

#include <cstring>

namespace shardlab {

namespace {

void copy_dim(size_t dim, const Dims& extent, const uint32_t* src, const StridedView& sv, uint32_t* dst,
              const StridedView& dv) noexcept {
  const int64_t n = extent[dim];
  const int64_t ss = sv.strides[dim], ds = dv.strides[dim];
  if (dim + 1 == extent.size()) {
    if (ss == 1 && ds == 1) {
      std::memcpy(dst, src, static_cast<size_t>(n) * 4);
    } else {
      for (int64_t i = 0; i < n; ++i) dst[i * ds] = src[i * ss];
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) copy_dim(dim + 1, extent, src + i * ss, sv, dst + i * ds, dv);
}

}  // namespace

void strided_copy(const Dims& extent, const void* src, const StridedView& sv, void* dst,
                  const StridedView& dv) noexcept {
  for (int64_t e : extent)
    if (e == 0) return;
  const auto* s = static_cast<const uint32_t*>(src) + sv.offset;
  auto* d = static_cast<uint32_t*>(dst) + dv.offset;
  if (extent.empty()) {
    *d = *s;
    return;
  }
  copy_dim(0, extent, s, sv, d, dv);
}

}  // namespace shardlab
