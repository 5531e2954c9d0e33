#include "ir/primitives/reductions.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "ir/transforms/batching.h"
#include "ir/tracing/ops.h"
#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

// The dimensions of an operand of rank `rank` that remain in the result.
std::vector<int64_t> kept_dims(const std::vector<int64_t>& axes, size_t rank) {
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < static_cast<int64_t>(rank); ++d)
    if (std::find(axes.begin(), axes.end(), d) == axes.end()) kept.push_back(d);
  return kept;
}

// The shape rule of every reduction over the `axes` parameter.
std::vector<Aval> reduce_shape(const char* name, const Params& p, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, name, ": takes 1 operand, got ", in.size());
  const auto& axes = param<std::vector<int64_t>>(p, "axes", name);
  const Aval& x = in[0];
  for (size_t i = 0; i < axes.size(); ++i)
    if (axes[i] < 0 || axes[i] >= x.ndim() || (i > 0 && axes[i] <= axes[i - 1]))
      fail(ErrorKind::kShape, name, ": axes ", shape_str(axes), " must be distinct, increasing dimensions of ", x.str(),
           " (0..", x.ndim() - 1, ")");
  Shape out;
  for (int64_t d : kept_dims(axes, x.shape.size())) out.push_back(x.shape[d]);
  return {Aval{x.dtype, out, x.vma}};
}

// Calls f(k, o) for every element k of `in` in row-major order (the fixed
// order that makes reductions deterministic), o being the element of `out` it
// reduces into. (`axes` are increasing: reduce_shape checks.)
template <class F>
void for_each_reduced(const std::vector<int64_t>& axes, const Tensor& in, const Tensor& out, F f) {
  const Shape& ishape = in.aval.shape;
  // Axes that are one run of dimensions (a batch's rows, the last axes, all
  // of them: nearly every reduction a program makes) make the input [pre,
  // red, post] and the output [pre, post]: the same elements in the same
  // order with no index arithmetic per element, the innermost loop over
  // contiguous elements (a gradient's column sums took 9 ns an element in
  // wasm through the general walk below).
  if (axes.empty() || axes.back() - axes.front() + 1 == static_cast<int64_t>(axes.size())) {
    const auto size = [&](size_t from, size_t to) {
      int64_t n = 1;
      for (size_t d = from; d < to; ++d) n *= ishape[d];
      return n;
    };
    const size_t a = axes.empty() ? ishape.size() : static_cast<size_t>(axes.front());
    const size_t b = axes.empty() ? ishape.size() : static_cast<size_t>(axes.back()) + 1;
    const int64_t pre = size(0, a), red = size(a, b), post = size(b, ishape.size());
    for (int64_t p = 0, k = 0; p < pre; ++p)
      for (int64_t r = 0; r < red; ++r)
        for (int64_t q = 0; q < post; ++q, ++k) f(k, p * post + q);
    return;
  }
  // The output stride of each input dimension: 0 for reduced ones, then the
  // kept ones (marked -1 until then) take the output's strides in order.
  const auto ostrides = strides_of(out.aval.shape);
  Dims stride(ishape.size(), -1);
  for (int64_t a : axes) stride[a] = 0;
  for (size_t d = 0, o = 0; d < ishape.size(); ++d)
    if (stride[d] != 0) stride[d] = ostrides[o++];
  const int64_t n_in = num_elements(ishape);
  Dims idx(ishape.size(), 0);
  int64_t offset = 0;
  for (int64_t k = 0; k < n_in; ++k) {
    f(k, offset);
    for (int d = static_cast<int>(ishape.size()) - 1; d >= 0; --d) {
      offset += stride[d];
      if (++idx[d] < ishape[d]) break;
      offset -= stride[d] * ishape[d];
      idx[d] = 0;
    }
  }
}

template <class T>
bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::isnan(v);
  } else {
    return false;
  }
}

