// Shapes and element types of arrays.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "runtime/dims.h"

namespace shardlab {

/// Element types. Every element is stored in a 4-byte lane, so buffers and
/// collectives never see a narrower type: a bool is an int32 holding 0 or 1; a
/// float16 or bfloat16 is a float32 holding a value of its own format; an int8
/// or int16 an int32, a uint8 or uint16 a uint32, holding a value of its range.
/// Kernels compute in the lane's type and the executors narrow each result to
/// its dtype (narrow_words), as XLA computes such types on a CPU in float32.
enum class DType : uint8_t { kFloat32, kInt32, kBool, kUInt32, kFloat16, kBFloat16, kInt8, kUInt8, kInt16, kUInt16 };

/// Bytes of the lane every element is stored in, whatever its dtype.
constexpr size_t kElemBytes = 4;

/// The dtype of the lane `dtype` is stored and computed in: float32 for the
/// floats, int32 for the signed integers, uint32 for the unsigned ones, bool.
DType lane_of(DType dtype);
/// Whether `dtype` is a floating-point type (float32, float16, bfloat16).
inline bool is_float(DType dtype) { return lane_of(dtype) == DType::kFloat32; }
/// Whether `dtype` is an unsigned integer type (uint8, uint16, uint32).
inline bool is_unsigned(DType dtype) { return lane_of(dtype) == DType::kUInt32; }
/// Whether `dtype` is a signed integer type (int8, int16, int32).
inline bool is_signed_int(DType dtype) { return lane_of(dtype) == DType::kInt32; }
/// JAX's itemsize of `dtype` in bytes (a bool is 1): what nbytes, memory
/// figures and bytes sent count, though every element is stored in a lane.
size_t itemsize(DType dtype);
/// Bits of an integer dtype's values (8, 16 or 32; 1 for a bool).
int bit_width(DType dtype);
/// The smallest and largest values of an integer dtype (a bool's 0 and 1), exact as doubles.
std::pair<double, double> int_range(DType dtype);

/// Rounds (float16, bfloat16: to nearest, ties to even, overflowing to
/// infinity) or wraps (the narrow integers: modulo 2^bits) `n` lanes of
/// `dtype` to values of the dtype, in place; nothing for a 4-byte dtype.
void narrow_words(uint32_t* words, int64_t n, DType dtype);
/// The float32 nearest `x` that float16 holds (ties to even; beyond 65520, infinity).
float round_to_float16(float x);
/// The float32 nearest `x` that bfloat16 holds (float32's top 16 bits, ties to even).
float round_to_bfloat16(float x);
/// An element's bits in its dtype's own format (a float16's 16 bits, an int8's
/// 8), zero-extended, as bitcast_convert_type reads them; the inverse of from_bits.
uint32_t to_bits(uint32_t word, DType dtype);
/// The lane holding the element whose bits in `dtype`'s own format are `bits`.
uint32_t from_bits(uint32_t bits, DType dtype);

/// JAX's short name of a dtype ("f32", "bf16", "i8", "bool", ...), as avals print.
const char* dtype_name(DType dtype);
/// numpy's name of a dtype ("float32", "bfloat16", "int8", "bool", ...), as params and the JS API print.
const char* dtype_long_name(DType dtype);

/// The 4-byte element of `dtype` holding `value` (a literal's, a fill's): a
/// float's bits, rounded to its dtype; an integer wrapped to its dtype's bits
/// (saturating first beyond int64), as a uint32 literal above 2^31 needs; a
/// bool's 0 or 1.
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
