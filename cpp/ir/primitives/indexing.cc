#include "ir/primitives/indexing.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "ir/transforms/batching.h"
#include "ir/tracing/ops.h"
#include "ir/primitives/sharding_rules.h"
#include "runtime/errors.h"
#include "runtime/strided_copy.h"

namespace shardlab::ir {

namespace {

// A dense row-major array seen as a strided view, `offset` elements in.
StridedView dense(const Shape& shape, int64_t offset = 0) { return StridedView{strides_of(shape), offset}; }

// The dimensions 0..rank-1.
std::vector<int64_t> all_dims(size_t rank) {
  std::vector<int64_t> dims(rank);
  for (size_t d = 0; d < rank; ++d) dims[d] = static_cast<int64_t>(d);
  return dims;
}

// The index operands in[first..]: one int32 scalar per dimension of `x`.
void check_indices(const char* name, const std::vector<Aval>& in, size_t first, const Aval& x) {
  if (in.size() - first != x.shape.size())
    fail(ErrorKind::kValue, name, ": ", x.str(), " needs ", x.ndim(), " indices (one per dimension), got ",
         in.size() - first);
  for (size_t i = first; i < in.size(); ++i)
    if (in[i].dtype != DType::kInt32 || !in[i].shape.empty())
      fail(ErrorKind::kShape, name, ": index ", i - first, " is ", in[i].str(), "; indices must be int32 scalars");
}

// The start of a `window` in an operand of `shape` at the indices in[first..],
// clamped as XLA does so that the window fits.
int64_t window_offset(const std::vector<const Tensor*>& in, size_t first, const Shape& shape, const Shape& window) {
  const auto strides = strides_of(shape);
  int64_t offset = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    offset += std::clamp<int64_t>(in[first + d]->as<int32_t>()[0], 0, shape[d] - window[d]) * strides[d];
  return offset;
}

// The index operands x[first..] of a dynamic slice; a program is never linear
// in integers, so this fails if one is marked linear.
std::vector<Atom> indices_of(const std::vector<Atom>& x, const std::vector<bool>& linear, size_t first,
                             const char* name) {
  std::vector<Atom> indices(x.begin() + first, x.end());
  not_linear(name, indices, std::vector<bool>(linear.begin() + first, linear.end()));
  return indices;
}

// The index operands in[first..] of a batch (one int32 scalar per dimension,
// each example's own or shared) as index vectors [size, n], one per example.
Atom index_vectors(Builder& b, const std::vector<Batched>& in, size_t first, int64_t size) {
  std::vector<Atom> columns;
  for (size_t i = first; i < in.size(); ++i) columns.push_back(reshape(b, move_batch_dim(b, in[i], 0, size), {size, 1}));
  return columns.size() == 1 ? columns[0] : concatenate(b, columns, 1);
}

}  // namespace

// concatenate

std::vector<Aval> Def<Prim::kConcatenate>::shape(const Params& p, const std::vector<Aval>& in) {
  if (in.empty()) fail(ErrorKind::kValue, kName, ": takes at least 1 operand, got 0");
  const int64_t dim = param<int64_t>(p, "dimension", kName);
  const Aval& first = in[0];
  if (dim < 0 || dim >= first.ndim())
    fail(ErrorKind::kShape, kName, ": dimension ", dim, " is out of range for ", first.str(), " of rank ",
         first.ndim());
  Shape out = first.shape;
  out[dim] = 0;
  for (const Aval& a : in) {
    bool same = a.dtype == first.dtype && a.shape.size() == first.shape.size();
    for (int64_t d = 0; same && d < first.ndim(); ++d) same = d == dim || a.shape[d] == first.shape[d];
    if (!same)
      fail(ErrorKind::kShape, kName, ": operands ", first.str(), " and ", a.str(),
           " must have equal dtypes and equal shapes except along dimension ", dim);
    if (__builtin_add_overflow(out[dim], a.shape[dim], &out[dim]))
      fail(ErrorKind::kResource, kName, ": the result has more than 2^63 entries along dimension ", dim);
  }
  return {Aval{first.dtype, out, vma_union(in)}};
}
void Def<Prim::kConcatenate>::eval(const Params& p, const std::vector<const Tensor*>& in,
                                   const std::vector<Tensor*>& out) {
  const int64_t dim = param<int64_t>(p, "dimension", kName);
  const Shape& oshape = out[0]->aval.shape;
  int64_t at = 0;
  for (const Tensor* t : in) {
    strided_copy(t->aval.shape, t->data, dense(t->aval.shape), out[0]->data,
                 dense(oshape, at * strides_of(oshape)[dim]));
    at += t->aval.shape[dim];
  }
}
std::vector<MaybeAtom> Def<Prim::kConcatenate>::jvp(Builder& b, const Params& p, const std::vector<Atom>& x,
                                                    const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  if (std::none_of(t.begin(), t.end(), [](const MaybeAtom& a) { return a.has_value(); })) return {std::nullopt};
  std::vector<Atom> parts;
  for (size_t i = 0; i < x.size(); ++i) parts.push_back(t[i] ? *t[i] : zeros_like(b, x[i].aval));
  return {concatenate(b, parts, param<int64_t>(p, "dimension", kName))};
}
std::vector<MaybeAtom> Def<Prim::kConcatenate>::transpose(Builder& b, const Params& p,
                                                          const std::vector<MaybeAtom>& cts, const std::vector<Atom>& x,
                                                          const std::vector<bool>& linear) {
  std::vector<MaybeAtom> out(x.size());
  if (!cts[0]) return out;
  const int64_t dim = param<int64_t>(p, "dimension", kName);
  std::vector<int64_t> start(cts[0]->aval.shape.size(), 0), limit = cts[0]->aval.shape;
  for (size_t i = 0; i < x.size(); ++i) {
    limit[dim] = start[dim] + x[i].aval.shape[dim];
    if (linear[i]) out[i] = slice(b, *cts[0], start, limit);
    start[dim] = limit[dim];
  }
  return out;
}

// Every operand with the batch dimension first (repeated where it has none).
std::vector<Batched> Def<Prim::kConcatenate>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                                   int64_t size) {
  return {Batched{concatenate(b, batch_dims_first(b, in, size), param<int64_t>(p, "dimension", kName) + 1), 0}};
}
Sample Def<Prim::kConcatenate>::sample() {
  return {{samples::f32({2, 3}), samples::f32({2, 2})}, {{"dimension", int64_t{1}}}};
}

