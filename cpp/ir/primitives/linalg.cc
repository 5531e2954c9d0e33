#include "ir/primitives/linalg.h"

#include <Eigen/Core>
#include <algorithm>
#include <numeric>

#include "ir/transforms/batching.h"
#include "ir/tracing/ops.h"
#include "kernels/gemm.h"
#include "ir/primitives/sharding_rules.h"
#include "runtime/errors.h"
#include "runtime/strided_copy.h"

namespace shardlab::ir {

namespace {

// dot_general's dimension_numbers, by name (borrowed from the params: evaluation copies nothing).
struct DotDims {
  const std::vector<int64_t>&lhs_contract, &rhs_contract, &lhs_batch, &rhs_batch;
};

DotDims dot_dims(const Params& p) {
  const auto& dn = param<IntLists>(p, "dimension_numbers", Def<Prim::kDotGeneral>::kName);
  if (dn.size() != 4)
    fail(ErrorKind::kValue, Def<Prim::kDotGeneral>::kName,
         ": dimension_numbers must hold 4 lists (lhs_contracting, rhs_contracting, lhs_batch, rhs_batch), got ",
         dn.size());
  return {dn[0], dn[1], dn[2], dn[3]};
}

// The dimensions of an operand of rank `rank` neither contracted nor batch, in order (JAX's `remaining`).
Dims free_dims(int64_t rank, const std::vector<int64_t>& contract, const std::vector<int64_t>& batch) noexcept {
  Dims out;
  for (int64_t d = 0; d < rank; ++d)
    if (std::find(contract.begin(), contract.end(), d) == contract.end() &&
        std::find(batch.begin(), batch.end(), d) == batch.end())
      out.push_back(d);
  return out;
}

// The lists one after the other.
template <class... Lists>
Dims concat(const Lists&... lists) noexcept {
  Dims out;
  (..., [&] {
    for (int64_t v : lists) out.push_back(v);
  }());
  return out;
}

// Contracting and batch dimensions of one operand: distinct, in range.
void check_dims(const char* side, const Aval& x, const std::vector<int64_t>& contract,
                const std::vector<int64_t>& batch) {
  std::vector<bool> used(x.shape.size(), false);
  for (int64_t d : concat(contract, batch)) {
    if (d < 0 || d >= x.ndim() || used[d])
      fail(ErrorKind::kShape, Def<Prim::kDotGeneral>::kName, ": ", side, "_contracting ", shape_str(contract), " and ",
           side, "_batch ", shape_str(batch), " must be distinct dimensions of ", x.str(), " (0..", x.ndim() - 1, ")");
    used[d] = true;
  }
}

// Paired dimensions of x and y have equal sizes.
void check_paired(const char* what, const Aval& x, const std::vector<int64_t>& xd, const Aval& y,
                  const std::vector<int64_t>& yd) {
  for (size_t i = 0; i < xd.size(); ++i)
    if (x.shape[xd[i]] != y.shape[yd[i]])
      fail(ErrorKind::kShape, Def<Prim::kDotGeneral>::kName, ": ", what, " dimension ", xd[i], " of ", x.str(),
           " has size ", x.shape[xd[i]], " but dimension ", yd[i], " of ", y.str(), " has size ", y.shape[yd[i]],
           "; they must be equal");
}

template <class List>
int64_t size_of(const Shape& shape, const List& dims) noexcept {
  int64_t n = 1;
  for (int64_t d : dims) n *= shape[d];
  return n;
}

template <class List>
bool is_identity(const List& perm) noexcept {
  for (size_t i = 0; i < perm.size(); ++i)
    if (perm[i] != static_cast<int64_t>(i)) return false;
  return true;
}

// An operand as a stack (over `batch`) of matrices with the `rows` dimensions
// down and the `cols` ones across, for Eigen: its own elements when they lie
// so, row-major or column-major (a transposed operand, as in the backward pass
// of a matmul), else a row-major copy.
template <class T>
struct Matrices {
  const T* data;
  bool col_major;
  std::vector<T> copy;
};

template <class T>
Matrices<T> as_matrices(const Tensor& t, const std::vector<int64_t>& batch, const Dims& rows, const Dims& cols) {
  const auto perm = concat(batch, rows, cols);
  if (is_identity(perm)) return {t.as<T>(), false, {}};
  if (is_identity(concat(batch, cols, rows))) return {t.as<T>(), true, {}};
  const auto strides = strides_of(t.aval.shape);
  StridedView src{{}, 0};
  Shape extent;  // this path copies the operand, so one more allocation does not matter
  for (int64_t d : perm) {
    src.strides.push_back(strides[d]);
    extent.push_back(t.aval.shape[d]);
  }
  Matrices<T> m{nullptr, false, std::vector<T>(static_cast<size_t>(num_elements(extent)))};
  strided_copy(extent, t.data, src, m.copy.data(), StridedView{strides_of(extent), 0});
  m.data = m.copy.data();
  return m;
}

// x as [batch, free, contracting] and y as [batch, contracting, free] are
// stacks of M x K and K x N matrices; the result [batch, x free, y free] is
// the stack of their M x N products.
template <class T>
void dot_as(const DotDims& d, const Tensor& x, const Tensor& y, Tensor& out) {
  const Shape& xs = x.aval.shape;
  const Shape& ys = y.aval.shape;
  const auto x_free = free_dims(x.aval.ndim(), d.lhs_contract, d.lhs_batch);
  const auto y_free = free_dims(y.aval.ndim(), d.rhs_contract, d.rhs_batch);
  const int64_t batch = size_of(xs, d.lhs_batch), m = size_of(xs, x_free), k = size_of(xs, d.lhs_contract),
                n = size_of(ys, y_free);
  const auto a = as_matrices<T>(x, d.lhs_batch, x_free, d.lhs_contract);
  const auto b = as_matrices<T>(y, d.rhs_batch, d.rhs_contract, y_free);
  T* z = out.as<T>();
  if (a.col_major) {
    if (b.col_major) {
      kernels::gemm<T, Eigen::ColMajor, Eigen::ColMajor>(batch, m, k, n, a.data, b.data, z);
    } else {
      kernels::gemm<T, Eigen::ColMajor, Eigen::RowMajor>(batch, m, k, n, a.data, b.data, z);
    }
  } else if (b.col_major) {
    kernels::gemm<T, Eigen::RowMajor, Eigen::ColMajor>(batch, m, k, n, a.data, b.data, z);
  } else {
    kernels::gemm<T, Eigen::RowMajor, Eigen::RowMajor>(batch, m, k, n, a.data, b.data, z);
  }
}

// JAX's _dot_general_transpose_lhs: the cotangent of x (of type `x`) in
// z = dot_general(x, y), or, with `swapped`, of y in dot_general(y, x) with
// the dimension numbers `d` given from y's side.
Atom transpose_operand(Builder& b, const Atom& ct, const Aval& x, const Atom& y, const DotDims& d, bool swapped) {
  const auto x_free = free_dims(x.ndim(), d.lhs_contract, d.lhs_batch);
  const auto y_free = free_dims(y.aval.ndim(), d.rhs_contract, d.rhs_batch);
  const auto n_batch = static_cast<int64_t>(d.lhs_batch.size());
  // Where y's free dimensions are in ct: after the batch ones and x's free ones (before them when swapped).
  std::vector<int64_t> ct_batch(n_batch), ct_y(y_free.size());
  std::iota(ct_batch.begin(), ct_batch.end(), 0);
  std::iota(ct_y.begin(), ct_y.end(), swapped ? n_batch : n_batch + static_cast<int64_t>(x_free.size()));
  std::vector<size_t> by_y(d.rhs_contract.size());
  std::iota(by_y.begin(), by_y.end(), 0);
  std::sort(by_y.begin(), by_y.end(), [&](size_t i, size_t j) { return d.rhs_contract[i] < d.rhs_contract[j]; });
  Dims x_dim_of = concat(d.lhs_batch, x_free);  // x's dimension of each dimension of r
  for (size_t i : by_y) x_dim_of.push_back(d.lhs_contract[i]);
  // Typed as x's cotangent (301: a function of its primal's type; a reduced
  // x's unreduced, the partial sums left for a later reshard), in r's dimension order.
  Sharding typed;
  typed.mesh = common_mesh(Def<Prim::kDotGeneral>::kName, {x, y.aval, ct.aval});
  if (!typed.mesh.empty()) {
    for (int64_t k : x_dim_of) typed.dims.push_back(x.sharding.dim(static_cast<size_t>(k)));
    typed.unreduced = x.sharding.reduced;
  }
  // Contracting ct with y over y's free dimensions gives [batch, x free, y contracting in y's order].
  const Atom r = dot_general(b, ct, y, {ct_y, y_free.vec(), ct_batch, d.rhs_batch}, std::move(typed).normalized());
  std::vector<int64_t> perm(x_dim_of.size());
  for (size_t j = 0; j < x_dim_of.size(); ++j) perm[x_dim_of[j]] = static_cast<int64_t>(j);
  return is_identity(perm) ? r : transpose(b, r, perm);
}

}  // namespace

std::vector<Aval> Def<Prim::kDotGeneral>::shape(const Params& p, const std::vector<Aval>& in) {
  if (in.size() != 2) fail(ErrorKind::kValue, kName, ": takes 2 operands, got ", in.size());
  const Aval& x = in[0];
  const Aval& y = in[1];
  const DotDims d = dot_dims(p);
  const DType preferred = param<DType>(p, "preferred_element_type", kName);
  if (x.dtype != y.dtype)
    fail(ErrorKind::kShape, kName, ": operand dtypes differ (", x.str(), " and ", y.str(),
         "); convert one with convert_element_type");
  if (x.dtype == DType::kBool || is_unsigned(x.dtype))
    fail(ErrorKind::kShape, kName, ": needs floating-point or signed integer operands, got ", x.str(), " and ", y.str());
  if (preferred != x.dtype)
    fail(ErrorKind::kShape, kName, ": preferred_element_type ", dtype_long_name(preferred),
         " must be the dtype of the operands ", x.str(), " and ", y.str());
  if (d.lhs_contract.size() != d.rhs_contract.size())
    fail(ErrorKind::kShape, kName, ": lhs_contracting ", shape_str(d.lhs_contract), " and rhs_contracting ",
         shape_str(d.rhs_contract), " must have equal lengths (operands ", x.str(), " and ", y.str(), ")");
  if (d.lhs_batch.size() != d.rhs_batch.size())
    fail(ErrorKind::kShape, kName, ": lhs_batch ", shape_str(d.lhs_batch), " and rhs_batch ", shape_str(d.rhs_batch),
         " must have equal lengths (operands ", x.str(), " and ", y.str(), ")");
  check_dims("lhs", x, d.lhs_contract, d.lhs_batch);
  check_dims("rhs", y, d.rhs_contract, d.rhs_batch);
  check_paired("batch", x, d.lhs_batch, y, d.rhs_batch);
  check_paired("contracting", x, d.lhs_contract, y, d.rhs_contract);
  Shape out;
  for (int64_t dim : concat(d.lhs_batch, free_dims(x.ndim(), d.lhs_contract, d.lhs_batch))) out.push_back(x.shape[dim]);
  for (int64_t dim : free_dims(y.ndim(), d.rhs_contract, d.rhs_batch)) out.push_back(y.shape[dim]);
  return {Aval{x.dtype, out, vma_union(x.vma, y.vma)}};
}

void Def<Prim::kDotGeneral>::eval(const Params& p, const std::vector<const Tensor*>& in,
                                  const std::vector<Tensor*>& out) {
  if (is_float(in[0]->aval.dtype)) {
    dot_as<float>(dot_dims(p), *in[0], *in[1], *out[0]);
  } else {
    // Unsigned arithmetic wraps on overflow as XLA's int32 does (signed overflow is undefined in C++).
    dot_as<uint32_t>(dot_dims(p), *in[0], *in[1], *out[0]);
  }
}

std::vector<MaybeAtom> Def<Prim::kDotGeneral>::jvp(Builder& b, const Params& p, const std::vector<Atom>& x,
                                                   const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  const MaybeAtom lhs = t[0] ? MaybeAtom(b.emit1(Prim::kDotGeneral, p, {*t[0], x[1]})) : std::nullopt;
  const MaybeAtom rhs = t[1] ? MaybeAtom(b.emit1(Prim::kDotGeneral, p, {x[0], *t[1]})) : std::nullopt;
  if (lhs && rhs) return {add(b, *lhs, *rhs)};
  return {lhs ? lhs : rhs};
}

std::vector<MaybeAtom> Def<Prim::kDotGeneral>::transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                                         const std::vector<Atom>& x, const std::vector<bool>& linear) {
  if (linear[0] && linear[1])
    fail(ErrorKind::kValue, kName, ": cannot transpose a product of two linear operands (", x[0].aval.str(), " and ",
         x[1].aval.str(), "); the program is not linear in them");
  if (!cts[0]) return {std::nullopt, std::nullopt};
  const DotDims d = dot_dims(p);
  if (linear[0]) return {transpose_operand(b, *cts[0], x[0].aval, x[1], d, false), std::nullopt};
  if (linear[1]) {
    const DotDims swapped{d.rhs_contract, d.lhs_contract, d.rhs_batch, d.lhs_batch};
    return {std::nullopt, transpose_operand(b, *cts[0], x[1].aval, x[0], swapped, true)};
  }
  return {std::nullopt, std::nullopt};
}

