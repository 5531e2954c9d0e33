// Eigen views of tensor elements, shared by the evaluation rules.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <vector>

#include "ir/primitive.h"

namespace shardlab::ir {

/// A tensor's elements as a writable flat Eigen array of T.
template <class T>
using Vec = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
/// A tensor's elements as a read-only flat Eigen array of T.
template <class T>
using ConstVec = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;

/// Calls f(out, in) with both as flat arrays of T.
template <class T, class F>
void eval_unary_as(const Tensor* in, Tensor* out, F f) {
  const Eigen::Index n = num_elements(out->aval.shape);
  f(Vec<T>(out->as<T>(), n), ConstVec<T>(in->as<T>(), n));
}

/// Calls f(out, x, y) with the operands as flat arrays of T and the result as
/// a flat array of U; a scalar operand of a non-scalar result is a constant
/// expression of the result's size (never a filled copy: nothing is allocated
/// per evaluation), and one operand stands for both for unary primitives.
template <class T, class U = T, class F>
void eval_binary_as(const std::vector<const Tensor*>& in, Tensor* out, F f) {
  using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
  const Eigen::Index n = num_elements(out->aval.shape);
  const Tensor* x = in[0];
  const Tensor* y = in[std::min<size_t>(1, in.size() - 1)];
  const bool x_full = num_elements(x->aval.shape) == n, y_full = num_elements(y->aval.shape) == n;
  Vec<U> z(out->as<U>(), n);
  if (x_full && y_full) {
    f(z, ConstVec<T>(x->as<T>(), n), ConstVec<T>(y->as<T>(), n));
  } else if (x_full) {
    f(z, ConstVec<T>(x->as<T>(), n), Array::Constant(n, y->as<T>()[0]));
  } else if (y_full) {
    f(z, Array::Constant(n, x->as<T>()[0]), ConstVec<T>(y->as<T>(), n));
  } else {
    f(z, Array::Constant(n, x->as<T>()[0]), Array::Constant(n, y->as<T>()[0]));
  }
}

}  // namespace shardlab::ir