// reduce_max (kMax) or reduce_min of T elements, from `identity` (what an
// empty reduction gives, as in XLA); NaN wins, as XLA's max and min.
template <bool kMax, class T>
void eval_extremum_as(const char* name, const Params& p, const Tensor& in, Tensor& out, T identity) {
  T* acc = out.as<T>();
  std::fill(acc, acc + num_elements(out.aval.shape), identity);
  const T* x = in.as<T>();
  for_each_reduced(param<std::vector<int64_t>>(p, "axes", name), in, out, [&](int64_t k, int64_t o) {
    if ((kMax ? x[k] > acc[o] : x[k] < acc[o]) || is_nan(x[k])) acc[o] = x[k];
  });
}

template <bool kMax>
void eval_extremum(const char* name, const Params& p, const Tensor& in, Tensor& out) {
  // The identity: -inf (+inf) for floats, the dtype's smallest (largest) value for integers and bools.
  const auto [lo, hi] = is_float(in.aval.dtype) ? std::pair{-HUGE_VAL, HUGE_VAL} : int_range(in.aval.dtype);
  switch (lane_of(in.aval.dtype)) {
    case DType::kFloat32:
      eval_extremum_as<kMax, float>(name, p, in, out, static_cast<float>(kMax ? lo : hi));
      break;
    case DType::kInt32:
    case DType::kBool:
      eval_extremum_as<kMax, int32_t>(name, p, in, out, static_cast<int32_t>(kMax ? lo : hi));
      break;
    default:
      eval_extremum_as<kMax, uint32_t>(name, p, in, out, static_cast<uint32_t>(kMax ? lo : hi));
      break;
  }
}

// JAX's JVP of reduce_max and reduce_min (z): the mean of the tangents at the
// elements equal to the result, t_out = sum(t * [x == z]) / sum([x == z]).
std::vector<MaybeAtom> extremum_jvp(Builder& b, const char* name, const Params& p, const Atom& x, const Atom& z,
                                    const MaybeAtom& t) {
  if (!t || !is_float(x.aval.dtype)) return {std::nullopt};
  const auto& axes = param<std::vector<int64_t>>(p, "axes", name);
  const Atom spread = broadcast_in_dim(b, z, x.aval.shape, kept_dims(axes, x.aval.shape.size()));
  const Atom chosen = convert_element_type(b, compare(b, Prim::kEq, x, spread), DType::kFloat32);
  return {div(b, reduce_sum(b, mul(b, *t, chosen), axes), reduce_sum(b, chosen, axes))};
}

}  // namespace

std::vector<Batched> batch_reduction(Builder& b, Prim prim, const Params& p, const Batched& x) {
  const auto& axes = param<std::vector<int64_t>>(p, "axes", primitive(prim).name);
  int out = x.dim;  // the batch dimension, less the reduced dimensions before it
  for (int64_t a : axes)
    if (a < x.dim) --out;
  return {Batched{b.emit1(prim, {{"axes", skip_batch_dim(axes, x.dim)}}, {x.value}), out}};
}

// reduce_sum

std::vector<Aval> Def<Prim::kReduceSum>::shape(const Params& p, const std::vector<Aval>& in) {
  return reduce_shape(kName, p, in);
}

void Def<Prim::kReduceSum>::eval(const Params& p, const std::vector<const Tensor*>& in,
                                 const std::vector<Tensor*>& out) {
  const auto& axes = param<std::vector<int64_t>>(p, "axes", kName);
  const int64_t n_out = num_elements(out[0]->aval.shape);
  if (is_float(in[0]->aval.dtype)) {
    std::vector<double> acc(n_out, 0.0);
    const float* x = in[0]->as<float>();
    for_each_reduced(axes, *in[0], *out[0], [&](int64_t k, int64_t o) { acc[o] += x[k]; });
    for (int64_t i = 0; i < n_out; ++i) out[0]->as<float>()[i] = static_cast<float>(acc[i]);
  } else {
    std::vector<int64_t> acc(n_out, 0);
    const int32_t* x = in[0]->as<int32_t>();
    for_each_reduced(axes, *in[0], *out[0], [&](int64_t k, int64_t o) { acc[o] += x[k]; });
    for (int64_t i = 0; i < n_out; ++i) out[0]->as<int32_t>()[i] = static_cast<int32_t>(static_cast<uint32_t>(acc[i]));
  }
}

