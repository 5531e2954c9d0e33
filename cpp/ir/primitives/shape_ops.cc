#include "ir/primitives/shape_ops.h"

#include <algorithm>
#include <numeric>
#include <cstring>

#include "ir/transforms/batching.h"
#include "ir/tracing/ops.h"
#include "ir/primitives/sharding_rules.h"
#include "runtime/errors.h"
#include "runtime/sizes.h"
#include "runtime/strided_copy.h"

namespace shardlab::ir {

namespace {

// Reshape-like primitives keep the row-major elements as they are.
void copy_elements(const Tensor& in, Tensor& out) {
  std::memcpy(out.data, in.data, static_cast<size_t>(num_elements(in.aval.shape)) * kElemBytes);
}

}  // namespace

// broadcast_in_dim

std::vector<Aval> Def<Prim::kBroadcastInDim>::shape(const Params& p, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, kName, ": takes 1 operand, got ", in.size());
  const Shape& out = param<std::vector<int64_t>>(p, "shape", kName);
  const auto& dims = param<std::vector<int64_t>>(p, "broadcast_dimensions", kName);
  const Aval& x = in[0];
  check_dimensions(out, kName, "shape");
  if (dims.size() != x.shape.size())
    fail(ErrorKind::kShape, kName, ": broadcast_dimensions ", shape_str(dims), " has ", dims.size(),
         " entries but the operand ", x.str(), " has rank ", x.shape.size());
  // As JAX 0.11: any distinct output dimensions, in any order (an order
  // that is not increasing also transposes the operand).
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0 || dims[i] >= static_cast<int64_t>(out.size()) ||
        std::find(dims.begin(), dims.begin() + static_cast<std::ptrdiff_t>(i), dims[i]) != dims.begin() + static_cast<std::ptrdiff_t>(i))
      fail(ErrorKind::kShape, kName, ": broadcast_dimensions ", shape_str(dims),
           " must be distinct dimensions of the output shape ", shape_str(out));
    if (x.shape[i] != 1 && x.shape[i] != out[dims[i]])
      fail(ErrorKind::kShape, kName, ": operand dimension ", i, " of ", x.str(), " has size ", x.shape[i],
           " but output dimension ", dims[i], " of ", shape_str(out), " has size ", out[dims[i]],
           "; they must be equal or the operand's must be 1");
  }
  return {Aval{x.dtype, out, x.vma}};
}
void Def<Prim::kBroadcastInDim>::eval(const Params& p, const std::vector<const Tensor*>& in,
                                      const std::vector<Tensor*>& out) {
  const auto& dims = param<std::vector<int64_t>>(p, "broadcast_dimensions", kName);
  const Shape& oshape = out[0]->aval.shape;
  const Shape& ishape = in[0]->aval.shape;
  // The operand stride of each output dimension (0 where it repeats).
  Dims stride(oshape.size(), 0);
  const auto istrides = strides_of(ishape);
  for (size_t i = 0; i < dims.size(); ++i)
    if (ishape[i] != 1) stride[dims[i]] = istrides[i];
  const auto* src = in[0]->as<uint32_t>();
  auto* dst = out[0]->as<uint32_t>();
  const int64_t n = num_elements(oshape);
  if (n == 0) return;
  // The output as blocks of `inner` elements over its last dimensions: where
  // the operand repeats across all of them (stride 0) a block is one value
  // filled, else where it is contiguous across them a block is one copy.
  // (Element by element, a (16,) bias spread over 8192 rows cost as much as
  // the data-parallel step's reductions.)
  int rest = static_cast<int>(oshape.size());
  int64_t inner = 1;
  const bool fill = rest > 0 && stride[rest - 1] == 0;
  while (rest > 0 && stride[rest - 1] == (fill ? 0 : inner)) inner *= oshape[--rest];
  Dims idx(rest, 0);
  int64_t offset = 0;
  for (int64_t k = 0; k < n; k += inner) {
    if (fill)
      std::fill_n(dst + k, inner, src[offset]);
    else
      std::memcpy(dst + k, src + offset, static_cast<size_t>(inner) * sizeof(uint32_t));
    for (int d = rest - 1; d >= 0; --d) {
      offset += stride[d];
      if (++idx[d] < oshape[d]) break;
      offset -= stride[d] * oshape[d];
      idx[d] = 0;
    }
  }
}
std::vector<MaybeAtom> Def<Prim::kBroadcastInDim>::jvp(Builder& b, const Params& p, const std::vector<Atom>&,
                                                       const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return linear_jvp(b, Prim::kBroadcastInDim, p, t[0]);
}
std::vector<MaybeAtom> Def<Prim::kBroadcastInDim>::transpose(Builder& b, const Params& p,
                                                             const std::vector<MaybeAtom>& cts,
                                                             const std::vector<Atom>& x,
                                                             const std::vector<bool>& linear) {
  if (!linear[0] || !cts[0]) return {std::nullopt};
  const Shape& out = param<std::vector<int64_t>>(p, "shape", kName);
  const auto& dims = param<std::vector<int64_t>>(p, "broadcast_dimensions", kName);
  // Sum over the output dimensions that repeat the operand: new ones, and
  // operand dimensions of size 1 that were stretched.
  // The dimensions kept come out in output order; `kept` lists their
  // operand dimensions so, and a transpose puts them in the operand's order.
  std::vector<int64_t> summed, kept;
  for (int64_t d = 0; d < static_cast<int64_t>(out.size()); ++d) {
    size_t i = 0;
    while (i < dims.size() && dims[i] != d) ++i;
    if (i == dims.size() || (x[0].aval.shape[i] == 1 && out[d] != 1))
      summed.push_back(d);
    else
      kept.push_back(static_cast<int64_t>(i));
  }
  Atom r = summed.empty() ? *cts[0] : reduce_sum(b, *cts[0], summed);
  if (!std::is_sorted(kept.begin(), kept.end())) {
    std::vector<int64_t> perm(kept.size());
    std::iota(perm.begin(), perm.end(), 0);
    std::sort(perm.begin(), perm.end(), [&](int64_t a, int64_t c) { return kept[a] < kept[c]; });
    r = ir::transpose(b, r, perm);
  }
  if (r.aval.shape != x[0].aval.shape) r = reshape(b, r, x[0].aval.shape);
  return {r};
}

