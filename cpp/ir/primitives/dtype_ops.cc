#include "ir/primitives/dtype_ops.h"

#include <cstring>

#include <limits>

#include "ir/transforms/batching.h"
#include "ir/tracing/ops.h"
#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

// float -> int32 as XLA converts: toward zero, saturating, NaN to 0 (a plain
// cast of an out-of-range float is undefined in C++).
int32_t to_int32(float v) {
  if (v != v) return 0;
  if (v <= -2147483648.0f) return std::numeric_limits<int32_t>::min();
  if (v >= 2147483648.0f) return std::numeric_limits<int32_t>::max();
  return static_cast<int32_t>(v);
}
int32_t to_int32(int32_t v) { return v; }
int32_t to_int32(uint32_t v) { return static_cast<int32_t>(v); }  // wraps, as XLA's integer conversions
// float -> uint32 saturates (NaN -> 0), as XLA's; integers wrap.
uint32_t to_uint32(float v) {
  if (!(v > 0.0f)) return 0;
  if (v >= 4294967296.0f) return 0xFFFFFFFFu;
  return static_cast<uint32_t>(v);
}
uint32_t to_uint32(int32_t v) { return static_cast<uint32_t>(v); }
uint32_t to_uint32(uint32_t v) { return v; }

template <class From>
void convert_from(const From* src, Tensor& out) {
  const int64_t n = num_elements(out.aval.shape);
  switch (out.aval.dtype) {
    case DType::kFloat32:
      for (int64_t k = 0; k < n; ++k) out.as<float>()[k] = static_cast<float>(src[k]);
      break;
    case DType::kInt32:
      for (int64_t k = 0; k < n; ++k) out.as<int32_t>()[k] = to_int32(src[k]);
      break;
    case DType::kBool:
      for (int64_t k = 0; k < n; ++k) out.as<int32_t>()[k] = src[k] != 0;
      break;
    case DType::kUInt32:
      for (int64_t k = 0; k < n; ++k) out.as<uint32_t>()[k] = to_uint32(src[k]);
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
  if (in[0]->aval.dtype == DType::kFloat32) {
    convert_from(in[0]->as<float>(), *out[0]);
  } else if (in[0]->aval.dtype == DType::kUInt32) {
    convert_from(in[0]->as<uint32_t>(), *out[0]);
  } else {
    convert_from(in[0]->as<int32_t>(), *out[0]);
  }
}
std::vector<MaybeAtom> Def<Prim::kConvertElementType>::jvp(Builder& b, const Params& p, const std::vector<Atom>& x,
                                                           const std::vector<Atom>& z,
                                                           const std::vector<MaybeAtom>& t) {
  // Integer and bool values are piecewise constant: their tangents are zero.
  if (x[0].aval.dtype != DType::kFloat32 || z[0].aval.dtype != DType::kFloat32) return {std::nullopt};
  return linear_jvp(b, Prim::kConvertElementType, p, t[0]);
}
std::vector<MaybeAtom> Def<Prim::kConvertElementType>::transpose(Builder& b, const Params& p,
                                                                 const std::vector<MaybeAtom>& cts,
                                                                 const std::vector<Atom>& x,
                                                                 const std::vector<bool>& linear) {
  if (!linear[0]) return {std::nullopt};
  const DType to = param<DType>(p, "new_dtype", kName);
  if (x[0].aval.dtype != DType::kFloat32 || to != DType::kFloat32)
    fail(ErrorKind::kValue, kName, ": only float32 to float32 conversions are linear, not ", x[0].aval.str(), " to ",
         dtype_long_name(to), "; cannot transpose");
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
  if (in[0].dtype == DType::kBool || to == DType::kBool)
    fail(ErrorKind::kShape, kName, ": converts between float32, int32 and uint32 (32 bits each), got ", in[0].str(),
         " to ", dtype_long_name(to));
  return {Aval{to, in[0].shape, in[0].vma}};
}
void Def<Prim::kBitcastConvertType>::eval(const Params&, const std::vector<const Tensor*>& in,
                                          const std::vector<Tensor*>& out) {
  std::memcpy(out[0]->data, in[0]->data, static_cast<size_t>(num_elements(in[0]->aval.shape)) * kElemBytes);
}
Sample Def<Prim::kBitcastConvertType>::sample() { return {{samples::f32({2, 3})}, {{"new_dtype", DType::kUInt32}}}; }

// iota

std::vector<Aval> Def<Prim::kIota>::shape(const Params& p, const std::vector<Aval>& in) {
  if (!in.empty()) fail(ErrorKind::kValue, kName, ": takes no operands, got ", in.size());
  const DType dtype = param<DType>(p, "dtype", kName);
  const Shape& shape = param<std::vector<int64_t>>(p, "shape", kName);
  const int64_t dim = param<int64_t>(p, "dimension", kName);
  if (dtype == DType::kBool) fail(ErrorKind::kShape, kName, ": dtype bool is not supported; use int32, uint32 or float32");
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
  const bool is_float = out[0]->aval.dtype == DType::kFloat32;
  int64_t k = 0;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < shape[dim]; ++i)
      for (int64_t j = 0; j < inner; ++j, ++k) {
        if (is_float) {
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