std::vector<MaybeAtom> Def<Prim::kReduceSum>::jvp(Builder& b, const Params& p, const std::vector<Atom>&,
                                                  const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return linear_jvp(b, Prim::kReduceSum, p, t[0]);
}

std::vector<MaybeAtom> Def<Prim::kReduceSum>::transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                                        const std::vector<Atom>& x, const std::vector<bool>& linear) {
  if (!linear[0] || !cts[0]) return {std::nullopt};
  const auto& axes = param<std::vector<int64_t>>(p, "axes", kName);
  return {broadcast_in_dim(b, *cts[0], x[0].aval.shape, kept_dims(axes, x[0].aval.shape.size()))};
}

Sample Def<Prim::kReduceSum>::sample() { return {{samples::f32({2, 3, 4})}, {{"axes", std::vector<int64_t>{0, 2}}}}; }

// reduce_prod

std::vector<Aval> Def<Prim::kReduceProd>::shape(const Params& p, const std::vector<Aval>& in) {
  auto out = reduce_shape(kName, p, in);
  if (in[0].dtype == DType::kBool) fail(ErrorKind::kShape, kName, ": needs a numeric operand, got ", in[0].str());
  return out;
}
void Def<Prim::kReduceProd>::eval(const Params& p, const std::vector<const Tensor*>& in,
                                  const std::vector<Tensor*>& out) {
  const auto& axes = param<std::vector<int64_t>>(p, "axes", kName);
  const int64_t n_out = num_elements(out[0]->aval.shape);
  if (is_float(in[0]->aval.dtype)) {
    std::vector<double> acc(n_out, 1.0);
    const float* x = in[0]->as<float>();
    for_each_reduced(axes, *in[0], *out[0], [&](int64_t k, int64_t o) { acc[o] *= x[k]; });
    for (int64_t i = 0; i < n_out; ++i) out[0]->as<float>()[i] = static_cast<float>(acc[i]);
  } else {
    uint32_t* acc = out[0]->as<uint32_t>();  // wrapping, as XLA's int32 products
    std::fill(acc, acc + n_out, 1u);
    const uint32_t* x = in[0]->as<uint32_t>();
    for_each_reduced(axes, *in[0], *out[0], [&](int64_t k, int64_t o) { acc[o] *= x[k]; });
  }
}
// The reduced axes moved last and flattened into one of n elements; the
// product of the others at i is prefix(i) * suffix(i), the exclusive
// cumulative products from either end.
std::vector<MaybeAtom> Def<Prim::kReduceProd>::jvp(Builder& b, const Params& p, const std::vector<Atom>& x,
                                                   const std::vector<Atom>& z, const std::vector<MaybeAtom>& t) {
  if (!t[0] || !is_float(x[0].aval.dtype)) return {std::nullopt};
  const auto& axes = param<std::vector<int64_t>>(p, "axes", kName);
  const Shape& shape = x[0].aval.shape;
  std::vector<int64_t> perm = kept_dims(axes, shape.size());
  Shape flat;
  for (int64_t d : perm) flat.push_back(shape[d]);
  int64_t n = 1;
  for (int64_t a : axes) n *= shape[a];
  perm.insert(perm.end(), axes.begin(), axes.end());
  flat.push_back(n);
  if (n == 0) return {zeros_like(b, z[0].aval)};
  const auto lined = [&](const Atom& v) { return reshape(b, ir::transpose(b, v, perm), flat); };
  const Atom xs = lined(x[0]);
  const int64_t last = static_cast<int64_t>(flat.size()) - 1;
  std::vector<int64_t> start(flat.size(), 0), limit = flat;
  IntLists before(flat.size(), std::vector<int64_t>{0, 0, 0}), after = before;
  before[last] = {1, 0, 0};
  after[last] = {0, 1, 0};
  const Atom one = scalar_like(xs, 1.0);
  limit[last] = n - 1;
  const Params fwd{{"axis", last}, {"reverse", false}}, bwd{{"axis", last}, {"reverse", true}};
  const Atom prefix = pad(b, slice(b, b.emit1(Prim::kCumprod, fwd, {xs}), start, limit), one, before);
  start[last] = 1;
  limit[last] = n;
  const Atom suffix = pad(b, slice(b, b.emit1(Prim::kCumprod, bwd, {xs}), start, limit), one, after);
  return {reduce_sum(b, mul(b, lined(*t[0]), mul(b, prefix, suffix)), {last})};
}
Sample Def<Prim::kReduceProd>::sample() { return {{samples::f32({2, 3, 4})}, {{"axes", std::vector<int64_t>{0, 2}}}}; }