// The batch dimension first, becoming a new leading output dimension.
std::vector<Batched> Def<Prim::kBroadcastInDim>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                                      int64_t size) {
  Shape shape = param<std::vector<int64_t>>(p, "shape", kName);
  shape.insert(shape.begin(), size);
  std::vector<int64_t> dims = skip_batch_dim(param<std::vector<int64_t>>(p, "broadcast_dimensions", kName));
  dims.insert(dims.begin(), 0);
  return {Batched{broadcast_in_dim(b, move_batch_dim(b, in[0], 0, size), shape, dims), 0}};
}
Sample Def<Prim::kBroadcastInDim>::sample() {
  return {{samples::f32({3})}, {{"shape", std::vector<int64_t>{2, 3}}, {"broadcast_dimensions", std::vector<int64_t>{1}}}};
}

// reshape

std::vector<Aval> Def<Prim::kReshape>::shape(const Params& p, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, kName, ": takes 1 operand, got ", in.size());
  const Shape& sizes = param<std::vector<int64_t>>(p, "new_sizes", kName);
  for (int64_t s : sizes)
    if (s < 0) fail(ErrorKind::kShape, kName, ": new_sizes ", shape_str(sizes), " has a negative size");
  // Counted unchecked, a product wrapping around 2^64 could equal the operand's count.
  checked_bytes(in[0].dtype, sizes, kName, "new_sizes");
  if (num_elements(sizes) != num_elements(in[0].shape))
    fail(ErrorKind::kShape, kName, ": cannot reshape ", in[0].str(), " (", num_elements(in[0].shape), " elements) to ",
         shape_str(sizes), " (", num_elements(sizes), " elements)");
  return {Aval{in[0].dtype, sizes, in[0].vma}};
}
void Def<Prim::kReshape>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  copy_elements(*in[0], *out[0]);
}
std::vector<MaybeAtom> Def<Prim::kReshape>::jvp(Builder& b, const Params& p, const std::vector<Atom>&,
                                                const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return linear_jvp(b, Prim::kReshape, p, t[0]);
}
std::vector<MaybeAtom> Def<Prim::kReshape>::transpose(Builder& b, const Params&, const std::vector<MaybeAtom>& cts,
                                                      const std::vector<Atom>& x, const std::vector<bool>& linear) {
  if (!linear[0] || !cts[0]) return {std::nullopt};
  return {reshape(b, *cts[0], x[0].aval.shape)};
}

