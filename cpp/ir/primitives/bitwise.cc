#include "ir/primitives/bitwise.h"

#include <cmath>

#include "ir/primitives/elementwise.h"
#include "ir/primitives/tensor_eval.h"
#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

// The binary elementwise shape rule, on integer or bool operands (`bools`: bool allowed).
std::vector<Aval> bitwise_shape(const char* name, const std::vector<Aval>& in, bool bools) {
  auto out = binary_shape(name, in);
  if (is_float(out[0].dtype) || (!bools && out[0].dtype == DType::kBool))
    fail(ErrorKind::kShape, name, ": needs ", bools ? "integer or bool" : "integer", " operands, got ",
         in[0].str(), " and ", in[1].str());
  return out;
}

// f on the operands' 4-byte words (bools are 0/1 words, which and/or/xor keep 0/1).
template <class F>
void eval_words(const std::vector<const Tensor*>& in, Tensor* out, F f) {
  eval_binary_as<uint32_t>(in, out, [&](auto z, auto x, auto y) { z = x.binaryExpr(y, f); });
}

// A shift: `f(x, amount)` for amounts 0..31; `out_of_range(x)` otherwise (as XLA's).
template <class F, class G>
void eval_shift(const std::vector<const Tensor*>& in, Tensor* out, F f, G out_of_range) {
  eval_words(in, out, [=](uint32_t x, uint32_t s) { return s < 32 ? f(x, s) : out_of_range(x); });
}

// One Threefry-2x32 block (Random123, 20 rounds): the rotations of its two
// round groups, the key schedule k1, k2, k1 ^ k2 ^ 0x1BD11BDA injected every
// four rounds with the injection's number added to the second word.
void threefry2x32(uint32_t k1, uint32_t k2, uint32_t& x1, uint32_t& x2) {
  static constexpr int kRot[2][4] = {{13, 15, 26, 6}, {17, 29, 16, 24}};
  const uint32_t ks[3] = {k1, k2, k1 ^ k2 ^ 0x1BD11BDAu};
  x1 += ks[0];
  x2 += ks[1];
  for (int group = 0; group < 5; ++group) {
    for (int r : kRot[group % 2]) {
      x1 += x2;
      x2 = (x2 << r) | (x2 >> (32 - r));
      x2 ^= x1;
    }
    x1 += ks[(group + 1) % 3];
    x2 += ks[(group + 2) % 3] + static_cast<uint32_t>(group + 1);
  }
}

}  // namespace

#define SHARDLAB_BITWISE(P, BOOLS, EXPR)                                                                           \
  std::vector<Aval> Def<P>::shape(const Params&, const std::vector<Aval>& in) { return bitwise_shape(kName, in, BOOLS); } \
  void Def<P>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {          \
    eval_words(in, out[0], [](uint32_t x, uint32_t y) { return (EXPR); });                                           \
  }                                                                                                                  \
  Sample Def<P>::sample() { return {{samples::i32({2, 3}), samples::i32({2, 3})}, {}}; }

SHARDLAB_BITWISE(Prim::kAnd, true, x & y)
SHARDLAB_BITWISE(Prim::kOr, true, x | y)
SHARDLAB_BITWISE(Prim::kXor, true, x ^ y)
#undef SHARDLAB_BITWISE

// not

std::vector<Aval> Def<Prim::kNot>::shape(const Params&, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, kName, ": takes 1 operand, got ", in.size());
  if (is_float(in[0].dtype))
    fail(ErrorKind::kShape, kName, ": needs an integer or bool operand, got ", in[0].str());
  return {in[0]};
}
void Def<Prim::kNot>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  const uint32_t mask = in[0]->aval.dtype == DType::kBool ? 1u : ~0u;  // a bool flips its one bit
  eval_unary_as<uint32_t>(in[0], out[0], [mask](auto y, auto x) { y = x.unaryExpr([mask](uint32_t v) { return v ^ mask; }); });
}
Sample Def<Prim::kNot>::sample() { return {{samples::boolean({2, 3})}, {}}; }

// shifts