// The batch dimension of each batched operand first. Both batched: one more
// batch dimension of the product, leading its output. One batched: a free
// dimension of that operand, its first, so the output has it after the batch
// dimensions (lhs) or after lhs's free ones too (rhs).
std::vector<Batched> Def<Prim::kDotGeneral>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                                  int64_t) {
  const DotDims d = dot_dims(p);
  const bool lhs = in[0].batched();
  const bool rhs = in[1].batched();
  IntLists dims{lhs ? skip_batch_dim(d.lhs_contract) : d.lhs_contract,
                rhs ? skip_batch_dim(d.rhs_contract) : d.rhs_contract,
                lhs ? skip_batch_dim(d.lhs_batch) : d.lhs_batch, rhs ? skip_batch_dim(d.rhs_batch) : d.rhs_batch};
  if (lhs && rhs) {
    dims[2].insert(dims[2].begin(), 0);
    dims[3].insert(dims[3].begin(), 0);
  }
  const Atom x = lhs ? move_batch_dim(b, in[0], 0, 0) : in[0].value;
  const Atom y = rhs ? move_batch_dim(b, in[1], 0, 0) : in[1].value;
  const int n_batch = static_cast<int>(d.lhs_batch.size());
  const int lhs_free = static_cast<int>(x.aval.shape.size() - dims[0].size() - dims[2].size());
  const int out = lhs && rhs ? 0 : lhs ? n_batch : n_batch + lhs_free;
  // A given out_sharding gains the batch dimension, unsharded.
  Sharding out_sharding = param<Sharding>(p, "out_sharding", kName);
  if (!out_sharding.mesh.empty()) {
    out_sharding.dims.resize(std::max(out_sharding.dims.size(), static_cast<size_t>(out)));
    out_sharding.dims.insert(out_sharding.dims.begin() + out, std::vector<std::string>{});
  }
  const Params batched = with_param(with_param(p, "dimension_numbers", dims), "out_sharding", std::move(out_sharding).normalized());
  return {Batched{b.emit1(Prim::kDotGeneral, batched, {x, y}), out}};
}
Sample Def<Prim::kDotGeneral>::sample() {
  return {{samples::f32({2, 3}), samples::f32({3, 4})},
          {{"dimension_numbers", IntLists{{1}, {0}, {}, {}}}, {"preferred_element_type", DType::kFloat32}, {"out_sharding", Sharding{}}}};
}

