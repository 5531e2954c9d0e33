#include "ir/primitives/dtype_ops.h"

#include <cstring>

#include <cmath>
#include <type_traits>
#include <utility>

#include "ir/transforms/batching.h"
#include "ir/tracing/ops.h"
#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

// float -> an integer dtype as XLA converts: toward zero, saturating at the
// dtype's range, NaN to 0 (a plain cast of an out-of-range float is undefined in C++).
uint32_t float_to_int(float v, DType dtype) {
  if (v != v) return 0;
  const auto [lo, hi] = int_range(dtype);
  const double t = std::trunc(static_cast<double>(v)), c = t < lo ? lo : t > hi ? hi : t;
  return is_unsigned(dtype) ? static_cast<uint32_t>(c) : static_cast<uint32_t>(static_cast<int32_t>(c));
}

// An element of lane type From converted to `dtype`'s lane: floats round
// (to float32 here; the executor rounds a narrower float once more, which is
// exact, as float32 holds twice a float16's digits and two more), integers
// wrap (modulo 2^32 here, to the dtype's bits by the executor), as XLA's.
template <class From>
void convert_from(const From* src, Tensor& out) {
  const int64_t n = num_elements(out.aval.shape);
  const DType dtype = out.aval.dtype;
  switch (lane_of(dtype)) {
    case DType::kFloat32:
      for (int64_t k = 0; k < n; ++k) out.as<float>()[k] = static_cast<float>(src[k]);
      break;
    case DType::kBool:
      for (int64_t k = 0; k < n; ++k) out.as<int32_t>()[k] = src[k] != 0;
      break;
    default:
      for (int64_t k = 0; k < n; ++k) {
        if constexpr (std::is_same_v<From, float>) {
          out.as<uint32_t>()[k] = float_to_int(src[k], dtype);
        } else {
          out.as<uint32_t>()[k] = static_cast<uint32_t>(src[k]);
        }
      }
      break;
  }
}

}  // namespace

// convert_element_type

std::vector<Aval> Def<Prim::kConvertElementType>::shape(const Params& p, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, kName, ": takes 1 operand, got ", in.size());
  return {Aval{param<DType>(p, "new_dtype", kName), in[0].shape, in[0].vma, param<bool>(p, "weak_type", kName)}};
}
void Def<Prim::kConvertElementType>::eval(const Params&, const std::vector<const Tensor*>& in,
                                          const std::vector<Tensor*>& out) {
  if (is_float(in[0]->aval.dtype)) {
    convert_from(in[0]->as<float>(), *out[0]);
  } else if (is_unsigned(in[0]->aval.dtype)) {
    convert_from(in[0]->as<uint32_t>(), *out[0]);
  } else {
    convert_from(in[0]->as<int32_t>(), *out[0]);
  }
}
std::vector<MaybeAtom> Def<Prim::kConvertElementType>::jvp(Builder& b, const Params& p, const std::vector<Atom>& x,
                                                           const std::vector<Atom>& z,
                                                           const std::vector<MaybeAtom>& t) {
  // Integer and bool values are piecewise constant: their tangents are zero.
  if (!is_float(x[0].aval.dtype) || !is_float(z[0].aval.dtype)) return {std::nullopt};
  return linear_jvp(b, Prim::kConvertElementType, p, t[0]);
}
std::vector<MaybeAtom> Def<Prim::kConvertElementType>::transpose(Builder& b, const Params& p,
                                                                 const std::vector<MaybeAtom>& cts,
                                                                 const std::vector<Atom>& x,
                                                                 const std::vector<bool>& linear) {
  if (!linear[0]) return {std::nullopt};
  const DType to = param<DType>(p, "new_dtype", kName);
  if (!is_float(x[0].aval.dtype) || !is_float(to))
    fail(ErrorKind::kValue, kName, ": only conversions between floating-point types are linear, not ", x[0].aval.str(),
         " to ", dtype_long_name(to), "; cannot transpose");
  if (!cts[0]) return {std::nullopt};
  return {convert_element_type(b, *cts[0], x[0].aval.dtype)};
}

Sample Def<Prim::kConvertElementType>::sample() {
  return {{samples::f32({2, 3})}, {{"new_dtype", DType::kInt32}, {"weak_type", false}}};
}

