#include "ir/primitives/reductions.h"

#include <cstring>

#include "ir/ops.h"
#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

// Whether dimension d of an operand of rank `rank` is summed.
std::vector<bool> summed_dims(const std::vector<int64_t>& axes, size_t rank) {
  std::vector<bool> s(rank, false);
  for (int64_t a : axes) s[a] = true;
  return s;
}

}  // namespace

std::vector<Aval> Def<Prim::kReduceSum>::shape(const Params& p, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, kName, ": takes 1 operand, got ", in.size());
  const auto& axes = param<std::vector<int64_t>>(p, "axes", kName);
  const Aval& x = in[0];
  for (size_t i = 0; i < axes.size(); ++i)
    if (axes[i] < 0 || axes[i] >= x.ndim() || (i > 0 && axes[i] <= axes[i - 1]))
      fail(ErrorKind::kShape, kName, ": axes ", shape_str(axes), " must be distinct, increasing dimensions of ",
           x.str(), " (0..", x.ndim() - 1, ")");
  const auto summed = summed_dims(axes, x.shape.size());
  Shape out;
  for (size_t d = 0; d < x.shape.size(); ++d)
    if (!summed[d]) out.push_back(x.shape[d]);
  return {Aval{x.dtype, out, x.vma}};
}

void Def<Prim::kReduceSum>::eval(const Params& p, const std::vector<const Tensor*>& in,
                                 const std::vector<Tensor*>& out) {
  const auto& axes = param<std::vector<int64_t>>(p, "axes", kName);
  const Shape& ishape = in[0]->aval.shape;
  const auto summed = summed_dims(axes, ishape.size());
  // The output stride of each input dimension (0 for summed ones).
  const auto ostrides = strides_of(out[0]->aval.shape);
  std::vector<int64_t> stride(ishape.size(), 0);
  for (size_t d = 0, o = 0; d < ishape.size(); ++d)
    if (!summed[d]) stride[d] = ostrides[o++];
  const int64_t n_out = num_elements(out[0]->aval.shape), n_in = num_elements(ishape);
  const bool is_float = in[0]->aval.dtype == DType::kFloat32;
  std::vector<double> acc(is_float ? n_out : 0, 0.0);
  std::vector<int64_t> iacc(is_float ? 0 : n_out, 0);
  std::vector<int64_t> idx(ishape.size(), 0);
  int64_t offset = 0;
  for (int64_t k = 0; k < n_in; ++k) {
    if (is_float) {
      acc[offset] += in[0]->as<float>()[k];
    } else {
      iacc[offset] += in[0]->as<int32_t>()[k];
    }
    for (int d = static_cast<int>(ishape.size()) - 1; d >= 0; --d) {
      offset += stride[d];
      if (++idx[d] < ishape[d]) break;
      offset -= stride[d] * ishape[d];
      idx[d] = 0;
    }
  }
  for (int64_t i = 0; i < n_out; ++i) {
    if (is_float) {
      out[0]->as<float>()[i] = static_cast<float>(acc[i]);
    } else {
      out[0]->as<int32_t>()[i] = static_cast<int32_t>(static_cast<uint32_t>(iacc[i]));
    }
  }
}

std::vector<MaybeAtom> Def<Prim::kReduceSum>::jvp(Builder& b, const Params& p, const std::vector<Atom>&,
                                                  const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return linear_jvp(b, Prim::kReduceSum, p, t[0]);
}

std::vector<MaybeAtom> Def<Prim::kReduceSum>::transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                                        const std::vector<Atom>& x, const std::vector<bool>& linear) {
  if (!linear[0] || !cts[0]) return {std::nullopt};
  const auto summed = summed_dims(param<std::vector<int64_t>>(p, "axes", kName), x[0].aval.shape.size());
  std::vector<int64_t> kept;
  for (size_t d = 0; d < summed.size(); ++d)
    if (!summed[d]) kept.push_back(static_cast<int64_t>(d));
  return {broadcast_in_dim(b, *cts[0], x[0].aval.shape, kept)};
}

}  // namespace shardlab::ir
