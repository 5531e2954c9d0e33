#include "runtime/shape.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include "runtime/errors.h"

namespace shardlab {

namespace {

// One row per dtype, in DType's order: its names, lane, itemsize and bits.
struct DTypeInfo {
  const char* short_name;
  const char* long_name;
  DType lane;
  size_t itemsize;
  int bits;
};
constexpr DTypeInfo kInfo[] = {
    {"f32", "float32", DType::kFloat32, 4, 32},   {"i32", "int32", DType::kInt32, 4, 32},
    {"bool", "bool", DType::kBool, 1, 1},         {"u32", "uint32", DType::kUInt32, 4, 32},
    {"f16", "float16", DType::kFloat32, 2, 16},   {"bf16", "bfloat16", DType::kFloat32, 2, 16},
    {"i8", "int8", DType::kInt32, 1, 8},          {"u8", "uint8", DType::kUInt32, 1, 8},
    {"i16", "int16", DType::kInt32, 2, 16},       {"u16", "uint16", DType::kUInt32, 2, 16},
};
constexpr size_t kNumDTypes = sizeof(kInfo) / sizeof(kInfo[0]);
static_assert(kNumDTypes == static_cast<size_t>(DType::kUInt16) + 1, "one row of kInfo per DType");

const DTypeInfo& info(DType dtype) { return kInfo[static_cast<size_t>(dtype)]; }

uint32_t bits_of(float f) {
  uint32_t w;
  std::memcpy(&w, &f, 4);
  return w;
}
float float_of(uint32_t w) {
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}

// float32 -> float16 bits, rounding to nearest, ties to even: the 23-bit
// mantissa loses its low 13 bits (a normal), or the value is a multiple of
// 2^-24 (a subnormal below 2^-14); from 65520 up, infinity; a NaN stays one.
uint32_t half_bits(float f) {
  const uint32_t x = bits_of(f), sign = (x >> 16) & 0x8000u, abs = x & 0x7FFFFFFFu;
  if (abs > 0x7F800000u) return sign | 0x7E00u | ((abs >> 13) & 0x3FFu);
  if (abs >= 0x477FF000u) return sign | 0x7C00u;
  if (abs < 0x38800000u) return sign | static_cast<uint32_t>(std::nearbyint(float_of(abs) * 16777216.0f));
  uint32_t h = (abs - 0x38000000u) >> 13;  // exponent rebiased from 127 to 15
  const uint32_t dropped = abs & 0x1FFFu;
  if (dropped > 0x1000u || (dropped == 0x1000u && (h & 1u))) ++h;
  return sign | h;
}
// float16 bits -> float32 (exact): subnormals are mantissa * 2^-24.
float half_value(uint32_t h) {
  const uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1Fu, mant = h & 0x3FFu;
  if (exp == 0) return float_of(sign | bits_of(static_cast<float>(mant) * 5.9604644775390625e-8f));
  if (exp == 31) return float_of(sign | 0x7F800000u | (mant << 13));
  return float_of(sign | ((exp + 112) << 23) | (mant << 13));
}

}  // namespace

DType lane_of(DType dtype) { return info(dtype).lane; }
size_t itemsize(DType dtype) { return info(dtype).itemsize; }
int bit_width(DType dtype) { return info(dtype).bits; }
const char* dtype_name(DType dtype) { return info(dtype).short_name; }

std::pair<double, double> int_range(DType dtype) {
  const int bits = bit_width(dtype);
  if (dtype == DType::kBool) return {0.0, 1.0};
  if (is_unsigned(dtype)) return {0.0, std::ldexp(1.0, bits) - 1};
  return {-std::ldexp(1.0, bits - 1), std::ldexp(1.0, bits - 1) - 1};
}
const char* dtype_long_name(DType dtype) { return info(dtype).long_name; }

float round_to_float16(float x) { return half_value(half_bits(x)); }

float round_to_bfloat16(float x) {
  const uint32_t w = bits_of(x);
  if ((w & 0x7FFFFFFFu) > 0x7F800000u) return float_of((w | 0x00400000u) & 0xFFFF0000u);  // a quiet NaN
  return float_of((w + 0x7FFFu + ((w >> 16) & 1u)) & 0xFFFF0000u);
}

void narrow_words(uint32_t* words, int64_t n, DType dtype) {
  switch (dtype) {
    case DType::kFloat16:
      for (int64_t i = 0; i < n; ++i) words[i] = bits_of(round_to_float16(float_of(words[i])));
      break;
    case DType::kBFloat16:
      for (int64_t i = 0; i < n; ++i) words[i] = bits_of(round_to_bfloat16(float_of(words[i])));
      break;
    case DType::kInt8:
    case DType::kInt16:
    case DType::kUInt8:
    case DType::kUInt16:
      for (int64_t i = 0; i < n; ++i) words[i] = from_bits(words[i], dtype);
      break;
    case DType::kFloat32:
    case DType::kInt32:
    case DType::kBool:
    case DType::kUInt32:
      break;
  }
}

uint32_t to_bits(uint32_t word, DType dtype) {
  if (dtype == DType::kFloat16) return half_bits(float_of(word));
  if (dtype == DType::kBFloat16) return word >> 16;
  const int bits = bit_width(dtype);
  return bits >= 32 || dtype == DType::kBool ? word : word & ((1u << bits) - 1);
}

uint32_t from_bits(uint32_t bits, DType dtype) {
  switch (dtype) {
    case DType::kFloat16:
      return bits_of(half_value(bits & 0xFFFFu));
    case DType::kBFloat16:
      return bits << 16;
    case DType::kInt8:
      return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(bits & 0xFFu)));
    case DType::kInt16:
      return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(bits & 0xFFFFu)));
    case DType::kUInt8:
      return bits & 0xFFu;
    case DType::kUInt16:
      return bits & 0xFFFFu;
    case DType::kFloat32:
    case DType::kInt32:
    case DType::kBool:
    case DType::kUInt32:
      break;
  }
  return bits;
}