// bitcast_convert_type

std::vector<Aval> Def<Prim::kBitcastConvertType>::shape(const Params& p, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, kName, ": takes 1 operand, got ", in.size());
  const DType to = param<DType>(p, "new_dtype", kName);
  if (in[0].dtype == DType::kBool || to == DType::kBool || itemsize(in[0].dtype) != itemsize(to))
    fail(ErrorKind::kShape, kName, ": converts between dtypes of one width (float32, int32 and uint32; float16, ",
         "bfloat16, int16 and uint16; int8 and uint8), got ", in[0].str(), " to ", dtype_long_name(to));
  return {Aval{to, in[0].shape, in[0].vma}};
}
// The same bits read as the new dtype: each lane's bits in its dtype's own
// format (to_bits), then the lane holding those bits of the new one.
void Def<Prim::kBitcastConvertType>::eval(const Params&, const std::vector<const Tensor*>& in,
                                          const std::vector<Tensor*>& out) {
  const DType from = in[0]->aval.dtype, to = out[0]->aval.dtype;
  const int64_t n = num_elements(in[0]->aval.shape);
  if (itemsize(from) == kElemBytes) {
    std::memcpy(out[0]->data, in[0]->data, static_cast<size_t>(n) * kElemBytes);
    return;
  }
  for (int64_t k = 0; k < n; ++k) out[0]->as<uint32_t>()[k] = from_bits(to_bits(in[0]->as<uint32_t>()[k], from), to);
}
Sample Def<Prim::kBitcastConvertType>::sample() { return {{samples::f32({2, 3})}, {{"new_dtype", DType::kUInt32}}}; }

// iota

std::vector<Aval> Def<Prim::kIota>::shape(const Params& p, const std::vector<Aval>& in) {
  if (!in.empty()) fail(ErrorKind::kValue, kName, ": takes no operands, got ", in.size());
  const DType dtype = param<DType>(p, "dtype", kName);
  const Shape& shape = param<std::vector<int64_t>>(p, "shape", kName);
  const int64_t dim = param<int64_t>(p, "dimension", kName);
  if (dtype == DType::kBool) fail(ErrorKind::kShape, kName, ": dtype bool is not supported; use a numeric dtype");
  for (int64_t s : shape)
    if (s < 0) fail(ErrorKind::kShape, kName, ": shape ", shape_str(shape), " has a negative size");
  if (dim < 0 || dim >= static_cast<int64_t>(shape.size()))
    fail(ErrorKind::kShape, kName, ": dimension ", dim, " is out of range for shape ", shape_str(shape), " of rank ",
         shape.size());
  return {Aval{dtype, shape, {}}};
}
void Def<Prim::kIota>::eval(const Params& p, const std::vector<const Tensor*>&, const std::vector<Tensor*>& out) {
  const Shape& shape = out[0]->aval.shape;
  const auto dim = static_cast<size_t>(param<int64_t>(p, "dimension", kName));
  const int64_t inner = strides_of(shape)[dim];
  int64_t outer = 1;
  for (size_t d = 0; d < dim; ++d) outer *= shape[d];
  const bool floats = is_float(out[0]->aval.dtype);
  int64_t k = 0;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < shape[dim]; ++i)
      for (int64_t j = 0; j < inner; ++j, ++k) {
        if (floats) {
          out[0]->as<float>()[k] = static_cast<float>(i);
        } else {
          out[0]->as<int32_t>()[k] = static_cast<int32_t>(i);
        }
      }
}
std::vector<MaybeAtom> Def<Prim::kIota>::jvp(Builder&, const Params&, const std::vector<Atom>&,
                                             const std::vector<Atom>&, const std::vector<MaybeAtom>&) {
  return {std::nullopt};
}
std::vector<MaybeAtom> Def<Prim::kIota>::transpose(Builder&, const Params&, const std::vector<MaybeAtom>&,
                                                   const std::vector<Atom>&, const std::vector<bool>&) {
  return {};
}

Sample Def<Prim::kIota>::sample() {
  return {{}, {{"dtype", DType::kFloat32}, {"shape", std::vector<int64_t>{3, 4}}, {"dimension", int64_t{1}}}};
}

}  // namespace shardlab::ir