// slice

std::vector<Aval> Def<Prim::kSlice>::shape(const Params& p, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, kName, ": takes 1 operand, got ", in.size());
  const auto& start = param<std::vector<int64_t>>(p, "start_indices", kName);
  const auto& limit = param<std::vector<int64_t>>(p, "limit_indices", kName);
  const auto& strides = param<std::vector<int64_t>>(p, "strides", kName);
  const Aval& x = in[0];
  const size_t rank = x.shape.size();
  if (start.size() != rank || limit.size() != rank)
    fail(ErrorKind::kShape, kName, ": start_indices ", shape_str(start), " and limit_indices ", shape_str(limit),
         " must have one entry per dimension of ", x.str());
  if (!strides.empty() && strides.size() != rank)
    fail(ErrorKind::kShape, kName, ": strides ", shape_str(strides),
         " must be empty or have one entry per dimension of ", x.str());
  Shape out(rank);
  for (size_t d = 0; d < rank; ++d) {
    const int64_t s = strides.empty() ? 1 : strides[d];
    if (s < 1) fail(ErrorKind::kShape, kName, ": strides ", shape_str(strides), " for ", x.str(), " must be positive");
    if (start[d] < 0 || start[d] > limit[d] || limit[d] > x.shape[d])
      fail(ErrorKind::kShape, kName, ": dimension ", d, " of ", x.str(), " has size ", x.shape[d], "; start ", start[d],
           " and limit ", limit[d], " must satisfy 0 <= start <= limit <= ", x.shape[d]);
    out[d] =
        limit[d] == start[d] ? 0 : 1 + (limit[d] - start[d] - 1) / s;  // ceil((limit - start) / s), without overflow
  }
  return {Aval{x.dtype, out, x.vma}};
}
void Def<Prim::kSlice>::eval(const Params& p, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  const auto& start = param<std::vector<int64_t>>(p, "start_indices", kName);
  const auto& strides = param<std::vector<int64_t>>(p, "strides", kName);
  StridedView src = dense(in[0]->aval.shape);
  for (size_t d = 0; d < start.size(); ++d) {
    src.offset += start[d] * src.strides[d];
    if (!strides.empty()) src.strides[d] *= strides[d];
  }
  strided_copy(out[0]->aval.shape, in[0]->data, src, out[0]->data, dense(out[0]->aval.shape));
}
std::vector<MaybeAtom> Def<Prim::kSlice>::jvp(Builder& b, const Params& p, const std::vector<Atom>&,
                                              const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return linear_jvp(b, Prim::kSlice, p, t[0]);
}
std::vector<MaybeAtom> Def<Prim::kSlice>::transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                                    const std::vector<Atom>& x, const std::vector<bool>& linear) {
  if (!linear[0] || !cts[0]) return {std::nullopt};
  const auto& start = param<std::vector<int64_t>>(p, "start_indices", kName);
  const auto& strides = param<std::vector<int64_t>>(p, "strides", kName);
  const Shape& sliced = cts[0]->aval.shape;
  IntLists config;
  for (size_t d = 0; d < start.size(); ++d) {
    const int64_t s = strides.empty() ? 1 : strides[d];
    // One past the last element taken (not the limit when the stride skips past it).
    const int64_t end = sliced[d] == 0 ? start[d] : start[d] + (sliced[d] - 1) * s + 1;
    config.push_back({start[d], x[0].aval.shape[d] - end, s - 1});
  }
  return {pad(b, *cts[0], Atom::constant(0.0, cts[0]->aval.dtype), config)};
}

