// Elementwise arithmetic: add, sub, mul, neg. Operands of binary primitives
// have equal shapes and dtypes (the JS API's numpy functions broadcast first);
// the result varies along every mesh axis an operand varies along.
#pragma once

#include "ir/primitive.h"
#include "ir/program.h"

namespace shardlab::ir {

/// The shape rule shared by the binary elementwise primitives.
std::vector<Aval> binary_shape(const char* name, const std::vector<Aval>& in);
/// The shape rule shared by the unary elementwise primitives.
std::vector<Aval> unary_shape(const char* name, const std::vector<Aval>& in);

/// add: z = x + y; d(x + y) = dx + dy; transpose: ct -> (ct, ct).
template <>
struct Def<Prim::kAdd> {
  static constexpr const char* kName = "add";
  static std::vector<Aval> shape(const Params& p, const std::vector<Aval>& in);
  static void eval(const Params& p, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out);
  static std::vector<MaybeAtom> jvp(Builder& b, const Params& p, const std::vector<Atom>& primals,
                                    const std::vector<MaybeAtom>& tangents);
  static std::vector<MaybeAtom> transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                          const std::vector<Atom>& inputs, const std::vector<bool>& linear);
};

/// sub: z = x - y; d(x - y) = dx - dy; transpose: ct -> (ct, -ct).
template <>
struct Def<Prim::kSub> {
  static constexpr const char* kName = "sub";
  static std::vector<Aval> shape(const Params& p, const std::vector<Aval>& in);
  static void eval(const Params& p, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out);
  static std::vector<MaybeAtom> jvp(Builder& b, const Params& p, const std::vector<Atom>& primals,
                                    const std::vector<MaybeAtom>& tangents);
  static std::vector<MaybeAtom> transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                          const std::vector<Atom>& inputs, const std::vector<bool>& linear);
};

/// mul: z = x * y; d(x * y) = dx * y + x * dy; linear in one operand at a
/// time: ct -> ct * y (for x) or x * ct (for y).
template <>
struct Def<Prim::kMul> {
  static constexpr const char* kName = "mul";
  static std::vector<Aval> shape(const Params& p, const std::vector<Aval>& in);
  static void eval(const Params& p, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out);
  static std::vector<MaybeAtom> jvp(Builder& b, const Params& p, const std::vector<Atom>& primals,
                                    const std::vector<MaybeAtom>& tangents);
  static std::vector<MaybeAtom> transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                          const std::vector<Atom>& inputs, const std::vector<bool>& linear);
};

/// neg: z = -x; d(-x) = -dx; transpose: ct -> -ct.
template <>
struct Def<Prim::kNeg> {
  static constexpr const char* kName = "neg";
  static std::vector<Aval> shape(const Params& p, const std::vector<Aval>& in);
  static void eval(const Params& p, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out);
  static std::vector<MaybeAtom> jvp(Builder& b, const Params& p, const std::vector<Atom>& primals,
                                    const std::vector<MaybeAtom>& tangents);
  static std::vector<MaybeAtom> transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                          const std::vector<Atom>& inputs, const std::vector<bool>& linear);
};

}  // namespace shardlab::ir