// JAX's _dot_general_sharding_rule: a given out_sharding is the result's
// (unreduced over exactly the axes both sides' contracting dimensions are
// sharded over, if it says unreduced: the partial sums left unsummed);
// otherwise batch and contracting dimensions sharded alike on both sides (or
// on one), and not both sides' contracting dimensions sharded (the result
// could then be all-reduced, reduce-scattered or left unreduced: out_sharding
// decides); the result is sharded as (batch, lhs free, rhs free), a mesh
// axis named twice being an error the builder's check_sharding raises.
std::vector<Sharding> Def<Prim::kDotGeneral>::sharding(const Params& p, const std::vector<Aval>& in,
                                                       const std::vector<Aval>&) {
  if (!in[0].sharding.unreduced.empty() || !in[1].sharding.unreduced.empty())
    fail(ErrorKind::kShardingType, "lhs or rhs passed to dot_general cannot be unreduced. Got lhs=", in[0].str(),
         " and rhs=", in[1].str());
  check_settled(kName, in);
  const DotDims d = dot_dims(p);
  const Sharding& given = param<Sharding>(p, "out_sharding", kName);
  if (!given.mesh.empty()) {
    if (!given.unreduced.empty()) {
      std::vector<std::string> contracted;
      for (size_t i = 0; i < d.lhs_contract.size(); ++i) {
        const auto& l = in[0].sharding.dim(static_cast<size_t>(d.lhs_contract[i]));
        if (l != in[1].sharding.dim(static_cast<size_t>(d.rhs_contract[i])))
          fail(ErrorKind::kShardingType, "lhs and rhs contracting dims should be sharded identically when out_sharding ",
               "provided to dot_general mentions unreduced_axes. Got lhs=", in[0].str(), ", rhs=", in[1].str());
        contracted.insert(contracted.end(), l.begin(), l.end());
      }
      std::vector<std::string> want = given.unreduced, have = contracted;
      std::sort(want.begin(), want.end());
      std::sort(have.begin(), have.end());
      if (want != have)
        fail(ErrorKind::kShardingType, "out_sharding's unreduced axes should be equal to the contracting specs. Got ",
             "unreduced axes=", given.spec_text(0), " and contracting dims sharded over ", spec_entry_text(contracted));
    }
    return {given};
  }
  Sharding out;
  out.mesh = common_mesh(kName, in);
  if (out.mesh.empty()) return {out};
  auto specs = [](const Aval& a, const std::vector<int64_t>& dims) {
    std::string t = "(";
    for (size_t i = 0; i < dims.size(); ++i) t += (i ? ", " : "") + spec_entry_text(a.sharding.dim(static_cast<size_t>(dims[i])));
    return t + (dims.size() == 1 ? ",)" : ")");
  };
  auto match = [&](const std::vector<int64_t>& l, const std::vector<int64_t>& r, const char* what) {
    for (size_t i = 0; i < l.size(); ++i) {
      const auto& ls = in[0].sharding.dim(static_cast<size_t>(l[i]));
      const auto& rs = in[1].sharding.dim(static_cast<size_t>(r[i]));
      if (!ls.empty() && !rs.empty() && ls != rs)
        fail(ErrorKind::kShardingType, "dot_general requires ", what, ", got ", specs(in[0], l), " and ", specs(in[1], r), ".");
    }
  };
  match(d.lhs_batch, d.rhs_batch, "lhs batch dimensions and rhs batch dimensions to have the consistent sharding");
  match(d.lhs_contract, d.rhs_contract, "contracting dimensions to have consistent sharding");
  for (size_t i = 0; i < d.lhs_contract.size(); ++i)
    if (!in[0].sharding.dim(static_cast<size_t>(d.lhs_contract[i])).empty() &&
        !in[1].sharding.dim(static_cast<size_t>(d.rhs_contract[i])).empty())
      fail(ErrorKind::kShardingType, "Contracting dimensions are sharded and it is ambiguous how the output should be ",
           "sharded. Please specify the output sharding via the `out_sharding` parameter. Got lhs_contracting_spec=",
           specs(in[0], d.lhs_contract), " and rhs_contracting_spec=", specs(in[1], d.rhs_contract));
  for (int64_t k : d.lhs_batch) out.dims.push_back(in[0].sharding.dim(static_cast<size_t>(k)));
  for (int64_t k : free_dims(in[0].ndim(), d.lhs_contract, d.lhs_batch)) out.dims.push_back(in[0].sharding.dim(static_cast<size_t>(k)));
  for (int64_t k : free_dims(in[1].ndim(), d.rhs_contract, d.rhs_batch)) out.dims.push_back(in[1].sharding.dim(static_cast<size_t>(k)));
  return {std::move(out).normalized()};
}

