#include "ir/primitives/unary_math.h"

#include <cmath>
#include <type_traits>

#include "ir/transforms/batching.h"
#include "ir/tracing/ops.h"
#include "ir/primitives/tensor_eval.h"
#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

std::vector<Aval> float_unary_shape(const char* name, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, name, ": takes 1 operand, got ", in.size());
  if (!is_float(in[0].dtype))
    fail(ErrorKind::kShape, name, ": needs a floating-point operand, got ", in[0].str(),
         "; convert it with convert_element_type");
  return {in[0]};
}

std::vector<Aval> any_unary_shape(const char* name, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, name, ": takes 1 operand, got ", in.size());
  if (is_unsigned(in[0].dtype))
    fail(ErrorKind::kShape, name, ": needs a floating-point or signed integer operand, got ", in[0].str());
  return {in[0]};
}

template <class F>
void eval_any(const Tensor* in, Tensor* out, F f) {
  if (is_float(in->aval.dtype)) {
    eval_unary_as<float>(in, out, f);
  } else {
    eval_unary_as<int32_t>(in, out, f);
  }
}

// erf's inverse in float64: Giles' single-precision approximation ("Approximating
// the erfinv function", 2010) as the start, then Newton steps on erf (float64),
// so the float32 result is the correctly rounded one but for rare ties.
double erf_inv(double y) {
  if (std::isnan(y) || y < -1 || y > 1) return std::nan("");
  if (y == 1 || y == -1) return y * HUGE_VAL;
  double w = -std::log((1.0 - y) * (1.0 + y)), p;
  if (w < 5.0) {
    w -= 2.5;
    p = 2.81022636e-08;
    for (double c : {3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503, -0.00417768164,
                     0.246640727, 1.50140941})
      p = c + p * w;
  } else {
    w = std::sqrt(w) - 3.0;
    p = -0.000200214257;
    for (double c : {0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613, 0.00943887047,
                     1.00167406, 2.83297682})
      p = c + p * w;
  }
  double x = p * y;
  for (int i = 0; i < 4; ++i) {
    const double slope = 1.1283791670955126 * std::exp(-x * x);  // erf'(x) = 2/sqrt(pi) e^{-x^2}
    if (slope == 0) break;
    x -= (std::erf(x) - y) / slope;
  }
  return x;
}

}  // namespace

// Shape, evaluation and sample of a unary primitive (its transpose comes from NotLinear,
// its batching from BatchPerOperand): `SHAPE` is float_unary_shape or any_unary_shape,
// `EVAL` evaluates y from x (Eigen arrays).
#define SHARDLAB_UNARY(P, SHAPE, EVAL_AS, EXPR)                                                             \
  std::vector<Aval> Def<P>::shape(const Params&, const std::vector<Aval>& in) { return SHAPE(kName, in); }  \
  void Def<P>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) { \
    EVAL_AS(in[0], out[0], [](auto y, auto x) { y = (EXPR); });                                             \
  }                                                                                                         \
  Sample Def<P>::sample() { return {{samples::f32({2, 3})}, {}}; }

