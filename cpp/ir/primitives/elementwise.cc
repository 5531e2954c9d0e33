#include "ir/primitives/elementwise.h"

#include <climits>
#include <cmath>
#include <cstring>

#include "ir/transforms/batching.h"
#include "ir/tracing/ops.h"
#include "ir/primitives/tensor_eval.h"
#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

template <class F>
void eval_flat(const std::vector<const Tensor*>& in, Tensor* out, F f) {
  if (is_float(out->aval.dtype)) {
    eval_binary_as<float>(in, out, f);
  } else if (is_unsigned(out->aval.dtype)) {
    eval_binary_as<uint32_t>(in, out, f);
  } else {
    eval_binary_as<int32_t>(in, out, f);
  }
}

// max and min propagate NaN, as XLA's do (Eigen's default leaves it unspecified).
template <template <class, class, int> class Op>
void eval_chooser(const std::vector<const Tensor*>& in, Tensor* out) {
  eval_flat(in, out, [](auto z, auto x, auto y) {
    using T = typename decltype(z)::Scalar;
    z = x.binaryExpr(y, Op<T, T, Eigen::PropagateNaN>());
  });
}

// The JVP of max and min (z), as JAX's: each operand's tangent counts where
// that operand is the result, half on a tie: dz = dx * [x==z] / (1 + [y==z]) +
// dy * [y==z] / (1 + [x==z]). Integer results have no tangent.
std::vector<MaybeAtom> chooser_jvp(Builder& b, const std::vector<Atom>& x, const Atom& z,
                                   const std::vector<MaybeAtom>& t) {
  if (!is_float(z.aval.dtype) || (!t[0] && !t[1])) return {std::nullopt};
  const Atom is_x = convert_element_type(b, compare(b, Prim::kEq, x[0], z), z.aval.dtype);
  const Atom is_y = convert_element_type(b, compare(b, Prim::kEq, x[1], z), z.aval.dtype);
  const Atom one = scalar_like(z, 1.0);
  MaybeAtom dx = t[0] ? MaybeAtom(mul(b, *t[0], div(b, is_x, add(b, one, is_y)))) : std::nullopt;
  MaybeAtom dy = t[1] ? MaybeAtom(mul(b, *t[1], div(b, is_y, add(b, one, is_x)))) : std::nullopt;
  if (dx && dy) return {add(b, *dx, *dy)};
  return {dx ? dx : dy};
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

Sample Def<Prim::kAdd>::sample() { return {{samples::f32({2, 3}), samples::f32({2, 3})}, {}}; }

// add_any: add's rules, with add_any's own name in what they emit.

std::vector<Aval> Def<Prim::kAddAny>::shape(const Params&, const std::vector<Aval>& in) { return binary_shape(kName, in); }
void Def<Prim::kAddAny>::eval(const Params& p, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  Def<Prim::kAdd>::eval(p, in, out);
}
std::vector<MaybeAtom> Def<Prim::kAddAny>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                               const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  if (t[0] && t[1]) return {add_any(b, *t[0], *t[1])};
  if (!t[0] && !t[1]) return {std::nullopt};
  return {fit(b, t[0] ? *t[0] : *t[1], result_of(x))};
}
std::vector<MaybeAtom> Def<Prim::kAddAny>::transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                                     const std::vector<Atom>& x, const std::vector<bool>& linear) {
  return Def<Prim::kAdd>::transpose(b, p, cts, x, linear);
}
Sample Def<Prim::kAddAny>::sample() { return Def<Prim::kAdd>::sample(); }

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

Sample Def<Prim::kSub>::sample() { return {{samples::f32({2, 3}), samples::f32({2, 3})}, {}}; }

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

Sample Def<Prim::kMul>::sample() { return {{samples::f32({2, 3}), samples::f32({2, 3})}, {}}; }

// div

