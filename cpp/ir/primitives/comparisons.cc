#include "ir/primitives/comparisons.h"

#include <algorithm>

#include "ir/transforms/batching.h"
#include "ir/tracing/ops.h"
#include "ir/primitives/tensor_eval.h"
#include "ir/primitives/elementwise.h"
#include "ir/primitives/sharding_rules.h"
#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

// The operands' shape rule is the binary elementwise one; the result is bool.
std::vector<Aval> comparison_shape(const char* name, const std::vector<Aval>& in) {
  auto out = binary_shape(name, in);
  out[0].dtype = DType::kBool;
  return out;
}

// Applies f to the operands as flat arrays of their dtype (a bool is an int32
// 0/1); f writes 0 or 1 into the int32 words of the bool result.
template <class F>
void eval_comparison(const std::vector<const Tensor*>& in, Tensor* out, F f) {
  if (is_float(in[0]->aval.dtype)) {
    eval_binary_as<float, int32_t>(in, out, f);
  } else if (is_unsigned(in[0]->aval.dtype)) {
    eval_binary_as<uint32_t, int32_t>(in, out, f);
  } else {
    eval_binary_as<int32_t, int32_t>(in, out, f);
  }
}

}  // namespace

// The shape, evaluation and sample of a comparison (its JVP and transpose come
// from NonDifferentiable, its batching from BatchElementwise): `OP` compares
// two Eigen arrays elementwise.
#define SHARDLAB_COMPARISON(P, OP)                                                                                    \
  std::vector<Aval> Def<P>::shape(const Params&, const std::vector<Aval>& in) { return comparison_shape(kName, in); } \
  void Def<P>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {           \
    eval_comparison(in, out[0], [](auto z, auto x, auto y) { z = (x OP y).template cast<int32_t>(); });               \
  }                                                                                                                   \
  Sample Def<P>::sample() { return {{samples::f32({2, 3}), samples::f32({2, 3})}, {}}; }

SHARDLAB_COMPARISON(Prim::kEq, ==)
SHARDLAB_COMPARISON(Prim::kNe, !=)
SHARDLAB_COMPARISON(Prim::kLt, <)
SHARDLAB_COMPARISON(Prim::kLe, <=)
SHARDLAB_COMPARISON(Prim::kGt, >)
SHARDLAB_COMPARISON(Prim::kGe, >=)

#undef SHARDLAB_COMPARISON

// is_finite

std::vector<Aval> Def<Prim::kIsFinite>::shape(const Params&, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, kName, ": takes 1 operand, got ", in.size());
  if (!is_float(in[0].dtype)) fail(ErrorKind::kShape, kName, ": needs a floating-point operand, got ", in[0].str());
  return {Aval{DType::kBool, in[0].shape, in[0].vma}};
}
void Def<Prim::kIsFinite>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  eval_binary_as<float, int32_t>(in, out[0], [](auto z, auto x, auto) { z = x.isFinite().template cast<int32_t>(); });
}
Sample Def<Prim::kIsFinite>::sample() { return {{samples::f32({2, 3})}, {}}; }

// select_n