SHARDLAB_UNARY(Prim::kExp, float_unary_shape, eval_unary_as<float>, x.exp())
SHARDLAB_UNARY(Prim::kLog, float_unary_shape, eval_unary_as<float>, x.log())
SHARDLAB_UNARY(Prim::kTanh, float_unary_shape, eval_unary_as<float>, x.tanh())
SHARDLAB_UNARY(Prim::kLogistic, float_unary_shape, eval_unary_as<float>, 1.0f / (1.0f + (-x).exp()))
SHARDLAB_UNARY(Prim::kSqrt, float_unary_shape, eval_unary_as<float>, x.sqrt())
SHARDLAB_UNARY(Prim::kRsqrt, float_unary_shape, eval_unary_as<float>, x.rsqrt())
SHARDLAB_UNARY(Prim::kSquare, any_unary_shape, eval_any, x.square())
SHARDLAB_UNARY(Prim::kAbs, any_unary_shape, eval_any, x.abs())
SHARDLAB_UNARY(Prim::kSign, any_unary_shape, eval_any, x.sign())
SHARDLAB_UNARY(Prim::kFloor, float_unary_shape, eval_unary_as<float>, x.floor())
SHARDLAB_UNARY(Prim::kCeil, float_unary_shape, eval_unary_as<float>, x.ceil())
SHARDLAB_UNARY(Prim::kSin, float_unary_shape, eval_unary_as<float>, x.sin())
SHARDLAB_UNARY(Prim::kCos, float_unary_shape, eval_unary_as<float>, x.cos())
SHARDLAB_UNARY(Prim::kTan, float_unary_shape, eval_unary_as<float>, x.tan())
SHARDLAB_UNARY(Prim::kAsin, float_unary_shape, eval_unary_as<float>, x.asin())
SHARDLAB_UNARY(Prim::kAcos, float_unary_shape, eval_unary_as<float>, x.acos())
SHARDLAB_UNARY(Prim::kAtan, float_unary_shape, eval_unary_as<float>, x.atan())
SHARDLAB_UNARY(Prim::kSinh, float_unary_shape, eval_unary_as<float>, x.sinh())
SHARDLAB_UNARY(Prim::kCosh, float_unary_shape, eval_unary_as<float>, x.cosh())
SHARDLAB_UNARY(Prim::kLog1p, float_unary_shape, eval_unary_as<float>, x.log1p())
SHARDLAB_UNARY(Prim::kExpm1, float_unary_shape, eval_unary_as<float>, x.expm1())
SHARDLAB_UNARY(Prim::kExp2, float_unary_shape, eval_unary_as<float>, x.unaryExpr([](float v) { return std::exp2(v); }))
SHARDLAB_UNARY(Prim::kErf, float_unary_shape, eval_unary_as<float>,
               x.unaryExpr([](float v) { return static_cast<float>(std::erf(static_cast<double>(v))); }))
SHARDLAB_UNARY(Prim::kErfInv, float_unary_shape, eval_unary_as<float>,
               x.unaryExpr([](float v) { return static_cast<float>(erf_inv(v)); }))

#undef SHARDLAB_UNARY

std::vector<Aval> Def<Prim::kRound>::shape(const Params& p, const std::vector<Aval>& in) {
  const int64_t method = param<int64_t>(p, "rounding_method", kName);
  if (method != 0 && method != 1)
    fail(ErrorKind::kValue, kName, ": rounding_method is ", method,
         "; it is 0 (halves away from zero) or 1 (halves to even)");
  return float_unary_shape(kName, in);
}
void Def<Prim::kRound>::eval(const Params& p, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  // round() is std::round (halves away from zero); rint() rounds halves to even in the default rounding mode.
  if (param<int64_t>(p, "rounding_method", kName) == 0) {
    eval_unary_as<float>(in[0], out[0], [](auto y, auto x) { y = x.round(); });
  } else {
    eval_unary_as<float>(in[0], out[0], [](auto y, auto x) { y = x.rint(); });
  }
}
Sample Def<Prim::kRound>::sample() { return {{samples::f32({2, 3})}, {{"rounding_method", int64_t{1}}}}; }

// The JVPs, each d(f(x)) = t * f'(x), written with the output y where that is cheaper.

std::vector<MaybeAtom> Def<Prim::kExp>::jvp(Builder& b, const Params&, const std::vector<Atom>&,
                                            const std::vector<Atom>& y, const std::vector<MaybeAtom>& t) {
  return {t[0] ? MaybeAtom(mul(b, *t[0], y[0])) : std::nullopt};
}
std::vector<MaybeAtom> Def<Prim::kLog>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                            const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return {t[0] ? MaybeAtom(div(b, *t[0], x[0])) : std::nullopt};
}
std::vector<MaybeAtom> Def<Prim::kTanh>::jvp(Builder& b, const Params&, const std::vector<Atom>&,
                                             const std::vector<Atom>& y, const std::vector<MaybeAtom>& t) {
  if (!t[0]) return {std::nullopt};
  // JAX's order of float32 operations, (t + t y)(1 - y), so the rounding is JAX's too.
  return {mul(b, add(b, *t[0], mul(b, *t[0], y[0])), sub(b, scalar_like(y[0], 1.0), y[0]))};
}
std::vector<MaybeAtom> Def<Prim::kLogistic>::jvp(Builder& b, const Params&, const std::vector<Atom>&,
                                                 const std::vector<Atom>& y, const std::vector<MaybeAtom>& t) {
  if (!t[0]) return {std::nullopt};
  return {mul(b, *t[0], mul(b, y[0], sub(b, scalar_like(y[0], 1.0), y[0])))};
}
std::vector<MaybeAtom> Def<Prim::kSqrt>::jvp(Builder& b, const Params&, const std::vector<Atom>&,
                                             const std::vector<Atom>& y, const std::vector<MaybeAtom>& t) {
  if (!t[0]) return {std::nullopt};
  return {mul(b, *t[0], div(b, scalar_like(y[0], 0.5), y[0]))};  // JAX's t (0.5 / y), rounded as JAX rounds it
}
std::vector<MaybeAtom> Def<Prim::kRsqrt>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                              const std::vector<Atom>& y, const std::vector<MaybeAtom>& t) {
  if (!t[0]) return {std::nullopt};
  return {mul(b, *t[0], mul(b, scalar_like(y[0], -0.5), div(b, y[0], x[0])))};  // JAX's t (-0.5 (y / x))
}
// integer_pow