// reduce_and, reduce_or

namespace {

std::vector<Aval> logical_shape(const char* name, const Params& p, const std::vector<Aval>& in) {
  auto out = reduce_shape(name, p, in);
  if (in[0].dtype != DType::kBool) fail(ErrorKind::kShape, name, ": needs a bool operand, got ", in[0].str());
  return out;
}

template <bool kAnd>
void eval_logical(const char* name, const Params& p, const Tensor& in, Tensor& out) {
  uint32_t* acc = out.as<uint32_t>();
  std::fill(acc, acc + num_elements(out.aval.shape), kAnd ? 1u : 0u);
  const uint32_t* x = in.as<uint32_t>();
  for_each_reduced(param<std::vector<int64_t>>(p, "axes", name), in, out, [&](int64_t k, int64_t o) {
    acc[o] = kAnd ? (acc[o] && x[k]) : (acc[o] || x[k]);
  });
}

}  // namespace

std::vector<Aval> Def<Prim::kReduceAnd>::shape(const Params& p, const std::vector<Aval>& in) {
  return logical_shape(kName, p, in);
}
void Def<Prim::kReduceAnd>::eval(const Params& p, const std::vector<const Tensor*>& in,
                                 const std::vector<Tensor*>& out) {
  eval_logical<true>(kName, p, *in[0], *out[0]);
}
Sample Def<Prim::kReduceAnd>::sample() { return {{samples::boolean({2, 3})}, {{"axes", std::vector<int64_t>{1}}}}; }

std::vector<Aval> Def<Prim::kReduceOr>::shape(const Params& p, const std::vector<Aval>& in) {
  return logical_shape(kName, p, in);
}
void Def<Prim::kReduceOr>::eval(const Params& p, const std::vector<const Tensor*>& in,
                                const std::vector<Tensor*>& out) {
  eval_logical<false>(kName, p, *in[0], *out[0]);
}
Sample Def<Prim::kReduceOr>::sample() { return {{samples::boolean({2, 3})}, {{"axes", std::vector<int64_t>{0}}}}; }

// reduce_max

std::vector<Aval> Def<Prim::kReduceMax>::shape(const Params& p, const std::vector<Aval>& in) {
  return reduce_shape(kName, p, in);
}
void Def<Prim::kReduceMax>::eval(const Params& p, const std::vector<const Tensor*>& in,
                                 const std::vector<Tensor*>& out) {
  eval_extremum<true>(kName, p, *in[0], *out[0]);
}
std::vector<MaybeAtom> Def<Prim::kReduceMax>::jvp(Builder& b, const Params& p, const std::vector<Atom>& x,
                                                  const std::vector<Atom>& z, const std::vector<MaybeAtom>& t) {
  return extremum_jvp(b, kName, p, x[0], z[0], t[0]);
}