std::vector<Aval> Def<Prim::kSelectN>::shape(const Params&, const std::vector<Aval>& in) {
  if (in.size() < 2)
    fail(ErrorKind::kValue, kName, ": takes which and at least one case, got ", in.size(), " operands");
  const Aval& which = in[0];
  if (which.dtype != DType::kBool && which.dtype != DType::kInt32)
    fail(ErrorKind::kShape, kName, ": which must be bool or int32, got ", which.str());
  if (which.dtype == DType::kBool && in.size() > 3)
    fail(ErrorKind::kShape, kName, ": which ", which.str(), " is a bool, so it selects between at most 2 cases, got ",
         in.size() - 1);
  const Aval& first = in[1];
  for (size_t i = 2; i < in.size(); ++i)
    if (in[i].dtype != first.dtype || in[i].shape != first.shape)
      fail(ErrorKind::kShape, kName, ": cases must have equal dtypes and shapes, got ", first.str(), " and ",
           in[i].str());
  if (!which.shape.empty() && which.shape != first.shape)
    fail(ErrorKind::kShape, kName, ": which ", which.str(), " must be a scalar or have the shape of the cases ",
         first.str());
  return {Aval{first.dtype, first.shape, vma_union(in)}};
}
void Def<Prim::kSelectN>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  const int32_t* which = in[0]->as<int32_t>();
  const bool scalar = in[0]->aval.shape.empty();
  const int32_t last = static_cast<int32_t>(in.size()) - 2;
  auto* dst = out[0]->as<uint32_t>();
  const int64_t n = num_elements(out[0]->aval.shape);
  for (int64_t k = 0; k < n; ++k) {
    // Out of range int32 selectors are clamped, so every value reads some case.
    const int32_t w = std::clamp(which[scalar ? 0 : k], 0, last);
    dst[k] = in[1 + w]->as<uint32_t>()[k];
  }
}
std::vector<MaybeAtom> Def<Prim::kSelectN>::jvp(Builder& b, const Params&, const std::vector<Atom>& x,
                                                const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  if (std::none_of(t.begin() + 1, t.end(), [](const MaybeAtom& a) { return a.has_value(); })) return {std::nullopt};
  std::vector<Atom> cases;
  for (size_t i = 1; i < x.size(); ++i) cases.push_back(t[i] ? *t[i] : zeros_like(b, x[i].aval));
  return {select_n(b, x[0], cases)};
}
std::vector<MaybeAtom> Def<Prim::kSelectN>::transpose(Builder& b, const Params&, const std::vector<MaybeAtom>& cts,
                                                      const std::vector<Atom>& x, const std::vector<bool>& linear) {
  not_linear(kName, {x[0]}, {linear[0]});
  std::vector<MaybeAtom> out(x.size());
  if (!cts[0]) return out;
  const Atom zeros = zeros_like(b, cts[0]->aval);
  for (size_t i = 1; i < x.size(); ++i) {
    if (!linear[i]) continue;
    std::vector<Atom> cases(x.size() - 1, zeros);
    cases[i - 1] = *cts[0];
    out[i] = select_n(b, x[0], cases);
  }
  return out;
}

// Elementwise; the predicate alone may stay a scalar (the cases must match each other).
std::vector<Batched> Def<Prim::kSelectN>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                               int64_t size) {
  return batch_elementwise(b, Prim::kSelectN, p, in, size, 1);
}
Sample Def<Prim::kSelectN>::sample() {
  return {{samples::boolean({2, 3}), samples::f32({2, 3}), samples::f32({2, 3})}, {}};
}

// JAX's _select_sharding_rule: the sharded cases share one sharding, and a
// predicate that is not a scalar has it too.
std::vector<Sharding> Def<Prim::kSelectN>::sharding(const Params&, const std::vector<Aval>& in,
                                                    const std::vector<Aval>&) {
  check_settled(kName, in);
  common_mesh(kName, in);
  const Aval* first = nullptr;
  for (size_t i = 1; i < in.size(); ++i) {
    if (in[i].sharding.empty()) continue;
    if (!first) first = &in[i];
    else if (first->sharding != in[i].sharding) {
      std::string cases;
      for (size_t j = 1; j < in.size(); ++j) cases += (j > 1 ? ", " : "") + in[j].sharding.spec_text(in[j].shape.size());
      fail(ErrorKind::kShardingType, "select cases must have the same shardings, got [", cases, "].");
    }
  }
  if (!first) return {Sharding{}};
  if (!in[0].shape.empty() && !in[0].sharding.empty() && in[0].sharding.dims != first->sharding.dims)
    fail(ErrorKind::kShardingType, "select `which` must be scalar or have the same sharding as cases, got `which` sharding ",
         in[0].sharding.spec_text(in[0].shape.size()), " but case sharding ", first->sharding.spec_text(first->shape.size()),
         ".");
  return {first->sharding};
}

// Elementwise: the cases (and a predicate that is not a scalar) laid out as the result, then selected block by block.
std::vector<Atom> Def<Prim::kSelectN>::partition(Partitioner& pt, const PartEqn& e) { return pt.local(e); }

}  // namespace shardlab::ir