// Row-major order keeps each example's elements together once the batch dimension is first.
std::vector<Batched> Def<Prim::kReshape>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                               int64_t size) {
  Shape shape = param<std::vector<int64_t>>(p, "new_sizes", kName);
  shape.insert(shape.begin(), size);
  return {Batched{reshape(b, move_batch_dim(b, in[0], 0, size), shape), 0}};
}
Sample Def<Prim::kReshape>::sample() { return {{samples::f32({2, 3})}, {{"new_sizes", std::vector<int64_t>{3, 2}}}}; }

// transpose

std::vector<Aval> Def<Prim::kTranspose>::shape(const Params& p, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, kName, ": takes 1 operand, got ", in.size());
  const auto& perm = param<std::vector<int64_t>>(p, "permutation", kName);
  const Aval& x = in[0];
  std::vector<bool> seen(x.shape.size(), false);
  bool ok = perm.size() == x.shape.size();
  for (int64_t d : perm) {
    ok = ok && d >= 0 && d < x.ndim() && !seen[d];
    if (ok) seen[d] = true;
  }
  if (!ok)
    fail(ErrorKind::kShape, kName, ": permutation ", shape_str(perm), " is not a permutation of the ", x.ndim(),
         " dimensions of ", x.str());
  Shape out;
  for (int64_t d : perm) out.push_back(x.shape[d]);
  return {Aval{x.dtype, out, x.vma}};
}
void Def<Prim::kTranspose>::eval(const Params& p, const std::vector<const Tensor*>& in,
                                 const std::vector<Tensor*>& out) {
  const auto& perm = param<std::vector<int64_t>>(p, "permutation", kName);
  const auto istrides = strides_of(in[0]->aval.shape);
  StridedView src{{}, 0};
  for (int64_t d : perm) src.strides.push_back(istrides[d]);
  strided_copy(out[0]->aval.shape, in[0]->data, src, out[0]->data, StridedView{strides_of(out[0]->aval.shape), 0});
}
std::vector<MaybeAtom> Def<Prim::kTranspose>::jvp(Builder& b, const Params& p, const std::vector<Atom>&,
                                                  const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return linear_jvp(b, Prim::kTranspose, p, t[0]);
}
std::vector<MaybeAtom> Def<Prim::kTranspose>::transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                                        const std::vector<Atom>&, const std::vector<bool>& linear) {
  if (!linear[0] || !cts[0]) return {std::nullopt};
  const auto& perm = param<std::vector<int64_t>>(p, "permutation", kName);
  std::vector<int64_t> inverse(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inverse[perm[i]] = static_cast<int64_t>(i);
  return {ir::transpose(b, *cts[0], inverse)};
}

// The batch dimension first and kept there: permutation (0, p + 1).
std::vector<Batched> Def<Prim::kTranspose>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                                 int64_t size) {
  std::vector<int64_t> perm = skip_batch_dim(param<std::vector<int64_t>>(p, "permutation", kName));
  perm.insert(perm.begin(), 0);
  return {Batched{ir::transpose(b, move_batch_dim(b, in[0], 0, size), perm), 0}};
}
Sample Def<Prim::kTranspose>::sample() { return {{samples::f32({2, 3})}, {{"permutation", std::vector<int64_t>{1, 0}}}}; }

// squeeze

