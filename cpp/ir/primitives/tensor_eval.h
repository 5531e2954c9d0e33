// The elementwise evaluation rules' bridge from tensors to the kernels
// (kernels/eigen_maps.h): operands and result as flat arrays.
#pragma once

#include <algorithm>
#include <vector>

#include "ir/core/primitive.h"
#include "kernels/eigen_maps.h"

namespace shardlab::ir {

/// Calls f(out, in) with both as flat Eigen arrays of T.
template <class T, class F>
void eval_unary_as(const Tensor* in, Tensor* out, F f) {
  kernels::unary<T>(in->as<T>(), out->as<T>(), num_elements(out->aval.shape), f);
}

/// Calls f(out, x, y) with the operands as flat arrays of T (a scalar operand
/// of a non-scalar result broadcast) and the result as a flat array of U; one
/// operand stands for both for unary primitives.
template <class T, class U = T, class F>
void eval_binary_as(const std::vector<const Tensor*>& in, Tensor* out, F f) {
  const int64_t n = num_elements(out->aval.shape);
  const Tensor* x = in[0];
  const Tensor* y = in[std::min<size_t>(1, in.size() - 1)];
  kernels::binary<T, U>(x->as<T>(), num_elements(x->aval.shape) == n, y->as<T>(), num_elements(y->aval.shape) == n,
                        out->as<U>(), n, f);
}

}  // namespace shardlab::ir
