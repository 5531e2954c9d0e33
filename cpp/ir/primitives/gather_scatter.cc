#include "ir/primitives/gather_scatter.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "ir/transforms/batching.h"
#include "ir/tracing/ops.h"
#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

// The five lists of dimension numbers, by role (gather's and scatter's
// correspond one to one, which is why each transposes into the other with
// the same lists).
struct DimNumbers {
  const std::vector<int64_t>& window;            // offset_dims / update_window_dims
  const std::vector<int64_t>& collapsed;         // collapsed_slice_dims / inserted_window_dims
  const std::vector<int64_t>& index_map;         // start_index_map / scatter_dims_to_operand_dims
  const std::vector<int64_t>& operand_batching;  // operand_batching_dims
  const std::vector<int64_t>& indices_batching;  // start_indices_batching_dims / scatter_indices_batching_dims
};

const char* const kGatherFields[] = {"offset_dims", "collapsed_slice_dims", "start_index_map",
                                     "operand_batching_dims", "start_indices_batching_dims"};
const char* const kScatterFields[] = {"update_window_dims", "inserted_window_dims", "scatter_dims_to_operand_dims",
                                      "operand_batching_dims", "scatter_indices_batching_dims"};

DimNumbers dim_numbers(const Params& p, const char* name) {
  const auto& d = param<IntLists>(p, "dimension_numbers", name);
  if (d.size() != 5)
    fail(ErrorKind::kValue, name, ": dimension_numbers must hold 5 lists, got ", d.size());
  return DimNumbers{d[0], d[1], d[2], d[3], d[4]};
}

IndexMode mode_of(const Params& p, const char* name) {
  return IndexMode{param<std::string>(p, "mode", name), param<bool>(p, "unique_indices", name),
                   param<bool>(p, "indices_are_sorted", name)};
}

bool contains(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// `v` strictly increasing, each in [0, bound).
void check_sorted(const char* name, const char* field, const std::vector<int64_t>& v, int64_t bound,
                  const char* of) {
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i] < 0 || v[i] >= bound || (i && v[i] <= v[i - 1]))
      fail(ErrorKind::kShape, name, ": ", field, " ", shape_str(v), " must be increasing dimensions of the ", of,
           " (0..", bound - 1, ")");
}

