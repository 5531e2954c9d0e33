#include "ir/primitives/sorting.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "ir/transforms/batching.h"
#include "ir/tracing/ops.h"
#include "ir/primitives/sharding_rules.h"
#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

// a < b in JAX's sort order for one key element of `dtype` (given as words):
// floats by their value with -0 < +0 and every NaN after every number.
bool less(DType dtype, uint32_t a, uint32_t b) {
  if (is_float(dtype)) {
    float x, y;
    std::memcpy(&x, &a, 4);
    std::memcpy(&y, &b, 4);
    if (std::isnan(x) || std::isnan(y)) return !std::isnan(x) && std::isnan(y);
    if (x == y) return std::signbit(x) && !std::signbit(y);
    return x < y;
  }
  if (is_signed_int(dtype)) return static_cast<int32_t>(a) < static_cast<int32_t>(b);
  return a < b;  // unsigned; bool: false before true
}

}  // namespace

std::vector<Aval> Def<Prim::kSort>::shape(const Params& p, const std::vector<Aval>& in) {
  if (in.empty()) fail(ErrorKind::kValue, kName, ": takes at least 1 operand, got 0");
  const int64_t dim = param<int64_t>(p, "dimension", kName);
  const int64_t keys = param<int64_t>(p, "num_keys", kName);
  if (dim < 0 || dim >= in[0].ndim())
    fail(ErrorKind::kShape, kName, ": dimension ", dim, " is not a dimension of ", in[0].str(), " (0..",
         in[0].ndim() - 1, ")");
  if (keys < 1 || keys > static_cast<int64_t>(in.size()))
    fail(ErrorKind::kValue, kName, ": num_keys ", keys, " must be in 1..", in.size(), " (the number of operands)");
  for (const Aval& a : in)
    if (a.shape != in[0].shape)
      fail(ErrorKind::kShape, kName, ": operands ", in[0].str(), " and ", a.str(), " must have the same shape");
  std::vector<Aval> out;
  const auto vma = vma_union(in);
  for (const Aval& a : in) out.push_back(Aval{a.dtype, a.shape, vma});
  return out;
}
void Def<Prim::kSort>::eval(const Params& p, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  const int64_t dim = param<int64_t>(p, "dimension", kName);
  const size_t keys = static_cast<size_t>(param<int64_t>(p, "num_keys", kName));
  const Shape& shape = in[0]->aval.shape;
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(dim) + 1; d < shape.size(); ++d) inner *= shape[d];
  const int64_t n = shape[dim], outer = n ? num_elements(shape) / (n * inner) : 0;
  std::vector<int64_t> order(static_cast<size_t>(n));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < inner; ++j) {
      const int64_t base = o * n * inner + j;
      const auto at = [&](int64_t i) { return base + i * inner; };
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        for (size_t k = 0; k < keys; ++k) {
          const DType dt = in[k]->aval.dtype;
          const uint32_t x = in[k]->as<uint32_t>()[at(a)], y = in[k]->as<uint32_t>()[at(b)];
          if (less(dt, x, y)) return true;
          if (less(dt, y, x)) return false;
        }
        return false;
      });
      for (size_t k = 0; k < in.size(); ++k)
        for (int64_t i = 0; i < n; ++i) out[k]->as<uint32_t>()[at(i)] = in[k]->as<uint32_t>()[at(order[i])];
    }
}
// The permutation: the positions 0..n-1 along the dimension, sorted as one
// more operand; each float tangent is gathered by it, every other dimension
// a batching dimension of the gather (out[.., i, ..] = t[.., perm[.., i, ..], ..]).
std::vector<MaybeAtom> Def<Prim::kSort>::jvp(Builder& b, const Params& p, const std::vector<Atom>& x,
                                             const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  std::vector<MaybeAtom> out(x.size());
  bool any = false;
  for (size_t k = 0; k < x.size(); ++k) any = any || (t[k] && is_float(x[k].aval.dtype));
  if (!any) return out;
  const int64_t dim = param<int64_t>(p, "dimension", kName);
  const Shape& shape = x[0].aval.shape;
  std::vector<Atom> operands = x;
  operands.push_back(iota(b, DType::kInt32, shape, dim));
  const Atom perm = b.emit(Prim::kSort, p, operands).back();
  Shape ishape = shape;
  ishape.push_back(1);
  const Atom idx = reshape(b, perm, ishape);
  std::vector<int64_t> batching;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d)
    if (d != dim) batching.push_back(d);
  const IntLists dims{{}, {dim}, {dim}, batching, batching};
  const Shape ones(shape.size(), 1);
  for (size_t k = 0; k < x.size(); ++k)
    if (t[k] && is_float(x[k].aval.dtype))
      out[k] = gather(b, *t[k], idx, dims, ones, IndexMode{"promise_in_bounds", true, false}, 0.0);
  return out;
}
// Every operand batched along 0; the sorted dimension after it.
std::vector<Batched> Def<Prim::kSort>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                            int64_t size) {
  const auto outs = b.emit(Prim::kSort, with_param(p, "dimension", param<int64_t>(p, "dimension", kName) + 1),
                           batch_dims_first(b, in, size));
  return batched_at(outs, 0);
}
Sample Def<Prim::kSort>::sample() {
  return {{samples::f32({3, 4}), samples::f32({3, 4})},
          {{"dimension", int64_t{1}}, {"is_stable", true}, {"num_keys", int64_t{1}}}};
}

// JAX's rule (in sort's abstract evaluation): the sharded operands share one
// sharding, which leaves the sorting dimension unsharded; the results have it.
std::vector<Sharding> Def<Prim::kSort>::sharding(const Params& p, const std::vector<Aval>& in,
                                                 const std::vector<Aval>& out) {
  check_settled(kName, in);
  const auto dimension = static_cast<size_t>(param<int64_t>(p, "dimension", kName));
  const Sharding* first = nullptr;
  for (const Aval& a : in) {
    if (a.sharding.empty()) continue;
    if (!a.sharding.dim(dimension).empty())
      fail(ErrorKind::kShardingType, "Arguments to sort must be unsharded over the sorting dimension. Got arg sharding=",
           a.sharding.spec_text(a.shape.size()), " and sorting dimension=", dimension);
    if (!first) first = &a.sharding;
    else if (*first != a.sharding)
      fail(ErrorKind::kShardingType, "Arguments to sort must have equal shardings, got: ", first->spec_text(a.shape.size()),
           " ", a.sharding.spec_text(a.shape.size()));
  }
  return std::vector<Sharding>(out.size(), first ? *first : Sharding{});
}

// The sorting dimension is unsharded (the sharding rule), so every block is
// sorted alike, the operands laid out as the result.
std::vector<Atom> Def<Prim::kSort>::partition(Partitioner& pt, const PartEqn& e) { return pt.local(e); }

}  // namespace shardlab::ir