uint32_t element_word(double value, DType dtype) {
  uint32_t w = 0;
  if (is_float(dtype)) {
    w = bits_of(static_cast<float>(value));
  } else if (dtype == DType::kBool) {
    w = value != 0 ? 1 : 0;
  } else {
    w = static_cast<uint32_t>(static_cast<int64_t>(std::max(-9.2e18, std::min(9.2e18, value))));
  }
  narrow_words(&w, 1, dtype);
  return w;
}

Dims strides_of(const Shape& shape) noexcept {
  Dims s(shape.size(), 1);
  for (int k = static_cast<int>(shape.size()) - 2; k >= 0; --k) s[k] = s[k + 1] * shape[k + 1];
  return s;
}

std::string shape_str(const Shape& shape) {
  std::ostringstream out;
  out << "[";
  for (size_t i = 0; i < shape.size(); ++i) out << (i ? "," : "") << shape[i];
  out << "]";
  return out.str();
}

int normalize_axis(int axis, int rank, const std::string& fn, const std::string& what) {
  if (axis < -rank || axis >= rank)
    fail(ErrorKind::kShape, fn, ": ", what, "=", axis, " is out of range for rank ", rank, "; valid values are ", -rank,
         "..", rank - 1);
  return axis < 0 ? axis + rank : axis;
}

DType dtype_from_name(const std::string& name, const char* fn) {
  for (size_t d = 0; d < kNumDTypes; ++d)
    if (name == kInfo[d].long_name) return static_cast<DType>(d);
  std::string valid;
  for (size_t d = 0; d < kNumDTypes; ++d) valid += std::string(d ? ", '" : "'") + kInfo[d].long_name + "'";
  fail(ErrorKind::kValue, fn, ": dtype '", name, "' is not supported; use one of ", valid);
}

}  // namespace shardlab