// The checks gather and scatter share: the indices, and dimension numbers
// that fit an operand `x`, indices `idx` and a windowed array (the gather's
// output, the scatter's updates) of rank `windowed_rank`. `fields` name the lists.
void check_dims(const char* name, const char* const* fields, const DimNumbers& d, const Aval& x, const Aval& idx,
                int64_t windowed_rank, const char* windowed) {
  const int64_t r = x.ndim(), q = idx.ndim();
  if (idx.dtype != DType::kInt32 || q < 1)
    fail(ErrorKind::kShape, name, ": the indices are ", idx.str(),
         "; they must be int32 of rank 1 or more, the index vectors along the last dimension");
  const int64_t n = idx.shape[q - 1];
  if (static_cast<int64_t>(d.index_map.size()) != n)
    fail(ErrorKind::kShape, name, ": ", fields[2], " ", shape_str(d.index_map), " must have one entry per index in ",
         "the index vectors (the last dimension of ", idx.str(), ", ", n, ")");
  check_sorted(name, fields[1], d.collapsed, r, "operand");
  check_sorted(name, fields[3], d.operand_batching, r, "operand");
  for (int64_t dim : d.collapsed)
    if (contains(d.operand_batching, dim))
      fail(ErrorKind::kShape, name, ": dimension ", dim, " is in both ", fields[1], " and ", fields[3]);
  for (size_t k = 0; k < d.index_map.size(); ++k) {
    const int64_t dim = d.index_map[k];
    if (dim < 0 || dim >= r || contains(d.operand_batching, dim) ||
        std::count(d.index_map.begin(), d.index_map.end(), dim) != 1)
      fail(ErrorKind::kShape, name, ": ", fields[2], " ", shape_str(d.index_map),
           " must name distinct operand dimensions (0..", r - 1, ") outside ", fields[3]);
  }
  if (d.indices_batching.size() != d.operand_batching.size())
    fail(ErrorKind::kShape, name, ": ", fields[4], " ", shape_str(d.indices_batching), " and ", fields[3], " ",
         shape_str(d.operand_batching), " must have the same length");
  for (size_t j = 0; j < d.indices_batching.size(); ++j) {
    const int64_t dim = d.indices_batching[j];
    if (dim < 0 || dim >= q - 1 || std::count(d.indices_batching.begin(), d.indices_batching.end(), dim) != 1)
      fail(ErrorKind::kShape, name, ": ", fields[4], " ", shape_str(d.indices_batching),
           " must name distinct dimensions of the indices ", idx.str(), " other than the last");
    if (idx.shape[dim] != x.shape[d.operand_batching[j]])
      fail(ErrorKind::kShape, name, ": batching dimension ", d.operand_batching[j], " of the operand ", x.str(),
           " and dimension ", dim, " of the indices ", idx.str(), " must have the same size");
  }
  const int64_t windows = r - static_cast<int64_t>(d.collapsed.size() + d.operand_batching.size());
  if (static_cast<int64_t>(d.window.size()) != windows)
    fail(ErrorKind::kShape, name, ": ", fields[0], " ", shape_str(d.window), " must have one entry per window ",
         "dimension of the operand ", x.str(), " (", windows, ": those not in ", fields[1], " or ", fields[3], ")");
  if (windowed_rank != static_cast<int64_t>(d.window.size()) + q - 1)
    fail(ErrorKind::kShape, name, ": the ", windowed, " has rank ", windowed_rank, "; it must have ",
         d.window.size(), " window dimensions and ", q - 1, " batch dimensions (those of the indices ", idx.str(),
         " but the last)");
  check_sorted(name, fields[0], d.window, windowed_rank, windowed);
}

// The operand dimensions that are window dimensions, in order.
std::vector<int64_t> window_operand_dims(const DimNumbers& d, int64_t rank) {
  std::vector<int64_t> out;
  for (int64_t dim = 0; dim < rank; ++dim)
    if (!contains(d.collapsed, dim) && !contains(d.operand_batching, dim)) out.push_back(dim);
  return out;
}

// Walks the elements of a windowed array (a gather's output, a scatter's
// updates) and finds, for each, the operand element it corresponds to: the
// window's start from the index vector (and the batching dimensions), plus
// the position inside the window. `extent[d]` is the window's size along
// operand dimension d; a window that does not fit is clamped ("clip") or
// reported out of bounds (-1) for the caller to fill or drop.
class IndexWalk {
 public:
  IndexWalk(const DimNumbers& d, const Shape& operand, const Shape& indices, const Shape& windowed,
            const int32_t* idx, std::vector<int64_t> extent, bool clamp)
      : d_(d), operand_(operand), windowed_(windowed), idx_(idx), extent_(std::move(extent)), clamp_(clamp) {
    const auto wdims = window_operand_dims(d, static_cast<int64_t>(operand.size()));
    window_dim_at_.assign(windowed.size(), -1);
    for (size_t k = 0; k < d.window.size(); ++k) window_dim_at_[d.window[k]] = wdims[k];
    idx_strides_ = strides_of(indices);
    op_strides_ = strides_of(operand);
    pos_.assign(windowed.size(), 0);
    start_.assign(operand.size(), 0);
  }

