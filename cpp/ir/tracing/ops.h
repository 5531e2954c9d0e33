// Emitting primitives by name from C++: what JVP and transpose rules (and the
// C++ tests) write programs with.
#pragma once

#include <string>

#include "ir/tracing/builder.h"

namespace shardlab::ir {

/// x + y (equal shapes and dtypes).
Atom add(Builder& b, const Atom& x, const Atom& y);
/// x + y summing two cotangents of one value (JAX's add_any).
Atom add_any(Builder& b, const Atom& x, const Atom& y);
/// x - y.
Atom sub(Builder& b, const Atom& x, const Atom& y);
/// x * y.
Atom mul(Builder& b, const Atom& x, const Atom& y);
/// x / y.
Atom div(Builder& b, const Atom& x, const Atom& y);
/// -x.
Atom neg(Builder& b, const Atom& x);
/// The elementwise maximum of x and y.
Atom max(Builder& b, const Atom& x, const Atom& y);
/// The elementwise minimum of x and y.
Atom min(Builder& b, const Atom& x, const Atom& y);
/// x to the power y (float32).
Atom pow(Builder& b, const Atom& x, const Atom& y);
/// A unary math primitive (exp, log, tanh, logistic, sqrt, rsqrt, square, abs, sign) of x.
Atom unary(Builder& b, Prim prim, const Atom& x);
/// A comparison primitive (eq, ne, lt, le, gt, ge) of x and y: a bool array.
Atom compare(Builder& b, Prim prim, const Atom& x, const Atom& y);
/// cases[which] elementwise (which bool or int32, a scalar or of the cases' shape).
Atom select_n(Builder& b, const Atom& which, const std::vector<Atom>& cases);
/// x's values as `dtype`.
Atom convert_element_type(Builder& b, const Atom& x, DType dtype);
/// An array of `shape` whose elements are their index along `dimension`.
Atom iota(Builder& b, DType dtype, const Shape& shape, int64_t dimension);
/// A float32 scalar literal.
Atom f32_scalar(double value);
/// A scalar literal of x's dtype (a rule's constant, as JAX's _const(x, value)).
Atom scalar_like(const Atom& x, double value);
/// x broadcast to `shape`, its dimension i becoming `dims[i]`.
Atom broadcast_in_dim(Builder& b, const Atom& x, const Shape& shape, const std::vector<int64_t>& dims);
/// x with the same elements in `shape`.
Atom reshape(Builder& b, const Atom& x, const Shape& shape);
/// x with its dimensions permuted: output dimension i is x's dimension perm[i].
Atom transpose(Builder& b, const Atom& x, const std::vector<int64_t>& perm);
/// x without the size-1 `dimensions`.
Atom squeeze(Builder& b, const Atom& x, const std::vector<int64_t>& dimensions);
/// x with size-1 dimensions inserted at the output positions `dimensions`.
Atom expand_dims(Builder& b, const Atom& x, const std::vector<int64_t>& dimensions);
/// jax.lax.dot_general of x and y: dims = {lhs_contracting, rhs_contracting, lhs_batch, rhs_batch}; the result holds
/// the batch dimensions, then x's free ones, then y's.
Atom dot_general(Builder& b, const Atom& x, const Atom& y, const IntLists& dims, const Sharding& out_sharding = {});
/// jnp.matmul: matrix x matrix, vector products (a rank-1 operand), and stacks of matrices whose batch dimensions
/// broadcast, traced as JAX does (shared batch dims are dot_general batch dims, the others free dims; squeeze,
/// transpose and expand_dims put the result in order).
Atom matmul(Builder& b, const Atom& x, const Atom& y);
/// The operands one after the other along `dimension`.
Atom concatenate(Builder& b, const std::vector<Atom>& xs, int64_t dimension);
/// x[start:limit:strides] (empty strides mean 1s).
Atom slice(Builder& b, const Atom& x, const std::vector<int64_t>& start, const std::vector<int64_t>& limit,
           const std::vector<int64_t>& strides = {});
/// x padded with the scalar `value`: padding_config holds (lo, hi, interior) per dimension.
Atom pad(Builder& b, const Atom& x, const Atom& value, const IntLists& padding_config);
/// The `sizes` window of x at `indices` (int32 scalars, one per dimension).
Atom dynamic_slice(Builder& b, const Atom& x, const std::vector<Atom>& indices, const Shape& sizes);
/// x with the window at `indices` (int32 scalars, one per dimension) replaced by `update`.
Atom dynamic_update_slice(Builder& b, const Atom& x, const Atom& update, const std::vector<Atom>& indices);
/// The sum of x over `axes`.
Atom reduce_sum(Builder& b, const Atom& x, const std::vector<int64_t>& axes);
/// The maximum of x over `axes`.
Atom reduce_max(Builder& b, const Atom& x, const std::vector<int64_t>& axes);
/// The minimum of x over `axes`.
Atom reduce_min(Builder& b, const Atom& x, const std::vector<int64_t>& axes);
/// How gather and scatter treat out-of-bounds indices (primitives/gather_scatter.h).
struct IndexMode {
  std::string mode = "promise_in_bounds";  ///< "clip", "fill" or "promise_in_bounds"
  bool unique_indices = false;             ///< no two indices write or read overlapping windows
  bool indices_are_sorted = false;         ///< the indices are sorted (a promise, as JAX's)
};
/// gather(x, idx) with gather dimension numbers `dims` (five lists) and
/// `slice_sizes`; fill_value NaN is JAX's None (the dtype's default fill).
Atom gather(Builder& b, const Atom& x, const Atom& idx, const IntLists& dims, const Shape& slice_sizes,
            const IndexMode& mode, double fill_value);
/// A scatter primitive (kScatter, kScatterAdd, ...) of updates u into x at idx, with scatter dimension numbers `dims`.
Atom scatter(Builder& b, Prim prim, const Atom& x, const Atom& idx, const Atom& u, const IntLists& dims,
             const IndexMode& mode);
/// x reversed along `dimensions` (rev).
Atom rev(Builder& b, const Atom& x, const std::vector<int64_t>& dimensions);
/// The JVP of a primitive that is linear in its one operand: d(f(x)) = f(dx).
std::vector<MaybeAtom> linear_jvp(Builder& b, Prim prim, const Params& params, const MaybeAtom& tangent);
/// The transpose rule of a primitive linear in none of its operands: fails
/// naming the first operand marked linear, else gives no cotangents.
std::vector<MaybeAtom> not_linear(const char* name, const std::vector<Atom>& inputs, const std::vector<bool>& linear);
/// `value` in the type of `like` (a broadcast literal, pvary'd to the axes `like` varies along).
Atom full_like(Builder& b, const Aval& like, double value);
/// Zeros of the type of `like` (a broadcast literal, as JAX instantiates
/// zeros, pvary'd to the axes `like` varies along).
Atom zeros_like(Builder& b, const Aval& like);

}  // namespace shardlab::ir
