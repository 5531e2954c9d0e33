#include "ir/primitives/elementwise.h"

#include "ir/ops.h"
#include "ir/primitives/eigen_maps.h"
#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

template <class F>
void eval_flat(const std::vector<const Tensor*>& in, Tensor* out, F f) {
  if (out->aval.dtype == DType::kFloat32) {
    eval_binary_as<float>(in, out, f);
  } else {
    eval_binary_as<int32_t>(in, out, f);
  }
}

// A tangent of a scalar operand, repeated to the result's shape.
Atom fit(Builder& b, const Atom& t, const Aval& out) {
  return t.aval.shape == out.shape ? t : broadcast_in_dim(b, t, out.shape, {});
}

// A cotangent of the result, summed down to a scalar operand's shape.
Atom unbroadcast(Builder& b, const Atom& ct, const Aval& operand) {
  if (ct.aval.shape == operand.shape) return ct;
  std::vector<int64_t> all(ct.aval.shape.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int64_t>(i);
  return reduce_sum(b, ct, all);
}

// The result type of a binary primitive on x and y.
Aval result_of(const std::vector<Atom>& x) { return binary_shape("", {x[0].aval, x[1].aval})[0]; }

}  // namespace

std::vector<Aval> binary_shape(const char* name, const std::vector<Aval>& in) {
  if (in.size() != 2) fail(ErrorKind::kValue, name, ": takes 2 operands, got ", in.size());
  const Aval& x = in[0];
  const Aval& y = in[1];
  if (x.dtype != y.dtype)
    fail(ErrorKind::kShape, name, ": operand dtypes differ (", x.str(), " and ", y.str(),
         "); convert one with convert_element_type");
  if (x.shape != y.shape && !x.shape.empty() && !y.shape.empty())
    fail(ErrorKind::kShape, name, ": operand shapes must be equal (or one a scalar), got ", x.str(), " and ", y.str(),
         "; broadcast one first (broadcast_in_dim; the np.* functions broadcast for you)");
  return {Aval{x.dtype, x.shape.empty() ? y.shape : x.shape, vma_union(x.vma, y.vma)}};
}

std::vector<Aval> unary_shape(const char* name, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, name, ": takes 1 operand, got ", in.size());
  return {in[0]};
}

// add

std::vector<Aval> Def<Prim::kAdd>::shape(const Params&, const std::vector<Aval>& in) { return binary_shape(kName, in); }
void Def<Prim::kAdd>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  eval_flat(in, out[0], [](auto z, auto x, auto y) { z = x + y; });
}
std::vector<MaybeAtom> Def<Prim::kAdd>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                            const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  if (t[0] && t[1]) return {add(b, *t[0], *t[1])};
  if (!t[0] && !t[1]) return {std::nullopt};
  return {fit(b, t[0] ? *t[0] : *t[1], result_of(x))};
}
std::vector<MaybeAtom> Def<Prim::kAdd>::transpose(Builder& b, const Params&, const std::vector<MaybeAtom>& cts,
                                                  const std::vector<Atom>& x, const std::vector<bool>& linear) {
  if (!cts[0]) return {std::nullopt, std::nullopt};
  return {linear[0] ? MaybeAtom(unbroadcast(b, *cts[0], x[0].aval)) : std::nullopt,
          linear[1] ? MaybeAtom(unbroadcast(b, *cts[0], x[1].aval)) : std::nullopt};
}

// sub