// The whole batch dimension, first.
std::vector<Batched> Def<Prim::kSlice>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                             int64_t size) {
  std::vector<int64_t> start = param<std::vector<int64_t>>(p, "start_indices", kName);
  std::vector<int64_t> limit = param<std::vector<int64_t>>(p, "limit_indices", kName);
  std::vector<int64_t> strides = param<std::vector<int64_t>>(p, "strides", kName);
  start.insert(start.begin(), 0);
  limit.insert(limit.begin(), size);
  if (!strides.empty()) strides.insert(strides.begin(), 1);
  return {Batched{slice(b, move_batch_dim(b, in[0], 0, size), start, limit, strides), 0}};
}
Sample Def<Prim::kSlice>::sample() {
  return {{samples::f32({4, 5})},
          {{"start_indices", std::vector<int64_t>{1, 0}},
           {"limit_indices", std::vector<int64_t>{3, 5}},
           {"strides", std::vector<int64_t>{1, 2}}}};
}

// pad

std::vector<Aval> Def<Prim::kPad>::shape(const Params& p, const std::vector<Aval>& in) {
  if (in.size() != 2)
    fail(ErrorKind::kValue, kName, ": takes 2 operands (the operand and the padding value), got ", in.size());
  const Aval& x = in[0];
  const Aval& v = in[1];
  if (!v.shape.empty() || v.dtype != x.dtype)
    fail(ErrorKind::kShape, kName, ": the padding value ", v.str(), " must be a scalar of the operand's dtype (",
         x.str(), ")");
  const auto& config = param<IntLists>(p, "padding_config", kName);
  if (config.size() != x.shape.size())
    fail(ErrorKind::kShape, kName, ": padding_config has ", config.size(), " entries but the operand ", x.str(),
         " has rank ", x.ndim());
  Shape out(x.shape.size());
  for (size_t d = 0; d < config.size(); ++d) {
    if (config[d].size() != 3)
      fail(ErrorKind::kShape, kName, ": padding_config entry ", d, " is ", shape_str(config[d]), " for ", x.str(),
           "; each entry must be [lo,hi,interior]");
    const int64_t lo = config[d][0], hi = config[d][1], interior = config[d][2];
    if (interior < 0)
      fail(ErrorKind::kShape, kName, ": interior padding ", interior, " of dimension ", d, " of ", x.str(),
           " must be non-negative");
    // lo + hi + size + (size - 1) * interior, in 64 bits with overflow checks (the params are arbitrary).
    int64_t grown = 0;
    if (__builtin_mul_overflow(std::max<int64_t>(x.shape[d] - 1, 0), interior, &grown) ||
        __builtin_add_overflow(grown, x.shape[d], &out[d]) || __builtin_add_overflow(out[d], lo, &out[d]) ||
        __builtin_add_overflow(out[d], hi, &out[d]))
      fail(ErrorKind::kResource, kName, ": dimension ", d, " of ", x.str(),
           " would have more than 2^63 entries after padding ", shape_str(config[d]));
    if (out[d] < 0)
      fail(ErrorKind::kShape, kName, ": dimension ", d, " of ", x.str(), " would have size ", out[d], " after padding ",
           shape_str(config[d]), "; it must be at least 0");
  }
  return {Aval{x.dtype, out, vma_union(in)}};
}
void Def<Prim::kPad>::eval(const Params& p, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  const auto& config = param<IntLists>(p, "padding_config", kName);
  const Shape& ishape = in[0]->aval.shape;
  const Shape& oshape = out[0]->aval.shape;
  auto* dst = out[0]->as<uint32_t>();
  std::fill(dst, dst + num_elements(oshape), in[1]->as<uint32_t>()[0]);
  // Operand element i lands at lo + i * (interior + 1): copy the elements
  // that land inside the result (negative lo or hi cut some off).
  StridedView src = dense(ishape), to = dense(oshape);
  Shape extent(ishape.size());
  for (size_t d = 0; d < ishape.size(); ++d) {
    const int64_t lo = config[d][0], step = config[d][2] + 1;
    const int64_t first = lo >= 0 ? 0 : (-lo + step - 1) / step;
    const int64_t last = oshape[d] - 1 - lo < 0 ? -1 : std::min(ishape[d] - 1, (oshape[d] - 1 - lo) / step);
    extent[d] = std::max<int64_t>(last - first + 1, 0);
    src.offset += first * src.strides[d];
    to.offset += (lo + first * step) * to.strides[d];
    to.strides[d] *= step;
  }
  strided_copy(extent, in[0]->data, src, out[0]->data, to);
}
std::vector<MaybeAtom> Def<Prim::kPad>::jvp(Builder& b, const Params& p, const std::vector<Atom>& x,
                                            const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  if (!t[0] && !t[1]) return {std::nullopt};
  return {pad(b, t[0] ? *t[0] : zeros_like(b, x[0].aval), t[1] ? *t[1] : Atom::constant(0.0, x[1].aval.dtype),
              param<IntLists>(p, "padding_config", kName))};
}
std::vector<MaybeAtom> Def<Prim::kPad>::transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                                  const std::vector<Atom>&, const std::vector<bool>& linear) {
  if (!cts[0]) return {std::nullopt, std::nullopt};
  const Atom& ct = *cts[0];
  const auto& config = param<IntLists>(p, "padding_config", kName);
  IntLists unpad;
  std::vector<int64_t> strides;
  for (const auto& c : config) {
    unpad.push_back({-c[0], -c[1], 0});
    strides.push_back(c[2] + 1);
  }
  // Negative lo or hi cut operand elements off: padding them back with zeros gives them no cotangent.
  const Atom unpadded = pad(b, ct, Atom::constant(0.0, ct.aval.dtype), unpad);
  const Atom operand_ct = slice(b, unpadded, std::vector<int64_t>(config.size(), 0), unpadded.aval.shape, strides);
  MaybeAtom value_ct;
  if (linear[1]) {
    const auto all = all_dims(config.size());
    value_ct = sub(b, reduce_sum(b, ct, all), reduce_sum(b, operand_ct, all));
  }
  return {linear[0] ? MaybeAtom(operand_ct) : std::nullopt, value_ct};
}

