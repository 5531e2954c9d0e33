#include "ir/tracing/ops.h"

#include <algorithm>
#include <numeric>

#include "runtime/errors.h"

namespace shardlab::ir {

Atom add(Builder& b, const Atom& x, const Atom& y) { return b.emit1(Prim::kAdd, {}, {x, y}); }
Atom add_any(Builder& b, const Atom& x, const Atom& y) { return b.emit1(Prim::kAddAny, {}, {x, y}); }
Atom sub(Builder& b, const Atom& x, const Atom& y) { return b.emit1(Prim::kSub, {}, {x, y}); }
Atom mul(Builder& b, const Atom& x, const Atom& y) { return b.emit1(Prim::kMul, {}, {x, y}); }
Atom div(Builder& b, const Atom& x, const Atom& y) { return b.emit1(Prim::kDiv, {}, {x, y}); }
Atom neg(Builder& b, const Atom& x) { return b.emit1(Prim::kNeg, {}, {x}); }
Atom max(Builder& b, const Atom& x, const Atom& y) { return b.emit1(Prim::kMax, {}, {x, y}); }
Atom min(Builder& b, const Atom& x, const Atom& y) { return b.emit1(Prim::kMin, {}, {x, y}); }
Atom pow(Builder& b, const Atom& x, const Atom& y) { return b.emit1(Prim::kPow, {}, {x, y}); }
Atom unary(Builder& b, Prim prim, const Atom& x) { return b.emit1(prim, {}, {x}); }
Atom compare(Builder& b, Prim prim, const Atom& x, const Atom& y) { return b.emit1(prim, {}, {x, y}); }
Atom select_n(Builder& b, const Atom& which, const std::vector<Atom>& cases) {
  std::vector<Atom> in{which};
  in.insert(in.end(), cases.begin(), cases.end());
  return b.emit1(Prim::kSelectN, {}, in);
}
Atom convert_element_type(Builder& b, const Atom& x, DType dtype) {
  return b.emit1(Prim::kConvertElementType, {{"new_dtype", dtype}, {"weak_type", false}}, {x});
}
Atom iota(Builder& b, DType dtype, const Shape& shape, int64_t dimension) {
  return b.emit1(Prim::kIota, {{"dtype", dtype}, {"shape", shape}, {"dimension", dimension}}, {});
}
Atom f32_scalar(double value) { return Atom::constant(value, DType::kFloat32); }
Atom scalar_like(const Atom& x, double value) { return Atom::constant(value, x.aval.dtype); }
Atom broadcast_in_dim(Builder& b, const Atom& x, const Shape& shape, const std::vector<int64_t>& dims) {
  return b.emit1(Prim::kBroadcastInDim, {{"shape", shape}, {"broadcast_dimensions", dims}}, {x});
}
Atom reshape(Builder& b, const Atom& x, const Shape& shape) {
  return b.emit1(Prim::kReshape, {{"new_sizes", shape}}, {x});
}
Atom transpose(Builder& b, const Atom& x, const std::vector<int64_t>& perm) {
  return b.emit1(Prim::kTranspose, {{"permutation", perm}}, {x});
}
Atom squeeze(Builder& b, const Atom& x, const std::vector<int64_t>& dimensions) {
  return b.emit1(Prim::kSqueeze, {{"dimensions", dimensions}}, {x});
}
Atom expand_dims(Builder& b, const Atom& x, const std::vector<int64_t>& dimensions) {
  return b.emit1(Prim::kExpandDims, {{"dimensions", dimensions}}, {x});
}
Atom dot_general(Builder& b, const Atom& x, const Atom& y, const IntLists& dims, const Sharding& out_sharding) {
  return b.emit1(Prim::kDotGeneral,
                 {{"dimension_numbers", dims}, {"preferred_element_type", x.aval.dtype}, {"out_sharding", out_sharding}},
                 {x, y});
}
Atom matmul(Builder& b, const Atom& x, const Atom& y) {
  const int64_t rx = x.aval.ndim(), ry = y.aval.ndim();
  if (rx == 0 || ry == 0)
    fail(ErrorKind::kShape, "matmul: needs operands of rank 1 or more, got ", x.aval.str(), " and ", y.aval.str());
  const bool x_mat = rx > 1, y_mat = ry > 1;
  const int64_t n = std::max<int64_t>({rx - 2, ry - 2, 0});
  // Each operand's batch size per output batch dimension, aligned right (-1: it has none).
  const auto batch_of = [n](const Shape& s, bool mat) {
    std::vector<int64_t> out(static_cast<size_t>(n), -1);
    if (mat) std::copy(s.begin(), s.end() - 2, out.end() - static_cast<int64_t>(s.size() - 2));
    return out;
  };
  const std::vector<int64_t> xb = batch_of(x.aval.shape, x_mat), yb = batch_of(y.aval.shape, y_mat);
  std::vector<int64_t> x_squeeze, y_squeeze, both, x_batch, y_batch;
  std::vector<int64_t> idx_batch, idx_x, idx_y;  // where each kind of dot_general output dimension goes
  const auto x_pos = [&] { return static_cast<int64_t>(idx_batch.size() + idx_x.size() + x_squeeze.size()); };
  const auto y_pos = [&] { return static_cast<int64_t>(idx_batch.size() + idx_y.size() + y_squeeze.size()); };
  for (int64_t i = 0; i < n; ++i) {
    const int64_t bx = xb[static_cast<size_t>(i)], by = yb[static_cast<size_t>(i)];
    if (bx < 0) {
      idx_y.push_back(i);
    } else if (by < 0) {
      idx_x.push_back(i);
    } else if (bx == 1 && by == 1) {
      x_squeeze.push_back(x_pos());
      y_squeeze.push_back(y_pos());
      both.push_back(i);
    } else if (bx == 1) {
      x_squeeze.push_back(x_pos());
      idx_y.push_back(i);
    } else if (by == 1) {
      y_squeeze.push_back(y_pos());
      idx_x.push_back(i);
    } else if (bx == by) {
      x_batch.push_back(static_cast<int64_t>(idx_batch.size() + idx_x.size()));
      y_batch.push_back(static_cast<int64_t>(idx_batch.size() + idx_y.size()));
      idx_batch.push_back(i);
    } else {
      fail(ErrorKind::kShape, "matmul: ", x.aval.str(), " @ ", y.aval.str(), ": the batch dimensions do not broadcast");
    }
  }
  if (x_mat) idx_x.push_back(n);
  if (y_mat) idx_y.push_back(n + (x_mat ? 1 : 0));
  const Atom xs = x_squeeze.empty() ? x : squeeze(b, x, x_squeeze);
  const Atom ys = y_squeeze.empty() ? y : squeeze(b, y, y_squeeze);
  // x's last dimension meets y's first (a vector) or second to last.
  Atom out = dot_general(b, xs, ys, {{xs.aval.ndim() - 1}, {ys.aval.ndim() - 1 - (y_mat ? 1 : 0)}, x_batch, y_batch});
  std::vector<int64_t> order = idx_batch;
  order.insert(order.end(), idx_x.begin(), idx_x.end());
  order.insert(order.end(), idx_y.begin(), idx_y.end());
  std::vector<int64_t> perm(order.size());  // argsort of order (its values skip the dimensions both squeezed)
  std::iota(perm.begin(), perm.end(), int64_t{0});
  std::sort(perm.begin(), perm.end(), [&](int64_t i, int64_t j) { return order[static_cast<size_t>(i)] < order[static_cast<size_t>(j)]; });
  bool identity = true;
  for (size_t k = 0; k < perm.size(); ++k) identity = identity && perm[k] == static_cast<int64_t>(k);
  if (!identity) out = transpose(b, out, perm);
  return both.empty() ? out : expand_dims(b, out, both);
}
Atom concatenate(Builder& b, const std::vector<Atom>& xs, int64_t dimension) {
  return b.emit1(Prim::kConcatenate, {{"dimension", dimension}}, xs);
}
Atom slice(Builder& b, const Atom& x, const std::vector<int64_t>& start, const std::vector<int64_t>& limit,
           const std::vector<int64_t>& strides) {
  return b.emit1(Prim::kSlice, {{"start_indices", start}, {"limit_indices", limit}, {"strides", strides}}, {x});
}
Atom pad(Builder& b, const Atom& x, const Atom& value, const IntLists& padding_config) {
  return b.emit1(Prim::kPad, {{"padding_config", padding_config}}, {x, value});
}
Atom dynamic_slice(Builder& b, const Atom& x, const std::vector<Atom>& indices, const Shape& sizes) {
  std::vector<Atom> in{x};
  in.insert(in.end(), indices.begin(), indices.end());
  return b.emit1(Prim::kDynamicSlice, {{"slice_sizes", sizes}}, in);
}
Atom dynamic_update_slice(Builder& b, const Atom& x, const Atom& update, const std::vector<Atom>& indices) {
  std::vector<Atom> in{x, update};
  in.insert(in.end(), indices.begin(), indices.end());
  return b.emit1(Prim::kDynamicUpdateSlice, {}, in);
}
Atom reduce_sum(Builder& b, const Atom& x, const std::vector<int64_t>& axes) {
  return b.emit1(Prim::kReduceSum, {{"axes", axes}}, {x});
}
Atom reduce_max(Builder& b, const Atom& x, const std::vector<int64_t>& axes) {
  return b.emit1(Prim::kReduceMax, {{"axes", axes}}, {x});
}
Atom reduce_min(Builder& b, const Atom& x, const std::vector<int64_t>& axes) {
  return b.emit1(Prim::kReduceMin, {{"axes", axes}}, {x});
}
std::vector<MaybeAtom> linear_jvp(Builder& b, Prim prim, const Params& params, const MaybeAtom& tangent) {
  if (!tangent) return {std::nullopt};
  return {b.emit1(prim, params, {*tangent})};
}
std::vector<MaybeAtom> not_linear(const char* name, const std::vector<Atom>& inputs, const std::vector<bool>& linear) {
  for (size_t i = 0; i < inputs.size(); ++i)
    if (linear[i])
      fail(ErrorKind::kValue, name, ": the program is not linear in its operand ", inputs[i].aval.str(),
           "; cannot transpose");
  return std::vector<MaybeAtom>(inputs.size());
}
Atom gather(Builder& b, const Atom& x, const Atom& idx, const IntLists& dims, const Shape& slice_sizes,
            const IndexMode& mode, double fill_value) {
  return b.emit1(Prim::kGather,
                 {{"dimension_numbers", dims},
                  {"fill_value", fill_value},
                  {"indices_are_sorted", mode.indices_are_sorted},
                  {"mode", mode.mode},
                  {"slice_sizes", slice_sizes},
                  {"unique_indices", mode.unique_indices}},
                 {x, idx});
}
Atom scatter(Builder& b, Prim prim, const Atom& x, const Atom& idx, const Atom& u, const IntLists& dims,
             const IndexMode& mode) {
  return b.emit1(prim,
                 {{"dimension_numbers", dims},
                  {"indices_are_sorted", mode.indices_are_sorted},
                  {"mode", mode.mode},
                  {"unique_indices", mode.unique_indices}},
                 {x, idx, u});
}
Atom rev(Builder& b, const Atom& x, const std::vector<int64_t>& dimensions) {
  return b.emit1(Prim::kRev, {{"dimensions", dimensions}}, {x});
}
Atom full_like(Builder& b, const Aval& like, double value) {
  const Atom literal = Atom::constant(value, like.dtype, like.weak);  // JAX's full_like keeps the weak type
  const Atom full = like.shape.empty() ? literal : broadcast_in_dim(b, literal, like.shape, {});
  return b.scope().tracks_vma() ? b.with_vma(full, like.vma) : full;
}
Atom zeros_like(Builder& b, const Aval& like) { return full_like(b, like, 0.0); }

}  // namespace shardlab::ir
