#include "runtime/shape.h"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "runtime/errors.h"

namespace shardlab {

const char* dtype_name(DType dtype) {
  switch (dtype) {
    case DType::kFloat32:
      return "f32";
    case DType::kInt32:
      return "i32";
    case DType::kBool:
      return "bool";
    case DType::kUInt32:
      return "u32";
  }
  return "?";
}

const char* dtype_long_name(DType dtype) {
  switch (dtype) {
    case DType::kFloat32:
      return "float32";
    case DType::kInt32:
      return "int32";
    case DType::kBool:
      return "bool";
    case DType::kUInt32:
      return "uint32";
  }
  return "?";
}

uint32_t element_word(double value, DType dtype) {
  uint32_t w = 0;
  if (dtype == DType::kFloat32) {
    const float f = static_cast<float>(value);
    std::memcpy(&w, &f, 4);
  } else if (dtype == DType::kBool) {
    w = value != 0 ? 1 : 0;
  } else {
    w = static_cast<uint32_t>(static_cast<int64_t>(std::max(-9.2e18, std::min(9.2e18, value))));
  }
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
  if (name == "float32") return DType::kFloat32;
  if (name == "int32") return DType::kInt32;
  if (name == "bool") return DType::kBool;
  if (name == "uint32") return DType::kUInt32;
  fail(ErrorKind::kValue, fn, ": dtype '", name, "' is not supported; use 'float32', 'int32', 'uint32' or 'bool'");
}

}  // namespace shardlab