std::vector<Aval> Def<Prim::kIntegerPow>::shape(const Params& p, const std::vector<Aval>& in) {
  const int64_t y = param<int64_t>(p, "y", kName);
  auto out = any_unary_shape(kName, in);
  if (in[0].dtype == DType::kBool) fail(ErrorKind::kShape, kName, ": needs a numeric operand, got ", in[0].str());
  if (y < 0 && !is_float(in[0].dtype))
    fail(ErrorKind::kShape, kName, ": a negative power y=", y, " needs a floating-point operand, got ", in[0].str());
  return out;
}
void Def<Prim::kIntegerPow>::eval(const Params& p, const std::vector<const Tensor*>& in,
                                  const std::vector<Tensor*>& out) {
  const int64_t y = param<int64_t>(p, "y", kName);
  // x^|y| by square-and-multiply (as XLA lowers it); int32 products wrap.
  const auto power = [y](auto x) {
    using T = decltype(x);
    using U = std::conditional_t<std::is_same_v<T, float>, float, uint32_t>;
    U acc = 1, base = static_cast<U>(x);
    for (uint64_t e = static_cast<uint64_t>(y < 0 ? -y : y); e; e >>= 1) {
      if (e & 1) acc *= base;
      base *= base;
    }
    if constexpr (std::is_same_v<T, float>) return y < 0 ? 1.0f / acc : acc;
    else return static_cast<T>(acc);
  };
  if (is_float(in[0]->aval.dtype)) {
    eval_unary_as<float>(in[0], out[0], [&](auto z, auto x) { z = x.unaryExpr(power); });
  } else {
    eval_unary_as<int32_t>(in[0], out[0], [&](auto z, auto x) { z = x.unaryExpr(power); });
  }
}
std::vector<MaybeAtom> Def<Prim::kIntegerPow>::jvp(Builder& b, const Params& p, const std::vector<Atom>& x,
                                                   const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  const int64_t y = param<int64_t>(p, "y", kName);
  if (!t[0] || !is_float(x[0].aval.dtype)) return {std::nullopt};
  if (y == 0) return {zeros_like(b, x[0].aval)};
  if (y == 1) return {*t[0]};
  const Atom lower = y == 2 ? x[0] : b.emit1(Prim::kIntegerPow, {{"y", y - 1}}, {x[0]});
  return {mul(b, *t[0], mul(b, scalar_like(x[0], static_cast<double>(y)), lower))};
}
Sample Def<Prim::kIntegerPow>::sample() { return {{samples::f32({2, 3})}, {{"y", int64_t{3}}}}; }

std::vector<MaybeAtom> Def<Prim::kSquare>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                               const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  if (!t[0]) return {std::nullopt};
  return {mul(b, *t[0], mul(b, Atom::constant(2.0, x[0].aval.dtype), x[0]))};
}
std::vector<MaybeAtom> Def<Prim::kAbs>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                            const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  if (!t[0]) return {std::nullopt};
  return {mul(b, *t[0], unary(b, Prim::kSign, x[0]))};
}
std::vector<MaybeAtom> Def<Prim::kSign>::jvp(Builder&, const Params&, const std::vector<Atom>&,
                                             const std::vector<Atom>&, const std::vector<MaybeAtom>&) {
  return {std::nullopt};
}