  /// The operand element of the current windowed element, or -1 if its window is out of bounds.
  int64_t operand_offset() {
    // The index vector: the batch positions of the windowed array are the indices' dimensions but the last.
    int64_t base = 0;
    size_t bdim = 0;
    batch_.clear();
    for (size_t p = 0; p < pos_.size(); ++p)
      if (window_dim_at_[p] < 0) {
        base += pos_[p] * idx_strides_[bdim++];
        batch_.push_back(pos_[p]);
      }
    int64_t offset = 0;
    const size_t rank = operand_.size();
    for (size_t dim = 0; dim < rank; ++dim) start_[dim] = 0;
    for (size_t k = 0; k < d_.index_map.size(); ++k) start_[d_.index_map[k]] = idx_[base + static_cast<int64_t>(k)];
    for (size_t j = 0; j < d_.operand_batching.size(); ++j)
      start_[d_.operand_batching[j]] = batch_[d_.indices_batching[j]];
    for (int64_t dim : d_.index_map) {
      const int64_t hi = operand_[dim] - extent_[dim];
      if (clamp_) {
        start_[dim] = std::clamp<int64_t>(start_[dim], 0, std::max<int64_t>(hi, 0));
      } else if (start_[dim] < 0 || start_[dim] > hi) {
        return -1;
      }
    }
    for (size_t p = 0; p < pos_.size(); ++p)
      if (window_dim_at_[p] >= 0) start_[window_dim_at_[p]] += pos_[p];
    for (size_t dim = 0; dim < rank; ++dim) offset += start_[dim] * op_strides_[dim];
    return offset;
  }

  /// Moves to the next element in row-major order.
  void next() {
    for (size_t p = pos_.size(); p-- > 0;) {
      if (++pos_[p] < windowed_[p]) return;
      pos_[p] = 0;
    }
  }

 private:
  const DimNumbers& d_;
  const Shape& operand_;
  const Shape& windowed_;
  const int32_t* idx_;
  std::vector<int64_t> extent_;
  bool clamp_;
  Dims idx_strides_, op_strides_;
  std::vector<int64_t> window_dim_at_, pos_, batch_;
  std::vector<int64_t> start_;
};

// The 4-byte word gather fills out-of-bounds windows with: fill_value in the
// dtype, or JAX's default for None (NaN, a signed integer's smallest value,
// an unsigned one's largest, True).
uint32_t fill_word(double fill, DType dtype) {
  if (!std::isnan(fill) || is_float(dtype)) return element_word(fill, dtype);
  const auto [lo, hi] = int_range(dtype);
  return element_word(is_signed_int(dtype) ? lo : hi, dtype);
}

// The window extents along each operand dimension of a scatter's updates.
std::vector<int64_t> scatter_extent(const DimNumbers& d, const Shape& operand, const Shape& updates) {
  std::vector<int64_t> extent(operand.size(), 1);
  const auto wdims = window_operand_dims(d, static_cast<int64_t>(operand.size()));
  for (size_t k = 0; k < wdims.size(); ++k) extent[wdims[k]] = updates[d.window[k]];
  return extent;
}

// A bool element: a 4-byte word holding 0 or 1 (its own type, so that the
// combiners below can tell it from a uint32).
struct BoolWord {
  uint32_t w;
};

// How each scatter primitive combines an operand element with an update:
// floats and int32 by their arithmetic (int32 wrapping around), bools as
// logic (add: or, mul: and, min: and, max: or).
template <Prim P, class T>
T combine(T a, T u) {
  if constexpr (P == Prim::kScatter) {
    return u;
  } else if constexpr (std::is_same_v<T, float>) {
    if constexpr (P == Prim::kScatterAdd) return a + u;
    if constexpr (P == Prim::kScatterMul) return a * u;
    if (std::isnan(a) || std::isnan(u)) return std::numeric_limits<float>::quiet_NaN();  // NaN wins, as XLA's min/max
    if constexpr (P == Prim::kScatterMin) return std::min(a, u);
    return std::max(a, u);
  } else if constexpr (std::is_same_v<T, int32_t>) {
    if constexpr (P == Prim::kScatterAdd) return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(u));
    if constexpr (P == Prim::kScatterMul) return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(u));
    if constexpr (P == Prim::kScatterMin) return std::min(a, u);
    return std::max(a, u);
  } else if constexpr (std::is_same_v<T, uint32_t>) {
    if constexpr (P == Prim::kScatterAdd) return a + u;
    if constexpr (P == Prim::kScatterMul) return a * u;
    if constexpr (P == Prim::kScatterMin) return std::min(a, u);
    return std::max(a, u);
  } else {  // bool words
    if constexpr (P == Prim::kScatterAdd || P == Prim::kScatterMax) return BoolWord{(a.w | u.w) ? 1u : 0u};
    return BoolWord{(a.w & u.w) ? 1u : 0u};
  }
}