std::vector<Aval> Def<Prim::kDiv>::shape(const Params&, const std::vector<Aval>& in) {
  auto out = binary_shape(kName, in);
  if (out[0].dtype == DType::kBool) fail(ErrorKind::kShape, kName, ": needs numeric operands, got ", in[0].str());
  return out;
}
void Def<Prim::kDiv>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  if (is_float(out[0]->aval.dtype)) {
    eval_binary_as<float>(in, out[0], [](auto z, auto x, auto y) { z = x / y; });
    return;
  }
  if (is_unsigned(out[0]->aval.dtype)) {  // as XLA's: x / 0 is all ones
    eval_binary_as<uint32_t>(in, out[0], [](auto z, auto x, auto y) {
      z = x.binaryExpr(y, [](uint32_t a, uint32_t c) { return c == 0 ? ~0u : a / c; });
    });
    return;
  }
  // int32 division truncates, as XLA's: x / 0 is -1, and INT_MIN / -1 (which overflows in C++) is INT_MIN.
  eval_binary_as<int32_t>(in, out[0], [](auto z, auto x, auto y) {
    z = x.binaryExpr(y, [](int32_t a, int32_t c) { return c == 0 ? -1 : (c == -1 ? static_cast<int32_t>(0u - static_cast<uint32_t>(a)) : a / c); });
  });
}
std::vector<MaybeAtom> Def<Prim::kDiv>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                            const std::vector<Atom>& z, const std::vector<MaybeAtom>& t) {
  if (!is_float(z[0].aval.dtype)) return {std::nullopt};  // integer results have no tangent
  // JAX's two rules, in its order of float32 operations: dx / y and (-dy x) y^-2, summed by add_any.
  MaybeAtom lhs = t[0] ? MaybeAtom(fit(b, div(b, *t[0], x[1]), z[0].aval)) : std::nullopt;
  MaybeAtom rhs = std::nullopt;
  if (t[1]) {
    const Atom inverse_square = b.emit1(Prim::kIntegerPow, {{"y", int64_t{-2}}}, {x[1]});
    rhs = fit(b, mul(b, mul(b, neg(b, *t[1]), x[0]), inverse_square), z[0].aval);
  }
  if (lhs && rhs) return {add_any(b, *lhs, *rhs)};
  return {lhs ? lhs : rhs};
}
std::vector<MaybeAtom> Def<Prim::kDiv>::transpose(Builder& b, const Params&, const std::vector<MaybeAtom>& cts,
                                                  const std::vector<Atom>& x, const std::vector<bool>& linear) {
  if (linear[1])
    fail(ErrorKind::kValue, "div: the program is not linear in the divisor ", x[1].aval.str(), "; cannot transpose");
  if (!linear[0] || !cts[0]) return {std::nullopt, std::nullopt};
  return {unbroadcast(b, div(b, *cts[0], x[1]), x[0].aval), std::nullopt};
}

Sample Def<Prim::kDiv>::sample() { return {{samples::f32({2, 3}), samples::f32({2, 3})}, {}}; }

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

Sample Def<Prim::kNeg>::sample() { return {{samples::f32({2, 3})}, {}}; }

// max

std::vector<Aval> Def<Prim::kMax>::shape(const Params&, const std::vector<Aval>& in) { return binary_shape(kName, in); }
void Def<Prim::kMax>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  eval_chooser<Eigen::internal::scalar_max_op>(in, out[0]);
}
std::vector<MaybeAtom> Def<Prim::kMax>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                            const std::vector<Atom>& z, const std::vector<MaybeAtom>& t) {
  return chooser_jvp(b, x, z[0], t);
}

Sample Def<Prim::kMax>::sample() { return {{samples::f32({2, 3}), samples::f32({2, 3})}, {}}; }

// min

std::vector<Aval> Def<Prim::kMin>::shape(const Params&, const std::vector<Aval>& in) { return binary_shape(kName, in); }
void Def<Prim::kMin>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  eval_chooser<Eigen::internal::scalar_min_op>(in, out[0]);
}
std::vector<MaybeAtom> Def<Prim::kMin>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                            const std::vector<Atom>& z, const std::vector<MaybeAtom>& t) {
  return chooser_jvp(b, x, z[0], t);
}