std::vector<MaybeAtom> Def<Prim::kSin>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                            const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return {t[0] ? MaybeAtom(mul(b, *t[0], unary(b, Prim::kCos, x[0]))) : std::nullopt};
}
std::vector<MaybeAtom> Def<Prim::kCos>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                            const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return {t[0] ? MaybeAtom(neg(b, mul(b, *t[0], unary(b, Prim::kSin, x[0])))) : std::nullopt};
}
std::vector<MaybeAtom> Def<Prim::kTan>::jvp(Builder& b, const Params&, const std::vector<Atom>&,
                                            const std::vector<Atom>& y, const std::vector<MaybeAtom>& t) {
  return {t[0] ? MaybeAtom(mul(b, *t[0], add(b, scalar_like(y[0], 1.0), mul(b, y[0], y[0])))) : std::nullopt};
}
namespace {
// rsqrt(1 - x^2): the derivative of asin, and minus that of acos.
Atom inv_sqrt_one_minus_square(Builder& b, const Atom& x) {
  return unary(b, Prim::kRsqrt, sub(b, scalar_like(x, 1.0), mul(b, x, x)));
}
}  // namespace
std::vector<MaybeAtom> Def<Prim::kAsin>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                             const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return {t[0] ? MaybeAtom(mul(b, *t[0], inv_sqrt_one_minus_square(b, x[0]))) : std::nullopt};
}
std::vector<MaybeAtom> Def<Prim::kAcos>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                             const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return {t[0] ? MaybeAtom(neg(b, mul(b, *t[0], inv_sqrt_one_minus_square(b, x[0])))) : std::nullopt};
}
std::vector<MaybeAtom> Def<Prim::kAtan>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                             const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return {t[0] ? MaybeAtom(div(b, *t[0], add(b, scalar_like(x[0], 1.0), mul(b, x[0], x[0])))) : std::nullopt};
}
std::vector<MaybeAtom> Def<Prim::kSinh>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                             const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return {t[0] ? MaybeAtom(mul(b, *t[0], unary(b, Prim::kCosh, x[0]))) : std::nullopt};
}
std::vector<MaybeAtom> Def<Prim::kCosh>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                             const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return {t[0] ? MaybeAtom(mul(b, *t[0], unary(b, Prim::kSinh, x[0]))) : std::nullopt};
}
std::vector<MaybeAtom> Def<Prim::kLog1p>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                              const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return {t[0] ? MaybeAtom(div(b, *t[0], add(b, x[0], scalar_like(x[0], 1.0)))) : std::nullopt};
}
std::vector<MaybeAtom> Def<Prim::kExpm1>::jvp(Builder& b, const Params&, const std::vector<Atom>&,
                                              const std::vector<Atom>& y, const std::vector<MaybeAtom>& t) {
  return {t[0] ? MaybeAtom(mul(b, *t[0], add(b, y[0], scalar_like(y[0], 1.0)))) : std::nullopt};
}
std::vector<MaybeAtom> Def<Prim::kExp2>::jvp(Builder& b, const Params&, const std::vector<Atom>&,
                                             const std::vector<Atom>& y, const std::vector<MaybeAtom>& t) {
  return {t[0] ? MaybeAtom(mul(b, *t[0], mul(b, y[0], scalar_like(y[0], 0.6931471805599453)))) : std::nullopt};
}
std::vector<MaybeAtom> Def<Prim::kErf>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                            const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  if (!t[0]) return {std::nullopt};
  const Atom gauss = unary(b, Prim::kExp, neg(b, mul(b, x[0], x[0])));
  return {mul(b, *t[0], mul(b, gauss, scalar_like(x[0], 1.1283791670955126)))};
}
std::vector<MaybeAtom> Def<Prim::kErfInv>::jvp(Builder& b, const Params&, const std::vector<Atom>&,
                                               const std::vector<Atom>& y, const std::vector<MaybeAtom>& t) {
  if (!t[0]) return {std::nullopt};
  return {mul(b, *t[0], mul(b, unary(b, Prim::kExp, mul(b, y[0], y[0])), scalar_like(y[0], 0.886226925452758)))};
}

}  // namespace shardlab::ir