// A padding value the same for every example pads the batch with no padding
// along the batch dimension (first). A per-example one, as JAX: the operand
// padded with zeros, then each example's value where a padded mask says so.
std::vector<Batched> Def<Prim::kPad>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                           int64_t size) {
  const IntLists& config = param<IntLists>(p, "padding_config", kName);
  IntLists batched = config;
  batched.insert(batched.begin(), std::vector<int64_t>{0, 0, 0});
  const Atom x = move_batch_dim(b, in[0], 0, size);
  if (!in[1].batched()) return {Batched{pad(b, x, in[1].value, batched), 0}};
  const Atom padded = pad(b, x, Atom::constant(0.0, x.aval.dtype), batched);
  const Atom ones = broadcast_in_dim(b, f32_scalar(1.0), Shape(x.aval.shape.begin() + 1, x.aval.shape.end()), {});
  const Atom inside = compare(b, Prim::kNe, pad(b, ones, f32_scalar(0.0), config), f32_scalar(0.0));
  std::vector<int64_t> rest;
  for (int64_t d = 1; d < static_cast<int64_t>(padded.aval.shape.size()); ++d) rest.push_back(d);
  const Atom mask = broadcast_in_dim(b, inside, padded.aval.shape, rest);
  const Atom value = broadcast_in_dim(b, move_batch_dim(b, in[1], 0, size), padded.aval.shape, {0});
  return {Batched{select_n(b, mask, {value, padded}), 0}};
}
Sample Def<Prim::kPad>::sample() {
  return {{samples::f32({2, 3}), samples::f32({})}, {{"padding_config", IntLists{{1, 0, 0}, {-1, 2, 1}}}}};
}