template <Prim P, class T>
void scatter_typed(const Params& p, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  const char* name = Def<P>::kName;
  const DimNumbers d = dim_numbers(p, name);
  const Shape& shape = in[0]->aval.shape;
  const Shape& ushape = in[2]->aval.shape;
  std::memcpy(out[0]->data, in[0]->data, static_cast<size_t>(num_elements(shape)) * kElemBytes);
  IndexWalk walk(d, shape, in[1]->aval.shape, ushape, in[1]->as<int32_t>(), scatter_extent(d, shape, ushape),
                 param<std::string>(p, "mode", name) == "clip");
  T* dst = out[0]->as<T>();
  const T* u = in[2]->as<T>();
  const int64_t n = num_elements(ushape);
  for (int64_t k = 0; k < n; ++k, walk.next()) {
    const int64_t at = walk.operand_offset();
    if (at >= 0) dst[at] = combine<P, T>(dst[at], u[k]);  // out of bounds: dropped
  }
}

template <Prim P>
void scatter_eval(const Params& p, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  switch (lane_of(in[0]->aval.dtype)) {
    case DType::kFloat32:
      return scatter_typed<P, float>(p, in, out);
    case DType::kBool:
      return scatter_typed<P, BoolWord>(p, in, out);
    case DType::kUInt32:
      return scatter_typed<P, uint32_t>(p, in, out);
    default:
      return scatter_typed<P, int32_t>(p, in, out);
  }
}

std::vector<Aval> scatter_shape(const char* name, const Params& p, const std::vector<Aval>& in) {
  if (in.size() != 3)
    fail(ErrorKind::kValue, name, ": takes 3 operands (the operand, the indices and the updates), got ", in.size());
  const DimNumbers d = dim_numbers(p, name);
  const Aval &x = in[0], &idx = in[1], &u = in[2];
  check_dims(name, kScatterFields, d, x, idx, u.ndim(), "updates");
  if (u.dtype != x.dtype)
    fail(ErrorKind::kShape, name, ": the updates ", u.str(), " must have the operand's dtype (", x.str(), ")");
  size_t bdim = 0;
  const auto wdims = window_operand_dims(d, x.ndim());
  size_t k = 0;
  for (int64_t pos = 0; pos < u.ndim(); ++pos) {
    if (k < d.window.size() && d.window[k] == pos) {
      if (u.shape[pos] > x.shape[wdims[k]])
        fail(ErrorKind::kShape, name, ": update window dimension ", pos, " of ", u.str(), " is larger than dimension ",
             wdims[k], " of the operand ", x.str());
      ++k;
    } else if (u.shape[pos] != idx.shape[bdim++]) {
      fail(ErrorKind::kShape, name, ": the batch dimensions of the updates ", u.str(),
           " must equal those of the indices ", idx.str(), " but the last");
    }
  }
  const std::string& mode = param<std::string>(p, "mode", name);
  if (mode != "clip" && mode != "fill" && mode != "promise_in_bounds")
    fail(ErrorKind::kValue, name, ": mode '", mode, "' must be 'clip', 'fill' or 'promise_in_bounds'");
  return {Aval{x.dtype, x.shape, vma_union(in)}};
}