// Each device multiplies its blocks, laid out for the result: a batch or
// free dimension split as the result's type splits it (a replicated
// operand's block sliced, free; an axis the result does not keep there
// gathered), a contracting dimension kept split where both operands split it
// alike, or on one side where the result is the smaller (else gathered).
// The products are then partial sums over those contracting axes, which the
// result takes as they are (unreduced), reduce-scattered onto the dimension
// it splits over them, or summed (psum).
// The scaling book's matmul cases follow: A[I@X,J]·B[J,K@Y] moves nothing;
// A[I,J@X]·B[J@X,K] reduces the partial sums (all-reduce, reduce-scatter or
// none, as out_sharding says); an operand split where the result needs it
// whole (A[I@X,J]·B[J,K@X] with out_sharding P('X', None)) is all-gathered.
std::vector<Atom> Def<Prim::kDotGeneral>::partition(Partitioner& pt, const PartEqn& e) {
  const DotDims d = dot_dims(e.params);
  const Aval& x = e.in[0];
  const Aval& y = e.in[1];
  const Sharding& o = e.out[0].sharding;
  std::vector<std::string> partial;
  std::vector<std::vector<std::string>> contract;
  for (size_t i = 0; i < d.lhs_contract.size(); ++i) {
    const auto& l = x.sharding.dim(static_cast<size_t>(d.lhs_contract[i]));
    const auto& r = y.sharding.dim(static_cast<size_t>(d.rhs_contract[i]));
    // Split on one side only: the other side sliced alike (no traffic) and the
    // partial sums reduced, where the result is no larger than the split
    // operand (a weight's gradient from a batch); else that operand gathered.
    const Aval& split = l.empty() ? y : x;
    const bool one_sided = l.empty() != r.empty() && num_elements(e.out[0].shape) <= num_elements(split.shape);
    const bool kept = (!l.empty() && l == r) || one_sided;
    contract.push_back(kept ? (l.empty() ? r : l) : std::vector<std::string>{});
    if (kept) partial.insert(partial.end(), contract.back().begin(), contract.back().end());
  }
  // Result dimension k as the products give it: the result's axes but those reduce-scattered onto it.
  auto product_dim = [&](size_t k) {
    std::vector<std::string> axes;
    for (const std::string& a : o.dim(k))
      if (std::find(partial.begin(), partial.end(), a) == partial.end()) axes.push_back(a);
    return axes;
  };
  auto target = [&](const Aval& a, const std::vector<int64_t>& batch, const std::vector<int64_t>& con, size_t first_free) {
    std::vector<std::vector<std::string>> dims(a.shape.size());
    for (size_t i = 0; i < batch.size(); ++i) dims[static_cast<size_t>(batch[i])] = product_dim(i);
    for (size_t i = 0; i < con.size(); ++i) dims[static_cast<size_t>(con[i])] = contract[i];
    size_t k = first_free;
    for (int64_t f : free_dims(a.ndim(), con, batch)) dims[static_cast<size_t>(f)] = product_dim(k++);
    return Sharding{pt.mesh, std::move(dims), {}, {}}.normalized();
  };
  const size_t x_free = free_dims(x.ndim(), d.lhs_contract, d.lhs_batch).size();
  const Atom xb = pt.reshard(e.blocks[0], x, target(x, d.lhs_batch, d.lhs_contract, d.lhs_batch.size()));
  const Atom yb = pt.reshard(e.blocks[1], y, target(y, d.rhs_batch, d.rhs_contract, d.lhs_batch.size() + x_free));
  const Atom z = pt.b.emit1(Prim::kDotGeneral, with_param(e.params, "out_sharding", Sharding{}), {xb, yb});
  Aval products = e.out[0];
  std::vector<std::vector<std::string>> dims(products.shape.size());
  for (size_t k = 0; k < dims.size(); ++k) dims[k] = product_dim(k);
  products.sharding = Sharding{pt.mesh, std::move(dims), partial, {}}.normalized();
  return {pt.reshard(z, products, o)};
}

}  // namespace shardlab::ir