Sample Def<Prim::kReduceMax>::sample() { return {{samples::f32({2, 3, 4})}, {{"axes", std::vector<int64_t>{0, 2}}}}; }

// reduce_min

std::vector<Aval> Def<Prim::kReduceMin>::shape(const Params& p, const std::vector<Aval>& in) {
  return reduce_shape(kName, p, in);
}
void Def<Prim::kReduceMin>::eval(const Params& p, const std::vector<const Tensor*>& in,
                                 const std::vector<Tensor*>& out) {
  eval_extremum<false>(kName, p, *in[0], *out[0]);
}
std::vector<MaybeAtom> Def<Prim::kReduceMin>::jvp(Builder& b, const Params& p, const std::vector<Atom>& x,
                                                  const std::vector<Atom>& z, const std::vector<MaybeAtom>& t) {
  return extremum_jvp(b, kName, p, x[0], z[0], t[0]);
}

Sample Def<Prim::kReduceMin>::sample() { return {{samples::f32({2, 3, 4})}, {{"axes", std::vector<int64_t>{0, 2}}}}; }

// argmax, argmin

namespace {

// The shape rule of argmax and argmin: one axis, of at least one element.
std::vector<Aval> arg_shape(const char* name, const Params& p, const std::vector<Aval>& in) {
  const auto& axes = param<std::vector<int64_t>>(p, "axes", name);
  if (axes.size() != 1) fail(ErrorKind::kValue, name, ": takes one axis, got ", shape_str(axes));
  if (param<DType>(p, "index_dtype", name) != DType::kInt32)
    fail(ErrorKind::kValue, name, ": index_dtype must be int32, got ", dtype_long_name(param<DType>(p, "index_dtype", name)));
  if (in.size() == 1 && in[0].dtype == DType::kBool)
    fail(ErrorKind::kShape, name, ": needs a numeric operand, got ", in[0].str());
  std::vector<Aval> out = reduce_shape(name, p, in);
  if (in[0].shape[axes[0]] == 0)
    fail(ErrorKind::kValue, "attempt to get ", name, " of an empty sequence");
  out[0].dtype = DType::kInt32;
  return out;
}

// The index of the first largest (kMax) or smallest element along the axis, a NaN first of all.
template <bool kMax, class T>
void eval_arg_as(const char* name, const Params& p, const Tensor& in, Tensor& out) {
  const int64_t axis = param<std::vector<int64_t>>(p, "axes", name)[0];
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(axis) + 1; d < in.aval.shape.size(); ++d) inner *= in.aval.shape[d];
  const int64_t n = in.aval.shape[axis], n_out = num_elements(out.aval.shape);
  std::vector<T> best(static_cast<size_t>(n_out));
  int32_t* index = out.as<int32_t>();
  const T* x = in.as<T>();
  for_each_reduced({axis}, in, out, [&](int64_t k, int64_t o) {
    const int32_t i = static_cast<int32_t>((k / inner) % n);
    const T v = x[k];
    if (i == 0 || (!is_nan(best[o]) && (is_nan(v) || (kMax ? v > best[o] : v < best[o])))) {
      best[o] = v;
      index[o] = i;
    }
  });
}

template <bool kMax>
void eval_arg(const char* name, const Params& p, const Tensor& in, Tensor& out) {
  if (is_float(in.aval.dtype)) {
    eval_arg_as<kMax, float>(name, p, in, out);
  } else if (is_unsigned(in.aval.dtype)) {
    eval_arg_as<kMax, uint32_t>(name, p, in, out);
  } else {
    eval_arg_as<kMax, int32_t>(name, p, in, out);
  }
}

// argmax or argmin of a batch: the batch dimension first, the axis after it.
std::vector<Batched> batch_arg(Builder& b, Prim prim, const Params& p, const Batched& x, int64_t size) {
  const auto& axes = param<std::vector<int64_t>>(p, "axes", primitive(prim).name);
  return {Batched{b.emit1(prim, with_param(p, "axes", std::vector<int64_t>{axes[0] + 1}), {move_batch_dim(b, x, 0, size)}), 0}};
}

}  // namespace