// dynamic_slice

std::vector<Aval> Def<Prim::kDynamicSlice>::shape(const Params& p, const std::vector<Aval>& in) {
  if (in.empty()) fail(ErrorKind::kValue, kName, ": takes the operand and one index per dimension, got no operands");
  const Aval& x = in[0];
  check_indices(kName, in, 1, x);
  const auto& sizes = param<std::vector<int64_t>>(p, "slice_sizes", kName);
  if (sizes.size() != x.shape.size())
    fail(ErrorKind::kShape, kName, ": slice_sizes ", shape_str(sizes), " must have one entry per dimension of ",
         x.str());
  for (size_t d = 0; d < sizes.size(); ++d)
    if (sizes[d] < 0 || sizes[d] > x.shape[d])
      fail(ErrorKind::kShape, kName, ": slice size ", sizes[d], " of dimension ", d, " must be in 0..", x.shape[d],
           " for ", x.str());
  return {Aval{x.dtype, sizes, vma_union(in)}};
}
void Def<Prim::kDynamicSlice>::eval(const Params&, const std::vector<const Tensor*>& in,
                                    const std::vector<Tensor*>& out) {
  const Shape& ishape = in[0]->aval.shape;
  const Shape& window = out[0]->aval.shape;
  strided_copy(window, in[0]->data, dense(ishape, window_offset(in, 1, ishape, window)), out[0]->data, dense(window));
}
std::vector<MaybeAtom> Def<Prim::kDynamicSlice>::jvp(Builder& b, const Params& p, const std::vector<Atom>& x,
                                                     const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  if (!t[0]) return {std::nullopt};
  return {dynamic_slice(b, *t[0], std::vector<Atom>(x.begin() + 1, x.end()),
                        param<std::vector<int64_t>>(p, "slice_sizes", kName))};
}
std::vector<MaybeAtom> Def<Prim::kDynamicSlice>::transpose(Builder& b, const Params&, const std::vector<MaybeAtom>& cts,
                                                           const std::vector<Atom>& x,
                                                           const std::vector<bool>& linear) {
  const auto indices = indices_of(x, linear, 1, kName);
  std::vector<MaybeAtom> out(x.size());
  if (linear[0] && cts[0]) out[0] = dynamic_update_slice(b, zeros_like(b, x[0].aval), *cts[0], indices);
  return out;
}

