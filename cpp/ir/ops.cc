#include "ir/ops.h"

#include "runtime/errors.h"

namespace shardlab::ir {

Atom add(Builder& b, const Atom& x, const Atom& y) { return b.emit1(Prim::kAdd, {}, {x, y}); }
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
Atom dot_general(Builder& b, const Atom& x, const Atom& y, const IntLists& dims) {
  return b.emit1(Prim::kDotGeneral, {{"dimension_numbers", dims}, {"preferred_element_type", x.aval.dtype}}, {x, y});
}
Atom matmul(Builder& b, const Atom& x, const Atom& y) {
  const int64_t rx = x.aval.ndim(), ry = y.aval.ndim();
  if (rx == 0 || ry == 0)
    fail(ErrorKind::kShape, "matmul: needs operands of rank 1 or more, got ", x.aval.str(), " and ", y.aval.str());
  if ((rx > 2 || ry > 2) && rx != ry)
    fail(ErrorKind::kShape, "matmul: operands ", x.aval.str(), " and ", y.aval.str(),
         " must have equal ranks when either has rank above 2 (batch dimensions are not broadcast)");
  // x's last dimension meets y's first (a vector) or second to last.
  std::vector<int64_t> batch;
  for (int64_t d = 0; d + 2 < rx; ++d) batch.push_back(d);
  return dot_general(b, x, y, {{rx - 1}, {ry == 1 ? 0 : ry - 2}, batch, batch});
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
Atom full_like(Builder& b, const Aval& like, double value) {
  const Atom literal = Atom::constant(value, like.dtype);
  const Atom full = like.shape.empty() ? literal : broadcast_in_dim(b, literal, like.shape, {});
  if (like.vma.empty() || !b.scope().tracks_vma()) return full;
  return b.emit1(Prim::kPvary, {{"axes", like.vma}}, {full});
}
Atom zeros_like(Builder& b, const Aval& like) { return full_like(b, like, 0.0); }

}  // namespace shardlab::ir