std::vector<Aval> Def<Prim::kArgmax>::shape(const Params& p, const std::vector<Aval>& in) {
  return arg_shape(kName, p, in);
}
void Def<Prim::kArgmax>::eval(const Params& p, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  eval_arg<true>(kName, p, *in[0], *out[0]);
}
std::vector<Batched> Def<Prim::kArgmax>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                              int64_t size) {
  return batch_arg(b, Prim::kArgmax, p, in[0], size);
}
Sample Def<Prim::kArgmax>::sample() {
  return {{samples::f32({2, 3, 4})}, {{"axes", std::vector<int64_t>{1}}, {"index_dtype", DType::kInt32}}};
}

std::vector<Aval> Def<Prim::kArgmin>::shape(const Params& p, const std::vector<Aval>& in) {
  return arg_shape(kName, p, in);
}
void Def<Prim::kArgmin>::eval(const Params& p, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  eval_arg<false>(kName, p, *in[0], *out[0]);
}
std::vector<Batched> Def<Prim::kArgmin>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                              int64_t size) {
  return batch_arg(b, Prim::kArgmin, p, in[0], size);
}
Sample Def<Prim::kArgmin>::sample() {
  return {{samples::f32({2, 3, 4})}, {{"axes", std::vector<int64_t>{2}}, {"index_dtype", DType::kInt32}}};
}

// cumsum

namespace {

// Calls f(k, prev) for every element k of an array of `shape` in the order a
// cumulative sum along `axis` visits it, prev being the element before it
// along the axis (-1 for the first).
template <class F>
void for_each_cumulative(const Shape& shape, int64_t axis, bool reverse, F f) {
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(axis) + 1; d < shape.size(); ++d) inner *= shape[d];
  const int64_t n = shape[axis], outer = n ? num_elements(shape) / (n * inner) : 0;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < inner; ++j)
      for (int64_t s = 0; s < n; ++s) {
        const int64_t i = reverse ? n - 1 - s : s, prev = reverse ? i + 1 : i - 1;
        f((o * n + i) * inner + j, s == 0 ? -1 : (o * n + prev) * inner + j);
      }
}

// The shape rule of cumsum and cumprod.
std::vector<Aval> cumulative_shape(const char* name, const Params& p, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, name, ": takes 1 operand, got ", in.size());
  const int64_t axis = param<int64_t>(p, "axis", name);
  if (axis < 0 || axis >= in[0].ndim())
    fail(ErrorKind::kShape, name, ": axis ", axis, " is not a dimension of ", in[0].str(), " (0..", in[0].ndim() - 1,
         ")");
  if (in[0].dtype == DType::kBool) fail(ErrorKind::kShape, name, ": needs a numeric operand, got ", in[0].str());
  return {in[0]};
}

// z_k = combine(z_prev, x_k) along the axis: floats as float, int32 wrapping (as XLA's).
template <class Combine>
void eval_cumulative(const char* name, const Params& p, const Tensor& in, Tensor& out, Combine combine) {
  const int64_t axis = param<int64_t>(p, "axis", name);
  const bool reverse = param<bool>(p, "reverse", name);
  const auto run = [&](auto* z, const auto* x) {
    for_each_cumulative(in.aval.shape, axis, reverse, [&](int64_t k, int64_t prev) {
      z[k] = prev < 0 ? x[k] : combine(z[prev], x[k]);
    });
  };
  if (is_float(in.aval.dtype)) {
    run(out.as<float>(), in.as<float>());
  } else {
    run(out.as<uint32_t>(), in.as<uint32_t>());
  }
}

// A cumulative primitive of a batch: the batch dimension first, the axis after it.
std::vector<Batched> batch_cumulative(Builder& b, Prim prim, const Params& p, const Batched& x, int64_t size) {
  return {Batched{
      b.emit1(prim, with_param(p, "axis", param<int64_t>(p, "axis", primitive(prim).name) + 1), {move_batch_dim(b, x, 0, size)}),
      0}};
}

}  // namespace