// Indices the same for every example: the whole batch dimension, first.
// Per-example indices: one gather (as JAX's), the index vectors [B, rank]
// stacked from the examples' indices, clamped as dynamic_slice clamps ("clip");
// a batched operand's batch dimension is a batching dimension of the gather.
std::vector<Batched> Def<Prim::kDynamicSlice>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                                    int64_t size) {
  std::vector<int64_t> sizes = param<std::vector<int64_t>>(p, "slice_sizes", kName);
  bool per_example = false;
  for (size_t i = 1; i < in.size(); ++i) per_example = per_example || in[i].batched();
  if (per_example) {
    const auto rank = static_cast<int64_t>(sizes.size());
    const Atom idx = index_vectors(b, in, 1, size);
    std::vector<int64_t> offset, map;
    for (int64_t d = 0; d < rank; ++d) offset.push_back(d + 1);
    const bool batched = in[0].batched();
    for (int64_t d = 0; d < rank; ++d) map.push_back(batched ? d + 1 : d);
    if (batched) sizes.insert(sizes.begin(), 1);
    const IntLists dims{offset, {}, map, batched ? std::vector<int64_t>{0} : std::vector<int64_t>{},
                        batched ? std::vector<int64_t>{0} : std::vector<int64_t>{}};
    const Atom x = batched ? move_batch_dim(b, in[0], 0, size) : in[0].value;
    return {Batched{gather(b, x, idx, dims, sizes, IndexMode{"clip"}, std::nan("")), 0}};
  }
  std::vector<Atom> idx{Atom::constant(0, DType::kInt32)};
  for (size_t i = 1; i < in.size(); ++i) idx.push_back(in[i].value);
  sizes.insert(sizes.begin(), size);
  return {Batched{dynamic_slice(b, move_batch_dim(b, in[0], 0, size), idx, sizes), 0}};
}
Sample Def<Prim::kDynamicSlice>::sample() {
  return {{samples::f32({5, 4}), samples::i32({}), samples::i32({})}, {{"slice_sizes", std::vector<int64_t>{2, 3}}}};
}

// dynamic_update_slice

std::vector<Aval> Def<Prim::kDynamicUpdateSlice>::shape(const Params&, const std::vector<Aval>& in) {
  if (in.size() < 2)
    fail(ErrorKind::kValue, kName, ": takes the operand, the update and one index per dimension, got ", in.size(),
         " operands");
  const Aval& x = in[0];
  const Aval& u = in[1];
  bool fits = u.dtype == x.dtype && u.shape.size() == x.shape.size();
  for (size_t d = 0; fits && d < x.shape.size(); ++d) fits = u.shape[d] <= x.shape[d];
  if (!fits)
    fail(ErrorKind::kShape, kName, ": the update ", u.str(), " does not fit in the operand ", x.str(),
         "; it needs the same dtype and rank and no larger dimensions");
  check_indices(kName, in, 2, x);
  return {Aval{x.dtype, x.shape, vma_union(in)}};
}
void Def<Prim::kDynamicUpdateSlice>::eval(const Params&, const std::vector<const Tensor*>& in,
                                          const std::vector<Tensor*>& out) {
  const Shape& shape = in[0]->aval.shape;
  const Shape& window = in[1]->aval.shape;
  if (out[0]->data != in[0]->data)  // the same storage when a loop updates its buffer in place
    std::memcpy(out[0]->data, in[0]->data, static_cast<size_t>(num_elements(shape)) * kElemBytes);
  strided_copy(window, in[1]->data, dense(window), out[0]->data, dense(shape, window_offset(in, 2, shape, window)));
}
std::vector<MaybeAtom> Def<Prim::kDynamicUpdateSlice>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                                           const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  if (!t[0] && !t[1]) return {std::nullopt};
  return {dynamic_update_slice(b, t[0] ? *t[0] : zeros_like(b, x[0].aval), t[1] ? *t[1] : zeros_like(b, x[1].aval),
                               std::vector<Atom>(x.begin() + 2, x.end()))};
}
std::vector<MaybeAtom> Def<Prim::kDynamicUpdateSlice>::transpose(Builder& b, const Params&,
                                                                 const std::vector<MaybeAtom>& cts,
                                                                 const std::vector<Atom>& x,
                                                                 const std::vector<bool>& linear) {
  const auto indices = indices_of(x, linear, 2, kName);
  std::vector<MaybeAtom> out(x.size());
  if (!cts[0]) return out;
  if (linear[0]) out[0] = dynamic_update_slice(b, *cts[0], zeros_like(b, x[1].aval), indices);
  if (linear[1]) out[1] = dynamic_slice(b, *cts[0], indices, x[1].aval.shape);
  return out;
}

