#include "ir/primitives/shape_ops.h"

#include <cstring>

#include "ir/ops.h"
#include "runtime/errors.h"

namespace shardlab::ir {

// broadcast_in_dim

std::vector<Aval> Def<Prim::kBroadcastInDim>::shape(const Params& p, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, kName, ": takes 1 operand, got ", in.size());
  const Shape& out = param<std::vector<int64_t>>(p, "shape", kName);
  const auto& dims = param<std::vector<int64_t>>(p, "broadcast_dimensions", kName);
  const Aval& x = in[0];
  if (dims.size() != x.shape.size())
    fail(ErrorKind::kShape, kName, ": broadcast_dimensions ", shape_str(dims), " has ", dims.size(),
         " entries but the operand ", x.str(), " has rank ", x.shape.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0 || dims[i] >= static_cast<int64_t>(out.size()) || (i > 0 && dims[i] <= dims[i - 1]))
      fail(ErrorKind::kShape, kName, ": broadcast_dimensions ", shape_str(dims),
           " must be strictly increasing dimensions of the output shape ", shape_str(out));
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
  std::vector<int64_t> stride(oshape.size(), 0);
  const auto istrides = strides_of(ishape);
  for (size_t i = 0; i < dims.size(); ++i)
    if (ishape[i] != 1) stride[dims[i]] = istrides[i];
  const auto* src = in[0]->as<uint32_t>();
  auto* dst = out[0]->as<uint32_t>();
  const int64_t n = num_elements(oshape);
  std::vector<int64_t> idx(oshape.size(), 0);
  int64_t offset = 0;
  for (int64_t k = 0; k < n; ++k) {
    dst[k] = src[offset];
    for (int d = static_cast<int>(oshape.size()) - 1; d >= 0; --d) {
      offset += stride[d];
      if (++idx[d] < oshape[d]) break;
      offset -= stride[d] * oshape[d];
      idx[d] = 0;
    }
  }
}
std::vector<MaybeAtom> Def<Prim::kBroadcastInDim>::jvp(Builder& b, const Params& p, const std::vector<Atom>&,
                                                       const std::vector<Atom>&,
                                                       const std::vector<MaybeAtom>& t) {
  if (!t[0]) return {std::nullopt};
  return {b.emit1(Prim::kBroadcastInDim, p, {*t[0]})};
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
  std::vector<int64_t> summed;
  for (int64_t d = 0; d < static_cast<int64_t>(out.size()); ++d) {
    size_t i = 0;
    while (i < dims.size() && dims[i] != d) ++i;
    if (i == dims.size() || (x[0].aval.shape[i] == 1 && out[d] != 1)) summed.push_back(d);
  }
  Atom r = summed.empty() ? *cts[0] : reduce_sum(b, *cts[0], summed);
  if (r.aval.shape != x[0].aval.shape) r = reshape(b, r, x[0].aval.shape);
  return {r};
}

// reshape

std::vector<Aval> Def<Prim::kReshape>::shape(const Params& p, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, kName, ": takes 1 operand, got ", in.size());
  const Shape& sizes = param<std::vector<int64_t>>(p, "new_sizes", kName);
  for (int64_t s : sizes)
    if (s < 0) fail(ErrorKind::kShape, kName, ": new_sizes ", shape_str(sizes), " has a negative size");
  if (num_elements(sizes) != num_elements(in[0].shape))
    fail(ErrorKind::kShape, kName, ": cannot reshape ", in[0].str(), " (", num_elements(in[0].shape),
         " elements) to ", shape_str(sizes), " (", num_elements(sizes), " elements)");
  return {Aval{in[0].dtype, sizes, in[0].vma}};
}
void Def<Prim::kReshape>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  std::memcpy(out[0]->data, in[0]->data, static_cast<size_t>(num_elements(in[0]->aval.shape)) * kElemBytes);
}
std::vector<MaybeAtom> Def<Prim::kReshape>::jvp(Builder& b, const Params& p, const std::vector<Atom>&,
                                                const std::vector<Atom>&,
                                                const std::vector<MaybeAtom>& t) {
  if (!t[0]) return {std::nullopt};
  return {b.emit1(Prim::kReshape, p, {*t[0]})};
}
std::vector<MaybeAtom> Def<Prim::kReshape>::transpose(Builder& b, const Params&, const std::vector<MaybeAtom>& cts,
                                                      const std::vector<Atom>& x, const std::vector<bool>& linear) {
  if (!linear[0] || !cts[0]) return {std::nullopt};
  return {reshape(b, *cts[0], x[0].aval.shape)};
}

}  // namespace shardlab::ir
