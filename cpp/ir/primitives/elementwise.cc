#include "ir/primitives/elementwise.h"

#include <Eigen/Core>

#include "ir/ops.h"
#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

template <class T>
using Vec = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
template <class T>
using ConstVec = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;

// Applies f to the operands as flat Eigen arrays of their dtype.
template <class F>
void eval_flat(const std::vector<const Tensor*>& in, Tensor* out, F f) {
  const Eigen::Index n = num_elements(out->aval.shape);
  if (out->aval.dtype == DType::kFloat32) {
    Vec<float> z(out->as<float>(), n);
    if (in.size() == 1) {
      f(z, ConstVec<float>(in[0]->as<float>(), n), ConstVec<float>(in[0]->as<float>(), n));
    } else {
      f(z, ConstVec<float>(in[0]->as<float>(), n), ConstVec<float>(in[1]->as<float>(), n));
    }
  } else {
    Vec<int32_t> z(out->as<int32_t>(), n);
    if (in.size() == 1) {
      f(z, ConstVec<int32_t>(in[0]->as<int32_t>(), n), ConstVec<int32_t>(in[0]->as<int32_t>(), n));
    } else {
      f(z, ConstVec<int32_t>(in[0]->as<int32_t>(), n), ConstVec<int32_t>(in[1]->as<int32_t>(), n));
    }
  }
}

}  // namespace

std::vector<Aval> binary_shape(const char* name, const std::vector<Aval>& in) {
  if (in.size() != 2) fail(ErrorKind::kValue, name, ": takes 2 operands, got ", in.size());
  const Aval& x = in[0];
  const Aval& y = in[1];
  if (x.dtype != y.dtype)
    fail(ErrorKind::kShape, name, ": operand dtypes differ (", x.str(), " and ", y.str(),
         "); convert one with convert_element_type");
  if (x.shape != y.shape)
    fail(ErrorKind::kShape, name, ": operand shapes must be equal, got ", x.str(), " and ", y.str(),
         "; broadcast one first (broadcast_in_dim; the np.* functions broadcast for you)");
  return {Aval{x.dtype, x.shape, vma_union(x.vma, y.vma)}};
}

std::vector<Aval> unary_shape(const char* name, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, name, ": takes 1 operand, got ", in.size());
  return {in[0]};
}

// add

std::vector<Aval> Def<Prim::kAdd>::shape(const Params&, const std::vector<Aval>& in) {
  return binary_shape(kName, in);
}
void Def<Prim::kAdd>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  eval_flat(in, out[0], [](auto z, auto x, auto y) { z = x + y; });
}
std::vector<MaybeAtom> Def<Prim::kAdd>::jvp(Builder& b, const Params&, const std::vector<Atom>&,
                                            const std::vector<MaybeAtom>& t) {
  if (t[0] && t[1]) return {add(b, *t[0], *t[1])};
  return {t[0] ? t[0] : t[1]};
}
std::vector<MaybeAtom> Def<Prim::kAdd>::transpose(Builder&, const Params&, const std::vector<MaybeAtom>& cts,
                                                  const std::vector<Atom>&, const std::vector<bool>& linear) {
  return {linear[0] ? cts[0] : std::nullopt, linear[1] ? cts[0] : std::nullopt};
}

// sub

std::vector<Aval> Def<Prim::kSub>::shape(const Params&, const std::vector<Aval>& in) {
  return binary_shape(kName, in);
}
void Def<Prim::kSub>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  eval_flat(in, out[0], [](auto z, auto x, auto y) { z = x - y; });
}
std::vector<MaybeAtom> Def<Prim::kSub>::jvp(Builder& b, const Params&, const std::vector<Atom>&,
                                            const std::vector<MaybeAtom>& t) {
  if (t[0] && t[1]) return {sub(b, *t[0], *t[1])};
  if (t[0]) return {t[0]};
  if (t[1]) return {neg(b, *t[1])};
  return {std::nullopt};
}
std::vector<MaybeAtom> Def<Prim::kSub>::transpose(Builder& b, const Params&, const std::vector<MaybeAtom>& cts,
                                                  const std::vector<Atom>&, const std::vector<bool>& linear) {
  if (!cts[0]) return {std::nullopt, std::nullopt};
  return {linear[0] ? cts[0] : std::nullopt, linear[1] ? MaybeAtom(neg(b, *cts[0])) : std::nullopt};
}

// mul

std::vector<Aval> Def<Prim::kMul>::shape(const Params&, const std::vector<Aval>& in) {
  return binary_shape(kName, in);
}
void Def<Prim::kMul>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  eval_flat(in, out[0], [](auto z, auto x, auto y) { z = x * y; });
}
std::vector<MaybeAtom> Def<Prim::kMul>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                            const std::vector<MaybeAtom>& t) {
  MaybeAtom lhs = t[0] ? MaybeAtom(mul(b, *t[0], x[1])) : std::nullopt;
  MaybeAtom rhs = t[1] ? MaybeAtom(mul(b, x[0], *t[1])) : std::nullopt;
  if (lhs && rhs) return {add(b, *lhs, *rhs)};
  return {lhs ? lhs : rhs};
}
std::vector<MaybeAtom> Def<Prim::kMul>::transpose(Builder& b, const Params&, const std::vector<MaybeAtom>& cts,
                                                  const std::vector<Atom>& x, const std::vector<bool>& linear) {
  if (linear[0] && linear[1])
    fail(ErrorKind::kValue, "mul: cannot transpose a product of two linear operands (", x[0].aval.str(), " and ",
         x[1].aval.str(), "); the program is not linear in them");
  if (!cts[0]) return {std::nullopt, std::nullopt};
  if (linear[0]) return {mul(b, *cts[0], x[1]), std::nullopt};
  if (linear[1]) return {std::nullopt, mul(b, x[0], *cts[0])};
  return {std::nullopt, std::nullopt};
}

// neg

std::vector<Aval> Def<Prim::kNeg>::shape(const Params&, const std::vector<Aval>& in) {
  return unary_shape(kName, in);
}
void Def<Prim::kNeg>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  eval_flat(in, out[0], [](auto z, auto x, auto) { z = -x; });
}
std::vector<MaybeAtom> Def<Prim::kNeg>::jvp(Builder& b, const Params&, const std::vector<Atom>&,
                                            const std::vector<MaybeAtom>& t) {
  return {t[0] ? MaybeAtom(neg(b, *t[0])) : std::nullopt};
}
std::vector<MaybeAtom> Def<Prim::kNeg>::transpose(Builder& b, const Params&, const std::vector<MaybeAtom>& cts,
                                                  const std::vector<Atom>&, const std::vector<bool>& linear) {
  return {linear[0] && cts[0] ? MaybeAtom(neg(b, *cts[0])) : std::nullopt};
}

}  // namespace shardlab::ir