// As dynamic_slice: the batch dimension first, or, for per-example indices,
// one scatter (as JAX's) of every example's update at its index vector, the
// batch a batching dimension of operand and indices, windows clamped ("clip").
std::vector<Batched> Def<Prim::kDynamicUpdateSlice>::batch(Builder& b, const Params&, const std::vector<Batched>& in,
                                                          int64_t size) {
  bool per_example = false;
  for (size_t i = 2; i < in.size(); ++i) per_example = per_example || in[i].batched();
  if (per_example) {
    const auto rank = static_cast<int64_t>(in.size()) - 2;
    std::vector<int64_t> dims;
    for (int64_t d = 0; d < rank; ++d) dims.push_back(d + 1);
    return {Batched{scatter(b, Prim::kScatter, move_batch_dim(b, in[0], 0, size), index_vectors(b, in, 2, size),
                            move_batch_dim(b, in[1], 0, size), {dims, {}, dims, {0}, {0}}, IndexMode{"clip"}),
                    0}};
  }
  std::vector<Atom> idx{Atom::constant(0, DType::kInt32)};
  for (size_t i = 2; i < in.size(); ++i) idx.push_back(in[i].value);
  return {Batched{dynamic_update_slice(b, move_batch_dim(b, in[0], 0, size), move_batch_dim(b, in[1], 0, size), idx),
                  0}};
}
Sample Def<Prim::kDynamicUpdateSlice>::sample() {
  return {{samples::f32({5, 4}), samples::f32({2, 3}), samples::i32({}), samples::i32({})}, {}};
}

// JAX's _concatenate_sharding_rule: the sharded operands share one sharding, the result's.
std::vector<Sharding> Def<Prim::kConcatenate>::sharding(const Params&, const std::vector<Aval>& in,
                                                        const std::vector<Aval>&) {
  check_settled(kName, in);
  const Sharding* first = nullptr;
  for (const Aval& a : in) {
    if (a.sharding.empty()) continue;
    if (!first) first = &a.sharding;
    else if (*first != a.sharding) {
      std::string all;
      for (const Aval& b : in) all += (all.empty() ? "" : ", ") + b.sharding.spec_text(b.shape.size());
      fail(ErrorKind::kShardingType, kName, ": All operands should have the same sharding. Got shardings ", all);
    }
  }
  return {first ? *first : Sharding{}};
}

// The operand's sharding, where every sliced sharded dimension still divides over its axes (JAX's rule).
std::vector<Sharding> Def<Prim::kSlice>::sharding(const Params&, const std::vector<Aval>& in,
                                                  const std::vector<Aval>& out) {
  check_settled(kName, in);
  return {varying_shape_sharding("slicing", in[0], out[0])};
}