std::vector<Aval> Def<Prim::kShiftLeft>::shape(const Params&, const std::vector<Aval>& in) {
  return bitwise_shape(kName, in, false);
}
void Def<Prim::kShiftLeft>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  eval_shift(in, out[0], [](uint32_t x, uint32_t s) { return x << s; }, [](uint32_t) { return 0u; });
}
Sample Def<Prim::kShiftLeft>::sample() { return {{samples::i32({2, 3}), samples::i32({2, 3})}, {}}; }

std::vector<Aval> Def<Prim::kShiftRightLogical>::shape(const Params&, const std::vector<Aval>& in) {
  return bitwise_shape(kName, in, false);
}
void Def<Prim::kShiftRightLogical>::eval(const Params&, const std::vector<const Tensor*>& in,
                                         const std::vector<Tensor*>& out) {
  // A narrow signed lane is sign-extended: only its dtype's own bits shift in.
  const uint32_t mask = static_cast<uint32_t>(std::ldexp(1.0, bit_width(in[0]->aval.dtype)) - 1);
  eval_shift(in, out[0], [mask](uint32_t x, uint32_t s) { return (x & mask) >> s; }, [](uint32_t) { return 0u; });
}
Sample Def<Prim::kShiftRightLogical>::sample() { return {{samples::i32({2, 3}), samples::i32({2, 3})}, {}}; }

std::vector<Aval> Def<Prim::kShiftRightArithmetic>::shape(const Params&, const std::vector<Aval>& in) {
  return bitwise_shape(kName, in, false);
}
void Def<Prim::kShiftRightArithmetic>::eval(const Params&, const std::vector<const Tensor*>& in,
                                            const std::vector<Tensor*>& out) {
  const auto sign_fill = [](uint32_t x) { return (x >> 31) ? ~0u : 0u; };
  eval_shift(
      in, out[0],
      [sign_fill](uint32_t x, uint32_t s) { return s == 0 ? x : (x >> s) | (sign_fill(x) << (32 - s)); }, sign_fill);
}
Sample Def<Prim::kShiftRightArithmetic>::sample() { return {{samples::i32({2, 3}), samples::i32({2, 3})}, {}}; }

// threefry2x32

std::vector<Aval> Def<Prim::kThreefry2x32>::shape(const Params&, const std::vector<Aval>& in) {
  if (in.size() != 4) fail(ErrorKind::kValue, kName, ": takes 4 operands (k1, k2, x1, x2), got ", in.size());
  Shape shape;
  for (const Aval& a : in) {
    if (a.dtype != DType::kUInt32)
      fail(ErrorKind::kShape, kName, ": needs uint32 operands, got ", in[0].str(), ", ", in[1].str(), ", ",
           in[2].str(), " and ", in[3].str());
    if (!a.shape.empty()) {
      if (!shape.empty() && a.shape != shape)
        fail(ErrorKind::kShape, kName, ": operand shapes must be equal (or scalars), got ", in[0].str(), ", ",
             in[1].str(), ", ", in[2].str(), " and ", in[3].str());
      shape = a.shape;
    }
  }
  const Aval out{DType::kUInt32, shape, vma_union(in)};
  return {out, out};
}
void Def<Prim::kThreefry2x32>::eval(const Params&, const std::vector<const Tensor*>& in,
                                    const std::vector<Tensor*>& out) {
  const int64_t n = num_elements(out[0]->aval.shape);
  // A scalar operand is repeated: its one element for every k.
  const auto at = [&](int i, int64_t k) { return in[i]->as<uint32_t>()[in[i]->aval.shape.empty() ? 0 : k]; };
  for (int64_t k = 0; k < n; ++k) {
    uint32_t x1 = at(2, k), x2 = at(3, k);
    threefry2x32(at(0, k), at(1, k), x1, x2);
    out[0]->as<uint32_t>()[k] = x1;
    out[1]->as<uint32_t>()[k] = x2;
  }
}
Sample Def<Prim::kThreefry2x32>::sample() {
  const Aval u32{DType::kUInt32, {2, 3}, {}};
  return {{Aval{DType::kUInt32, {}, {}}, Aval{DType::kUInt32, {}, {}}, u32, u32}, {}};
}

}  // namespace shardlab::ir