std::vector<Aval> Def<Prim::kCumsum>::shape(const Params& p, const std::vector<Aval>& in) {
  return cumulative_shape(kName, p, in);
}
void Def<Prim::kCumsum>::eval(const Params& p, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  eval_cumulative(kName, p, *in[0], *out[0], [](auto a, auto x) { return a + x; });
}
std::vector<MaybeAtom> Def<Prim::kCumsum>::jvp(Builder& b, const Params& p, const std::vector<Atom>&,
                                               const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return linear_jvp(b, Prim::kCumsum, p, t[0]);
}
std::vector<MaybeAtom> Def<Prim::kCumsum>::transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                                     const std::vector<Atom>&, const std::vector<bool>& linear) {
  if (!linear[0] || !cts[0]) return {std::nullopt};
  // z = L x with L lower-triangular ones along the axis: x_ct = L^T z_ct, the sum the other way.
  return {b.emit1(Prim::kCumsum, with_param(p, "reverse", !param<bool>(p, "reverse", kName)), {*cts[0]})};
}
std::vector<Batched> Def<Prim::kCumsum>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                              int64_t size) {
  return batch_cumulative(b, Prim::kCumsum, p, in[0], size);
}
Sample Def<Prim::kCumsum>::sample() { return {{samples::f32({2, 3, 4})}, {{"axis", int64_t{1}}, {"reverse", false}}}; }

// cumprod

std::vector<Aval> Def<Prim::kCumprod>::shape(const Params& p, const std::vector<Aval>& in) {
  return cumulative_shape(kName, p, in);
}
void Def<Prim::kCumprod>::eval(const Params& p, const std::vector<const Tensor*>& in,
                               const std::vector<Tensor*>& out) {
  eval_cumulative(kName, p, *in[0], *out[0], [](auto a, auto x) { return a * x; });
}
// Hillis-Steele over the pairs (y, dy): at step s each element combines with
// the one s before it (identity (1, 0) before the start); after log2(n)
// steps y is the cumulative product and dy its tangent, linear in dx.
std::vector<MaybeAtom> Def<Prim::kCumprod>::jvp(Builder& b, const Params& p, const std::vector<Atom>& x,
                                                const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  if (!t[0] || !is_float(x[0].aval.dtype)) return {std::nullopt};
  const int64_t axis = param<int64_t>(p, "axis", kName);
  const bool reverse = param<bool>(p, "reverse", kName);
  const Shape& shape = x[0].aval.shape;
  const int64_t n = shape[axis];
  Atom y = x[0], dy = *t[0];
  for (int64_t s = 1; s < n; s *= 2) {
    // The element s before each one along the scan's direction, identity-padded.
    std::vector<int64_t> start(shape.size(), 0), limit = shape;
    IntLists config(shape.size(), std::vector<int64_t>{0, 0, 0});
    if (reverse) {
      start[axis] = s;
      config[axis] = {0, s, 0};
    } else {
      limit[axis] = n - s;
      config[axis] = {s, 0, 0};
    }
    const Atom y_before = pad(b, slice(b, y, start, limit), scalar_like(y, 1.0), config);
    const Atom dy_before = pad(b, slice(b, dy, start, limit), scalar_like(dy, 0.0), config);
    dy = add(b, mul(b, dy_before, y), mul(b, y_before, dy));
    y = mul(b, y_before, y);
  }
  return {dy};
}
std::vector<Batched> Def<Prim::kCumprod>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                               int64_t size) {
  return batch_cumulative(b, Prim::kCumprod, p, in[0], size);
}
Sample Def<Prim::kCumprod>::sample() { return {{samples::f32({2, 5, 3})}, {{"axis", int64_t{1}}, {"reverse", true}}}; }

}  // namespace shardlab::ir