// Every operand batched along 0, each list of dimension numbers moved up by
// one and the batch added as a batching dimension of operand and indices.
std::vector<Batched> batch_scatter(Builder& b, Prim prim, const Params& p, const std::vector<Batched>& in,
                                   int64_t size) {
  const DimNumbers d = dim_numbers(p, primitive(prim).name);
  std::vector<int64_t> obd{0}, ibd{0};
  for (int64_t v : d.operand_batching) obd.push_back(v + 1);
  for (int64_t v : d.indices_batching) ibd.push_back(v + 1);
  const IntLists dims{skip_batch_dim(d.window), skip_batch_dim(d.collapsed), skip_batch_dim(d.index_map), obd, ibd};
  const auto ops = batch_dims_first(b, in, size);
  return {Batched{b.emit1(prim, with_param(p, "dimension_numbers", dims), ops), 0}};
}

// The gather that reads the update windows of scatter `p` back out of `from`
// (out-of-bounds windows, which the scatter dropped, read as 0).
Atom gather_updates(Builder& b, const Params& p, const char* name, const Atom& from, const Atom& idx,
                    const Aval& updates) {
  const DimNumbers d = dim_numbers(p, name);
  IndexMode mode = mode_of(p, name);
  if (mode.mode == "promise_in_bounds") mode.mode = "fill";  // the scatter dropped them
  return gather(b, from, idx, param<IntLists>(p, "dimension_numbers", name),
                scatter_extent(d, from.aval.shape, updates.shape), mode, 0.0);
}

template <Prim P>
Sample scatter_sample() {
  return {{samples::f32({5, 4}), samples::i32({3, 1}), samples::f32({3, 4})},
          {{"dimension_numbers", IntLists{{1}, {0}, {0}, {}, {}}},
           {"indices_are_sorted", false},
           {"mode", std::string(P == Prim::kScatterAdd ? "clip" : "fill")},
           {"unique_indices", false}}};
}

}  // namespace

// The rules every scatter shares.

template <Prim P>
std::vector<Aval> ScatterRules<P>::shape(const Params& p, const std::vector<Aval>& in) {
  return scatter_shape(Def<P>::kName, p, in);
}
template <Prim P>
void ScatterRules<P>::eval(const Params& p, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  scatter_eval<P>(p, in, out);
}
template <Prim P>
std::vector<Batched> ScatterRules<P>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                            int64_t size) {
  return batch_scatter(b, P, p, in, size);
}
template <Prim P>
Sample ScatterRules<P>::sample() {
  return scatter_sample<P>();
}
template struct ScatterRules<Prim::kScatter>;
template struct ScatterRules<Prim::kScatterAdd>;
template struct ScatterRules<Prim::kScatterMul>;
template struct ScatterRules<Prim::kScatterMin>;
template struct ScatterRules<Prim::kScatterMax>;

// gather