// As slice's (JAX's rule): the operand's, where each padded sharded dimension still divides.
std::vector<Sharding> Def<Prim::kPad>::sharding(const Params&, const std::vector<Aval>& in,
                                                const std::vector<Aval>& out) {
  check_settled(kName, in);
  return {varying_shape_sharding("padding", in[0], out[0])};
}

// As slice's (JAX's rule); the start indices are scalars.
std::vector<Sharding> Def<Prim::kDynamicSlice>::sharding(const Params&, const std::vector<Aval>& in,
                                                         const std::vector<Aval>& out) {
  check_settled(kName, in);
  return {varying_shape_sharding("dynamic_slice", in[0], out[0])};
}

// JAX's rule: the update is sharded as the operand, the result's sharding.
std::vector<Sharding> Def<Prim::kDynamicUpdateSlice>::sharding(const Params&, const std::vector<Aval>& in,
                                                               const std::vector<Aval>&) {
  check_settled(kName, in);
  if (in[0].sharding != in[1].sharding)
    fail(ErrorKind::kShardingType, "dynamic_update_slice operand sharding must be equal to update sharding, got operand ",
         "sharding ", in[0].str(), " and update sharding ", in[1].str(), ".");
  return {in[0].sharding};
}

// Joined block by block along an unsharded dimension (operands laid out as
// the result); along a sharded one the blocks would interleave, so computed whole.
std::vector<Atom> Def<Prim::kConcatenate>::partition(Partitioner& pt, const PartEqn& e) {
  const auto d = static_cast<size_t>(param<int64_t>(e.params, "dimension", kName));
  return e.out[0].sharding.dim(d).empty() ? pt.local(e) : pt.gathered(e);
}

// Sliced block by block where no sharded dimension changes (a sharded
// dimension's limit is its block's size); a sharded dimension sliced needs
// elements of other blocks, so that is computed whole.
std::vector<Atom> Def<Prim::kSlice>::partition(Partitioner& pt, const PartEqn& e) {
  if (!sharded_dims_kept(e)) return pt.gathered(e);
  auto limits = param<std::vector<int64_t>>(e.params, "limit_indices", kName);
  const Shape block = block_shape(e.in[0]);
  for (size_t d = 0; d < limits.size(); ++d)
    if (!e.in[0].sharding.dim(d).empty()) limits[d] = block[d];
  return pt.as_is(e, with_param(e.params, "limit_indices", limits));
}

// Padded block by block where no sharded dimension is padded; else computed whole.
std::vector<Atom> Def<Prim::kPad>::partition(Partitioner& pt, const PartEqn& e) {
  const auto& config = param<IntLists>(e.params, "padding_config", kName);
  for (size_t d = 0; d < config.size(); ++d)
    if (!e.in[0].sharding.dim(d).empty() && config[d] != std::vector<int64_t>{0, 0, 0}) return pt.gathered(e);
  return pt.as_is(e, e.params);
}

// A sharded dimension taken whole (its start clamps to 0 on every block
// alike) is sliced block by block, its size its block's; else computed whole.
std::vector<Atom> Def<Prim::kDynamicSlice>::partition(Partitioner& pt, const PartEqn& e) {
  if (!sharded_dims_kept(e)) return pt.gathered(e);
  return pt.as_is(e, with_param(e.params, "slice_sizes", block_shape(e.out[0])));
}

// An update covering every sharded dimension whole (so its start there
// clamps to 0) is written block by block; else computed whole.
std::vector<Atom> Def<Prim::kDynamicUpdateSlice>::partition(Partitioner& pt, const PartEqn& e) {
  for (size_t d = 0; d < e.in[0].shape.size(); ++d)
    if (!e.in[0].sharding.dim(d).empty() && e.in[1].shape[d] != e.in[0].shape[d]) return pt.gathered(e);
  return pt.as_is(e, e.params);
}

}  // namespace shardlab::ir
