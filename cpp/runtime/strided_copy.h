// Copies between N-d views of 4-byte elements, the one data-movement helper
// behind sharded put/get and the collectives that move blocks of arrays.
#pragma once

#include <cstdint>

#include "runtime/dims.h"

namespace shardlab {

/// An N-d view: element strides per dimension plus a starting offset.
struct StridedView {
  Dims strides;                  ///< element stride of each dimension of the extent
  int64_t offset = 0;            ///< element offset of the first element
};

/// Copies the `extent`-shaped region of `src` (seen through `sv`) into `dst`
/// (seen through `dv`); elements are 4 bytes. The innermost dimension is
/// copied with memcpy when both views are contiguous along it.
void strided_copy(const Dims& extent, const void* src, const StridedView& sv, void* dst,
                  const StridedView& dv) noexcept;

}  // namespace shardlab