std::vector<Aval> Def<Prim::kGather>::shape(const Params& p, const std::vector<Aval>& in) {
  if (in.size() != 2) fail(ErrorKind::kValue, kName, ": takes 2 operands (the operand and the indices), got ", in.size());
  const DimNumbers d = dim_numbers(p, kName);
  const Aval &x = in[0], &idx = in[1];
  const auto& sizes = param<std::vector<int64_t>>(p, "slice_sizes", kName);
  const int64_t out_rank = static_cast<int64_t>(d.window.size()) + idx.ndim() - 1;
  check_dims(kName, kGatherFields, d, x, idx, out_rank, "output");
  if (static_cast<int64_t>(sizes.size()) != x.ndim())
    fail(ErrorKind::kShape, kName, ": slice_sizes ", shape_str(sizes), " must have one entry per dimension of ", x.str());
  for (int64_t dim = 0; dim < x.ndim(); ++dim) {
    if (sizes[dim] < 0 || sizes[dim] > x.shape[dim])
      fail(ErrorKind::kShape, kName, ": slice size ", sizes[dim], " of dimension ", dim, " must be in 0..",
           x.shape[dim], " for ", x.str());
    if ((contains(d.collapsed, dim) || contains(d.operand_batching, dim)) && sizes[dim] != 1)
      fail(ErrorKind::kShape, kName, ": slice size of collapsed or batching dimension ", dim, " must be 1, got ",
           sizes[dim]);
  }
  const std::string& mode = param<std::string>(p, "mode", kName);
  if (mode != "clip" && mode != "fill" && mode != "promise_in_bounds")
    fail(ErrorKind::kValue, kName, ": mode '", mode, "' must be 'clip', 'fill' or 'promise_in_bounds'");
  const auto wdims = window_operand_dims(d, x.ndim());
  Shape out;
  size_t k = 0, bdim = 0;
  for (int64_t pos = 0; pos < out_rank; ++pos)
    out.push_back(k < d.window.size() && d.window[k] == pos ? sizes[wdims[k++]] : idx.shape[bdim++]);
  return {Aval{x.dtype, out, vma_union(in)}};
}
void Def<Prim::kGather>::eval(const Params& p, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  const DimNumbers d = dim_numbers(p, kName);
  const Shape& shape = in[0]->aval.shape;
  const Shape& oshape = out[0]->aval.shape;
  const auto& sizes = param<std::vector<int64_t>>(p, "slice_sizes", kName);
  IndexWalk walk(d, shape, in[1]->aval.shape, oshape, in[1]->as<int32_t>(), sizes,
                 param<std::string>(p, "mode", kName) != "fill");
  const uint32_t fill = fill_word(param<double>(p, "fill_value", kName), in[0]->aval.dtype);
  const auto* src = in[0]->as<uint32_t>();
  auto* dst = out[0]->as<uint32_t>();
  const int64_t n = num_elements(oshape);
  for (int64_t k = 0; k < n; ++k, walk.next()) {
    const int64_t at = walk.operand_offset();
    dst[k] = at >= 0 ? src[at] : fill;
  }
}
// A window filled in the primal has tangent 0 (JAX's fill_value=0 for the tangent).
std::vector<MaybeAtom> Def<Prim::kGather>::jvp(Builder& b, const Params& p, const std::vector<Atom>& x,
                                               const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  if (!t[0]) return {std::nullopt};
  return {b.emit1(Prim::kGather, with_param(p, "fill_value", 0.0), {*t[0], x[1]})};
}
std::vector<MaybeAtom> Def<Prim::kGather>::transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                                     const std::vector<Atom>& x, const std::vector<bool>& linear) {
  not_linear(kName, {x[1]}, {linear[1]});
  if (!linear[0] || !cts[0]) return {std::nullopt, std::nullopt};
  return {scatter(b, Prim::kScatterAdd, zeros_like(b, x[0].aval), x[1], *cts[0],
                  param<IntLists>(p, "dimension_numbers", kName), mode_of(p, kName)),
          std::nullopt};
}
// Per-example indices into a shared operand: the batch is one more batch
// dimension of the indices. A batched operand: the batch becomes a batching
// dimension of operand and indices (indices repeated if they are shared).
std::vector<Batched> Def<Prim::kGather>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                              int64_t size) {
  const DimNumbers d = dim_numbers(p, kName);
  const Atom idx = move_batch_dim(b, in[1], 0, size);
  if (!in[0].batched()) {
    const IntLists dims{skip_batch_dim(d.window), d.collapsed, d.index_map, d.operand_batching,
                        skip_batch_dim(d.indices_batching)};
    return {Batched{b.emit1(Prim::kGather, with_param(p, "dimension_numbers", dims), {in[0].value, idx}), 0}};
  }
  std::vector<int64_t> obd{0}, ibd{0};
  for (int64_t v : d.operand_batching) obd.push_back(v + 1);
  for (int64_t v : d.indices_batching) ibd.push_back(v + 1);
  const IntLists dims{skip_batch_dim(d.window), skip_batch_dim(d.collapsed), skip_batch_dim(d.index_map), obd, ibd};
  std::vector<int64_t> sizes = param<std::vector<int64_t>>(p, "slice_sizes", kName);
  sizes.insert(sizes.begin(), 1);
  const Params q = with_param(with_param(p, "dimension_numbers", dims), "slice_sizes", sizes);
  return {Batched{b.emit1(Prim::kGather, q, {move_batch_dim(b, in[0], 0, size), idx}), 0}};
}
Sample Def<Prim::kGather>::sample() {
  return {{samples::f32({5, 4}), samples::i32({3, 1})},
          {{"dimension_numbers", IntLists{{1}, {0}, {0}, {}, {}}},
           {"fill_value", std::numeric_limits<double>::quiet_NaN()},
           {"indices_are_sorted", false},
           {"mode", std::string("promise_in_bounds")},
           {"slice_sizes", std::vector<int64_t>{1, 4}},
           {"unique_indices", false}}};
}