std::vector<Aval> Def<Prim::kSqueeze>::shape(const Params& p, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, kName, ": takes 1 operand, got ", in.size());
  const auto& dims = param<std::vector<int64_t>>(p, "dimensions", kName);
  const Aval& x = in[0];
  std::vector<bool> drop(x.shape.size(), false);
  for (int64_t d : dims) {
    if (d < 0 || d >= x.ndim() || drop[d] || x.shape[d] != 1)
      fail(ErrorKind::kValue, kName, ": dimensions ", shape_str(dims), " must be distinct dimensions of size 1 of ",
           x.str());
    drop[d] = true;
  }
  Shape out;
  for (size_t d = 0; d < x.shape.size(); ++d)
    if (!drop[d]) out.push_back(x.shape[d]);
  return {Aval{x.dtype, out, x.vma}};
}
void Def<Prim::kSqueeze>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  copy_elements(*in[0], *out[0]);
}
std::vector<MaybeAtom> Def<Prim::kSqueeze>::jvp(Builder& b, const Params& p, const std::vector<Atom>&,
                                                const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return linear_jvp(b, Prim::kSqueeze, p, t[0]);
}
std::vector<MaybeAtom> Def<Prim::kSqueeze>::transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                                      const std::vector<Atom>&, const std::vector<bool>& linear) {
  if (!linear[0] || !cts[0]) return {std::nullopt};
  std::vector<int64_t> dims = param<std::vector<int64_t>>(p, "dimensions", kName);
  std::sort(dims.begin(), dims.end());  // positions in the operand = positions to re-insert
  return {expand_dims(b, *cts[0], dims)};
}

std::vector<Batched> Def<Prim::kSqueeze>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                               int64_t size) {
  const auto dims = skip_batch_dim(param<std::vector<int64_t>>(p, "dimensions", kName));
  return {Batched{squeeze(b, move_batch_dim(b, in[0], 0, size), dims), 0}};
}
Sample Def<Prim::kSqueeze>::sample() { return {{samples::f32({2, 1, 3})}, {{"dimensions", std::vector<int64_t>{1}}}}; }

// expand_dims

std::vector<Aval> Def<Prim::kExpandDims>::shape(const Params& p, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, kName, ": takes 1 operand, got ", in.size());
  const auto& dims = param<std::vector<int64_t>>(p, "dimensions", kName);
  const Aval& x = in[0];
  const int64_t rank = x.ndim() + static_cast<int64_t>(dims.size());
  std::vector<bool> inserted(rank, false);
  for (int64_t d : dims) {
    if (d < 0 || d >= rank || inserted[d])
      fail(ErrorKind::kShape, kName, ": dimensions ", shape_str(dims), " must be distinct positions in 0..", rank - 1,
           " for ", x.str());
    inserted[d] = true;
  }
  Shape out;
  for (int64_t d = 0, k = 0; d < rank; ++d) out.push_back(inserted[d] ? 1 : x.shape[k++]);
  return {Aval{x.dtype, out, x.vma}};
}
void Def<Prim::kExpandDims>::eval(const Params&, const std::vector<const Tensor*>& in,
                                  const std::vector<Tensor*>& out) {
  copy_elements(*in[0], *out[0]);
}
std::vector<MaybeAtom> Def<Prim::kExpandDims>::jvp(Builder& b, const Params& p, const std::vector<Atom>&,
                                                   const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return linear_jvp(b, Prim::kExpandDims, p, t[0]);
}
std::vector<MaybeAtom> Def<Prim::kExpandDims>::transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                                         const std::vector<Atom>&, const std::vector<bool>& linear) {
  if (!linear[0] || !cts[0]) return {std::nullopt};
  return {squeeze(b, *cts[0], param<std::vector<int64_t>>(p, "dimensions", kName))};
}

std::vector<Batched> Def<Prim::kExpandDims>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                                  int64_t size) {
  const auto dims = skip_batch_dim(param<std::vector<int64_t>>(p, "dimensions", kName));
  return {Batched{expand_dims(b, move_batch_dim(b, in[0], 0, size), dims), 0}};
}
Sample Def<Prim::kExpandDims>::sample() { return {{samples::f32({2, 3})}, {{"dimensions", std::vector<int64_t>{1}}}}; }