std::vector<Aval> Def<Prim::kSub>::shape(const Params&, const std::vector<Aval>& in) { return binary_shape(kName, in); }
void Def<Prim::kSub>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  eval_flat(in, out[0], [](auto z, auto x, auto y) { z = x - y; });
}
std::vector<MaybeAtom> Def<Prim::kSub>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                            const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  if (t[0] && t[1]) return {sub(b, *t[0], *t[1])};
  if (t[0]) return {fit(b, *t[0], result_of(x))};
  if (t[1]) return {fit(b, neg(b, *t[1]), result_of(x))};
  return {std::nullopt};
}
std::vector<MaybeAtom> Def<Prim::kSub>::transpose(Builder& b, const Params&, const std::vector<MaybeAtom>& cts,
                                                  const std::vector<Atom>& x, const std::vector<bool>& linear) {
  if (!cts[0]) return {std::nullopt, std::nullopt};
  return {linear[0] ? MaybeAtom(unbroadcast(b, *cts[0], x[0].aval)) : std::nullopt,
          linear[1] ? MaybeAtom(unbroadcast(b, neg(b, *cts[0]), x[1].aval)) : std::nullopt};
}

// mul

std::vector<Aval> Def<Prim::kMul>::shape(const Params&, const std::vector<Aval>& in) { return binary_shape(kName, in); }
void Def<Prim::kMul>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  eval_flat(in, out[0], [](auto z, auto x, auto y) { z = x * y; });
}
std::vector<MaybeAtom> Def<Prim::kMul>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                            const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
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
  if (linear[0]) return {unbroadcast(b, mul(b, *cts[0], x[1]), x[0].aval), std::nullopt};
  if (linear[1]) return {std::nullopt, unbroadcast(b, mul(b, x[0], *cts[0]), x[1].aval)};
  return {std::nullopt, std::nullopt};
}

// div

std::vector<Aval> Def<Prim::kDiv>::shape(const Params&, const std::vector<Aval>& in) {
  auto out = binary_shape(kName, in);
  if (out[0].dtype != DType::kFloat32)
    fail(ErrorKind::kShape, kName, ": needs float32 operands, got ", in[0].str(), " and ", in[1].str(),
         " (integer division is not supported)");
  return out;
}
void Def<Prim::kDiv>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  eval_binary_as<float>(in, out[0], [](auto z, auto x, auto y) { z = x / y; });
}
std::vector<MaybeAtom> Def<Prim::kDiv>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                            const std::vector<Atom>& z, const std::vector<MaybeAtom>& t) {
  MaybeAtom lhs = t[0] ? MaybeAtom(fit(b, div(b, *t[0], x[1]), z[0].aval)) : std::nullopt;
  MaybeAtom rhs = t[1] ? MaybeAtom(div(b, mul(b, z[0], *t[1]), x[1])) : std::nullopt;
  if (lhs && rhs) return {sub(b, *lhs, *rhs)};
  if (rhs) return {neg(b, *rhs)};
  return {lhs};
}
std::vector<MaybeAtom> Def<Prim::kDiv>::transpose(Builder& b, const Params&, const std::vector<MaybeAtom>& cts,
                                                  const std::vector<Atom>& x, const std::vector<bool>& linear) {
  if (linear[1])
    fail(ErrorKind::kValue, "div: the program is not linear in the divisor ", x[1].aval.str(), "; cannot transpose");
  if (!linear[0] || !cts[0]) return {std::nullopt, std::nullopt};
  return {unbroadcast(b, div(b, *cts[0], x[1]), x[0].aval), std::nullopt};
}

// neg

std::vector<Aval> Def<Prim::kNeg>::shape(const Params&, const std::vector<Aval>& in) { return unary_shape(kName, in); }
void Def<Prim::kNeg>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  eval_flat(in, out[0], [](auto z, auto x, auto) { z = -x; });
}
std::vector<MaybeAtom> Def<Prim::kNeg>::jvp(Builder& b, const Params&, const std::vector<Atom>&,
                                            const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return {t[0] ? MaybeAtom(neg(b, *t[0])) : std::nullopt};
}
std::vector<MaybeAtom> Def<Prim::kNeg>::transpose(Builder& b, const Params&, const std::vector<MaybeAtom>& cts,
                                                  const std::vector<Atom>&, const std::vector<bool>& linear) {
  return {linear[0] && cts[0] ? MaybeAtom(neg(b, *cts[0])) : std::nullopt};
}

}  // namespace shardlab::ir