// scatter

std::vector<MaybeAtom> Def<Prim::kScatter>::jvp(Builder& b, const Params& p, const std::vector<Atom>& x,
                                                const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  if (!t[0] && !t[2]) return {std::nullopt};
  return {b.emit1(Prim::kScatter, p,
                  {t[0] ? *t[0] : zeros_like(b, x[0].aval), x[1], t[2] ? *t[2] : zeros_like(b, x[2].aval)})};
}
// u's cotangent is ct read back at its window, but only where its write is
// the one that survived: each update element writes its own id (1, 2, ...)
// with the same scatter, and reads back which id won.
std::vector<MaybeAtom> Def<Prim::kScatter>::transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                                      const std::vector<Atom>& x, const std::vector<bool>& linear) {
  not_linear(kName, {x[1]}, {linear[1]});
  std::vector<MaybeAtom> out(3);
  if (!cts[0]) return out;
  const Atom& ct = *cts[0];
  const IntLists& dims = param<IntLists>(p, "dimension_numbers", kName);
  const IndexMode mode = mode_of(p, kName);
  if (linear[0]) out[0] = scatter(b, Prim::kScatter, ct, x[1], zeros_like(b, x[2].aval), dims, mode);
  if (linear[2]) {
    Atom read = gather_updates(b, p, kName, ct, x[1], x[2].aval);
    if (!mode.unique_indices) {
      const Shape& ushape = x[2].aval.shape;
      const Atom ids = reshape(
          b, add(b, iota(b, DType::kInt32, {num_elements(ushape)}, 0), Atom::constant(1, DType::kInt32)), ushape);
      const Atom written = scatter(b, Prim::kScatter, full_like(b, Aval{DType::kInt32, x[0].aval.shape, {}}, 0.0),
                                   x[1], ids, dims, mode);
      const Atom won = compare(b, Prim::kEq, gather_updates(b, p, kName, written, x[1], x[2].aval), ids);
      read = select_n(b, won, {zeros_like(b, read.aval), read});
    }
    out[2] = read;
  }
  return out;
}

// scatter-add

std::vector<MaybeAtom> Def<Prim::kScatterAdd>::jvp(Builder& b, const Params& p, const std::vector<Atom>& x,
                                                   const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  if (!t[0] && !t[2]) return {std::nullopt};
  return {b.emit1(Prim::kScatterAdd, p,
                  {t[0] ? *t[0] : zeros_like(b, x[0].aval), x[1], t[2] ? *t[2] : zeros_like(b, x[2].aval)})};
}
std::vector<MaybeAtom> Def<Prim::kScatterAdd>::transpose(Builder& b, const Params& p,
                                                         const std::vector<MaybeAtom>& cts, const std::vector<Atom>& x,
                                                         const std::vector<bool>& linear) {
  not_linear(kName, {x[1]}, {linear[1]});
  std::vector<MaybeAtom> out(3);
  if (!cts[0]) return out;
  if (linear[0]) out[0] = *cts[0];
  if (linear[2]) out[2] = gather_updates(b, p, kName, *cts[0], x[1], x[2].aval);
  return out;
}