// rev

std::vector<Aval> Def<Prim::kRev>::shape(const Params& p, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, kName, ": takes 1 operand, got ", in.size());
  const auto& dims = param<std::vector<int64_t>>(p, "dimensions", kName);
  const Aval& x = in[0];
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i] < 0 || dims[i] >= x.ndim() || std::count(dims.begin(), dims.end(), dims[i]) != 1)
      fail(ErrorKind::kShape, kName, ": dimensions ", shape_str(dims), " must be distinct dimensions in 0..",
           x.ndim() - 1, " of ", x.str());
  return {x};
}
void Def<Prim::kRev>::eval(const Params& p, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  const Shape& shape = in[0]->aval.shape;
  StridedView src{strides_of(shape), 0};
  for (int64_t d : param<std::vector<int64_t>>(p, "dimensions", kName)) {
    src.offset += (shape[d] - 1) * src.strides[d];  // read from the end backwards
    src.strides[d] = -src.strides[d];
  }
  strided_copy(shape, in[0]->data, src, out[0]->data, StridedView{strides_of(shape), 0});
}
std::vector<MaybeAtom> Def<Prim::kRev>::jvp(Builder& b, const Params& p, const std::vector<Atom>&,
                                            const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return linear_jvp(b, Prim::kRev, p, t[0]);
}
std::vector<MaybeAtom> Def<Prim::kRev>::transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                                  const std::vector<Atom>&, const std::vector<bool>& linear) {
  if (!linear[0] || !cts[0]) return {std::nullopt};
  return {rev(b, *cts[0], param<std::vector<int64_t>>(p, "dimensions", kName))};
}
std::vector<Batched> Def<Prim::kRev>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                           int64_t size) {
  const auto dims = skip_batch_dim(param<std::vector<int64_t>>(p, "dimensions", kName));
  return {Batched{rev(b, move_batch_dim(b, in[0], 0, size), dims), 0}};
}
Sample Def<Prim::kRev>::sample() { return {{samples::f32({3, 4})}, {{"dimensions", std::vector<int64_t>{0, 1}}}}; }

// Output dimension dims[i] is operand dimension i (JAX's rule); the new ones are unsharded.
std::vector<Sharding> Def<Prim::kBroadcastInDim>::sharding(const Params& p, const std::vector<Aval>& in,
                                                           const std::vector<Aval>& out) {
  const auto& dims = param<std::vector<int64_t>>(p, "broadcast_dimensions", kName);
  std::vector<int64_t> from(out[0].shape.size(), -1);
  for (size_t i = 0; i < dims.size(); ++i) from[static_cast<size_t>(dims[i])] = static_cast<int64_t>(i);
  return {mapped_sharding(in[0].sharding, from)};
}

namespace {

[[noreturn]] void reshape_error(const Aval& x, const Shape& sizes) {
  fail(ErrorKind::kShardingType, "This reshape is not supported. Please specify the sharding of the output via the ",
       "`out_sharding` argument of jax.lax.reshape (or jax.reshard the operand). Got operand type: ", x.str(),
       ", new sizes: ", shape_str(sizes));
}

}  // namespace

