// Shapes and element types of arrays.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/dims.h"

namespace shardlab {

/// Element types: everything ShardLab stores is 4 bytes wide (a bool is an
/// int32 holding 0 or 1, so collectives and buffers never see a narrower type).
enum class DType : uint8_t { kFloat32, kInt32, kBool, kUInt32 };

/// Bytes per element of every DType.
constexpr size_t kElemBytes = 4;

/// JAX's short name of a dtype ("f32", "i32", "bool", "u32"), as avals print.
const char* dtype_name(DType dtype);
/// numpy's name of a dtype ("float32", "int32", "bool"), as params and the JS API print.
const char* dtype_long_name(DType dtype);

/// The 4-byte element of `dtype` holding `value` (a literal's, a fill's): a
/// float32's bits; an integer wrapped to 32 bits (saturating first beyond
/// int64), as a uint32 literal above 2^31 needs; a bool's 0 or 1.
uint32_t element_word(double value, DType dtype);

/// The DType numpy calls `name`; throws a ValueError naming `fn` and the valid names.
DType dtype_from_name(const std::string& name, const char* fn);

/// Dimensions of an array, outermost first.
using Shape = std::vector<int64_t>;

/// Number of elements of `shape` (1 for a scalar). Inline, noexcept and
/// unchecked: it runs for every operand of every equation, on shapes checked
/// where they were made (runtime/sizes.h), whose counts cannot overflow.
inline int64_t num_elements(const Shape& shape) noexcept {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}
/// Row-major strides of `shape`, in elements.
Dims strides_of(const Shape& shape) noexcept;
/// Text like [8,2] (JAX's f32[8,2] without the dtype).
std::string shape_str(const Shape& shape);
/// Normalises a possibly negative `axis` for an array of rank `rank` (or
/// rank + 1 when inserting); throws a ShapeError naming `fn` and `what`.
int normalize_axis(int axis, int rank, const std::string& fn, const std::string& what);

}  // namespace shardlab