Sample Def<Prim::kMin>::sample() { return {{samples::f32({2, 3}), samples::f32({2, 3})}, {}}; }

// pow

std::vector<Aval> Def<Prim::kPow>::shape(const Params&, const std::vector<Aval>& in) {
  auto out = binary_shape(kName, in);
  if (!is_float(out[0].dtype))
    fail(ErrorKind::kShape, kName, ": needs floating-point operands, got ", in[0].str(), " and ", in[1].str(),
         "; convert them with convert_element_type");
  return out;
}
void Def<Prim::kPow>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  eval_binary_as<float>(in, out[0], [](auto z, auto x, auto y) { z = x.pow(y); });
}
std::vector<MaybeAtom> Def<Prim::kPow>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                            const std::vector<Atom>& z, const std::vector<MaybeAtom>& t) {
  // As JAX: the dx term is 0 where y == 0 (not 0 * inf at x == 0), and the dy
  // term is 0 where x == 0 (log(x) taken as log(1) there).
  MaybeAtom dx, dy;
  if (t[0]) {
    const Atom jac = mul(b, x[1], pow(b, x[0], sub(b, x[1], scalar_like(x[1], 1.0))));
    const Atom y_is_0 = compare(b, Prim::kEq, x[1], scalar_like(x[1], 0.0));
    dx = mul(b, *t[0], select_n(b, y_is_0, {jac, zeros_like(b, jac.aval)}));
  }
  if (t[1]) {
    const Atom x_is_0 = compare(b, Prim::kEq, x[0], scalar_like(x[0], 0.0));
    const Atom safe_x = select_n(b, x_is_0, {x[0], full_like(b, x[0].aval, 1.0)});
    dy = mul(b, *t[1], mul(b, unary(b, Prim::kLog, safe_x), z[0]));
  }
  if (dx && dy) return {add(b, *dx, *dy)};
  return {dx ? dx : dy};
}

Sample Def<Prim::kPow>::sample() { return {{samples::f32({2, 3}), samples::f32({2, 3})}, {}}; }

// rem

std::vector<Aval> Def<Prim::kRem>::shape(const Params&, const std::vector<Aval>& in) {
  auto out = binary_shape(kName, in);
  if (out[0].dtype == DType::kBool) fail(ErrorKind::kShape, kName, ": needs numeric operands, got ", in[0].str());
  return out;
}
void Def<Prim::kRem>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  if (is_float(out[0]->aval.dtype)) {
    eval_binary_as<float>(in, out[0], [](auto z, auto x, auto y) {
      z = x.binaryExpr(y, [](float a, float c) { return std::fmod(a, c); });
    });
    return;
  }
  if (is_unsigned(out[0]->aval.dtype)) {  // as XLA: x % 0 is x
    eval_binary_as<uint32_t>(in, out[0], [](auto z, auto x, auto y) {
      z = x.binaryExpr(y, [](uint32_t a, uint32_t c) { return c == 0 ? a : a % c; });
    });
    return;
  }
  // As XLA: x % 0 is x, and INT_MIN % -1 (which overflows in C++) is 0.
  eval_binary_as<int32_t>(in, out[0], [](auto z, auto x, auto y) {
    z = x.binaryExpr(y, [](int32_t a, int32_t c) { return c == 0 ? a : (c == -1 ? 0 : a % c); });
  });
}
std::vector<MaybeAtom> Def<Prim::kRem>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                            const std::vector<Atom>& z, const std::vector<MaybeAtom>& t) {
  if (!is_float(z[0].aval.dtype)) return {std::nullopt};
  MaybeAtom lhs = t[0] ? MaybeAtom(fit(b, *t[0], z[0].aval)) : std::nullopt;
  MaybeAtom rhs;
  if (t[1]) {
    // trunc(x / y) = sign(q) * floor(|q|)
    const Atom q = div(b, x[0], x[1]);
    rhs = mul(b, *t[1], mul(b, unary(b, Prim::kSign, q), unary(b, Prim::kFloor, unary(b, Prim::kAbs, q))));
  }
  if (lhs && rhs) return {sub(b, *lhs, *rhs)};
  if (rhs) return {neg(b, *rhs)};
  return {lhs};
}