// JAX's _reshape_sharding_rule: an unsharded operand's result is unsharded;
// otherwise the dimensions are matched in groups of equal products, and a
// group keeps its sharding only where the row-major blocks stay the same
// elements: dimensions of size 1 come and go, a sharded dimension split in
// several keeps its axes on the major part (which they divide), several
// merged into one keep the axes of the major one when the others are
// unsharded. Anything else needs an out_sharding.
std::vector<Sharding> Def<Prim::kReshape>::sharding(const Params&, const std::vector<Aval>& in,
                                                    const std::vector<Aval>& out) {
  const Aval& x = in[0];
  const Shape& y = out[0].shape;
  if (x.sharding.dims.empty()) return {x.sharding};
  // No elements: no blocks to keep (and no groups of equal products to find).
  if (std::find(x.shape.begin(), x.shape.end(), 0) != x.shape.end()) return {x.sharding.with_dims({})};
  std::vector<std::vector<std::string>> dims(y.size());
  size_t i = 0, j = 0;
  while (i < x.shape.size() || j < y.size()) {
    // A dimension of size 1 on either side is a group of its own.
    if (i < x.shape.size() && x.shape[i] == 1) {
      if (!x.sharding.dim(i).empty()) reshape_error(x, y);
      ++i;
      continue;
    }
    if (j < y.size() && y[j] == 1) {
      ++j;
      continue;
    }
    if (i >= x.shape.size() || j >= y.size()) reshape_error(x, y);
    // The smallest group [i, i2) x [j, j2) of equal products.
    size_t i2 = i + 1, j2 = j + 1;
    int64_t a = x.shape[i], b = y[j];
    while (a != b) {
      if (a < b) a *= x.shape[i2++];
      else b *= y[j2++];
    }
    const auto& major = x.sharding.dim(i);
    for (size_t k = i + 1; k < i2; ++k)
      if (!x.sharding.dim(k).empty()) reshape_error(x, y);
    if (!major.empty()) {
      if (y[j] % x.sharding.size_of(major) != 0) reshape_error(x, y);
      dims[j] = major;
    }
    i = i2;
    j = j2;
  }
  return {x.sharding.with_dims(std::move(dims))};
}

// Output dimension k is operand dimension permutation[k] (JAX's rule).
std::vector<Sharding> Def<Prim::kTranspose>::sharding(const Params& p, const std::vector<Aval>& in,
                                                      const std::vector<Aval>&) {
  return {mapped_sharding(in[0].sharding, param<std::vector<int64_t>>(p, "permutation", kName))};
}

// The removed dimensions leave the sharding (JAX's rule).
std::vector<Sharding> Def<Prim::kSqueeze>::sharding(const Params& p, const std::vector<Aval>& in,
                                                    const std::vector<Aval>&) {
  return {without_dims(in[0].sharding, in[0].shape.size(), param<std::vector<int64_t>>(p, "dimensions", kName))};
}

// The inserted dimensions are unsharded, the others keep theirs.
std::vector<Sharding> Def<Prim::kExpandDims>::sharding(const Params& p, const std::vector<Aval>& in,
                                                       const std::vector<Aval>& out) {
  const auto& dims = param<std::vector<int64_t>>(p, "dimensions", kName);
  std::vector<int64_t> from;
  int64_t next = 0;
  for (int64_t k = 0; k < static_cast<int64_t>(out[0].shape.size()); ++k)
    from.push_back(std::find(dims.begin(), dims.end(), k) != dims.end() ? -1 : next++);
  return {mapped_sharding(in[0].sharding, from)};
}

// Each operand dimension keeps its blocks (the new ones are whole): the blocks broadcast to the result's block shape.
std::vector<Atom> Def<Prim::kBroadcastInDim>::partition(Partitioner& pt, const PartEqn& e) {
  return pt.as_is(e, with_param(e.params, "shape", block_shape(e.out[0])));
}

// The sharding rule keeps a sharding only where a block's row-major elements
// stay one block (a split's major part, a merge's major dimension), so each
// block is reshaped to the result's block shape.
std::vector<Atom> Def<Prim::kReshape>::partition(Partitioner& pt, const PartEqn& e) {
  return pt.as_is(e, with_param(e.params, "new_sizes", block_shape(e.out[0])));
}

// Dimensions carry their blocks along: each block transposed alike.
std::vector<Atom> Def<Prim::kTranspose>::partition(Partitioner& pt, const PartEqn& e) { return pt.as_is(e, e.params); }

// The removed dimensions have size 1, so are whole in every block.
std::vector<Atom> Def<Prim::kSqueeze>::partition(Partitioner& pt, const PartEqn& e) { return pt.as_is(e, e.params); }

// The inserted dimensions are whole in every block.
std::vector<Atom> Def<Prim::kExpandDims>::partition(Partitioner& pt, const PartEqn& e) { return pt.as_is(e, e.params); }

}  // namespace shardlab::ir