// scatter-mul

std::vector<MaybeAtom> Def<Prim::kScatterMul>::jvp(Builder& b, const Params& p, const std::vector<Atom>& x,
                                                   const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  if (!t[0] && !t[2]) return {std::nullopt};
  if (t[2] && !param<bool>(p, "unique_indices", kName))
    fail(ErrorKind::kValue, "scatter_mul gradients are only implemented if `unique_indices=True`");
  // d(x * u) = dx * u + x * du, the second term only where an update landed.
  MaybeAtom dz;
  if (t[0]) dz = b.emit1(Prim::kScatterMul, p, {*t[0], x[1], x[2]});
  if (t[2]) {
    const Atom x_du = mul(b, gather_updates(b, p, kName, x[0], x[1], x[2].aval), *t[2]);
    const Atom term = b.emit1(Prim::kScatterAdd, p, {zeros_like(b, x[0].aval), x[1], x_du});
    dz = dz ? add(b, *dz, term) : term;
  }
  return {dz};
}
std::vector<MaybeAtom> Def<Prim::kScatterMul>::transpose(Builder& b, const Params& p,
                                                         const std::vector<MaybeAtom>& cts, const std::vector<Atom>& x,
                                                         const std::vector<bool>& linear) {
  not_linear(kName, {x[1], x[2]}, {linear[1], linear[2]});
  if (!linear[0] || !cts[0]) return std::vector<MaybeAtom>(3);
  return {b.emit1(Prim::kScatterMul, p, {*cts[0], x[1], x[2]}), std::nullopt, std::nullopt};
}

// scatter-min and scatter-max

namespace {

// The tangent of an extremal scatter z = scatter-min/max(x, idx, u): at each
// entry, the mean of the tangents of the values equal to the result there
// (x's if it survived, and every update written there that equals it).
MaybeAtom extremal_jvp(Builder& b, Prim prim, const Params& p, const std::vector<Atom>& x, const Atom& z,
                       const std::vector<MaybeAtom>& t) {
  if (!t[0] && !t[2]) return std::nullopt;
  const char* name = primitive(prim).name;
  const Aval& xa = x[0].aval;
  const Atom x_hit = select_n(b, compare(b, Prim::kEq, x[0], z), {zeros_like(b, xa), full_like(b, xa, 1.0)});
  const Atom z_at_u = gather_updates(b, p, name, z, x[1], x[2].aval);
  const Atom u_hit =
      select_n(b, compare(b, Prim::kEq, x[2], z_at_u), {zeros_like(b, x[2].aval), full_like(b, x[2].aval, 1.0)});
  const Atom count = add(b, x_hit, b.emit1(Prim::kScatterAdd, p, {zeros_like(b, xa), x[1], u_hit}));
  MaybeAtom sum;
  if (t[0]) sum = mul(b, x_hit, *t[0]);
  if (t[2]) {
    const Atom from_u = b.emit1(Prim::kScatterAdd, p, {zeros_like(b, xa), x[1], mul(b, u_hit, *t[2])});
    sum = sum ? add(b, *sum, from_u) : from_u;
  }
  return div(b, *sum, count);
}

}  // namespace

std::vector<MaybeAtom> Def<Prim::kScatterMin>::jvp(Builder& b, const Params& p, const std::vector<Atom>& x,
                                                   const std::vector<Atom>& z, const std::vector<MaybeAtom>& t) {
  return {extremal_jvp(b, Prim::kScatterMin, p, x, z[0], t)};
}

std::vector<MaybeAtom> Def<Prim::kScatterMax>::jvp(Builder& b, const Params& p, const std::vector<Atom>& x,
                                                   const std::vector<Atom>& z, const std::vector<MaybeAtom>& t) {
  return {extremal_jvp(b, Prim::kScatterMax, p, x, z[0], t)};
}

}  // namespace shardlab::ir