Sample Def<Prim::kRem>::sample() { return {{samples::f32({2, 3}), samples::f32({2, 3})}, {}}; }

// atan2

std::vector<Aval> Def<Prim::kAtan2>::shape(const Params&, const std::vector<Aval>& in) {
  auto out = binary_shape(kName, in);
  if (!is_float(out[0].dtype))
    fail(ErrorKind::kShape, kName, ": needs floating-point operands, got ", in[0].str(), " and ", in[1].str(),
         "; convert them with convert_element_type");
  return out;
}
void Def<Prim::kAtan2>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  eval_binary_as<float>(in, out[0], [](auto z, auto x, auto y) {
    z = x.binaryExpr(y, [](float a, float c) { return std::atan2(a, c); });
  });
}
std::vector<MaybeAtom> Def<Prim::kAtan2>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                             const std::vector<Atom>& z, const std::vector<MaybeAtom>& t) {
  // d atan2(x, y) = (y dx - x dy) / (x^2 + y^2)
  const Atom r2 = add(b, mul(b, x[0], x[0]), mul(b, x[1], x[1]));
  MaybeAtom d;
  if (t[0]) d = fit(b, mul(b, *t[0], div(b, x[1], r2)), z[0].aval);
  if (t[1]) {
    const Atom dy = fit(b, mul(b, *t[1], div(b, x[0], r2)), z[0].aval);
    d = d ? sub(b, *d, dy) : neg(b, dy);
  }
  return {d};
}
Sample Def<Prim::kAtan2>::sample() { return {{samples::f32({2, 3}), samples::f32({2, 3})}, {}}; }

// nextafter

std::vector<Aval> Def<Prim::kNextafter>::shape(const Params&, const std::vector<Aval>& in) {
  auto out = binary_shape(kName, in);
  if (!is_float(out[0].dtype))
    fail(ErrorKind::kShape, kName, ": needs floating-point operands, got ", in[0].str(), " and ", in[1].str());
  return out;
}
// In a narrower float the next value is a step of its own bits (sign and
// magnitude, as float32's): from 0 the smallest subnormal toward y.
void Def<Prim::kNextafter>::eval(const Params&, const std::vector<const Tensor*>& in,
                                 const std::vector<Tensor*>& out) {
  const DType dtype = out[0]->aval.dtype;
  if (dtype == DType::kFloat32) {
    eval_binary_as<float>(in, out[0], [](auto z, auto x, auto y) {
      z = x.binaryExpr(y, [](float a, float c) { return std::nextafter(a, c); });
    });
    return;
  }
  const uint32_t sign = 1u << (8 * itemsize(dtype) - 1);
  eval_binary_as<float>(in, out[0], [dtype, sign](auto z, auto x, auto y) {
    z = x.binaryExpr(y, [dtype, sign](float a, float c) {
      if (std::isnan(a) || std::isnan(c)) return a + c;
      if (a == c) return c;
      uint32_t w;
      std::memcpy(&w, &a, 4);
      const uint32_t bits = to_bits(w, dtype);
      const uint32_t next = a == 0 ? (c < 0 ? sign | 1u : 1u) : ((a < c) == (a > 0) ? bits + 1 : bits - 1);
      const uint32_t lane = from_bits(next, dtype);
      float f;
      std::memcpy(&f, &lane, 4);
      return f;
    });
  });
}
Sample Def<Prim::kNextafter>::sample() { return {{samples::f32({2, 3}), samples::f32({2, 3})}, {}}; }

}  // namespace shardlab::ir
