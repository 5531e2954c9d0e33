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
/// a flat array of U; a scalar operand of a non-scalar result is repeated to
/// the result's size first (one operand stands for both for unary primitives).
template <class T, class U = T, class F>
void eval_binary_as(const std::vector<const Tensor*>& in, Tensor* out, F f) {
  const Eigen::Index n = num_elements(out->aval.shape);
  std::vector<T> repeated[2];
  const T* args[2];
  for (size_t i = 0; i < 2; ++i) {
    const Tensor* t = in[std::min(i, in.size() - 1)];
    args[i] = t->as<T>();
    if (num_elements(t->aval.shape) != n) {
      repeated[i].assign(static_cast<size_t>(n), args[i][0]);
      args[i] = repeated[i].data();
    }
  }
  f(Vec<U>(out->as<U>(), n), ConstVec<T>(args[0], n), ConstVec<T>(args[1], n));
}

}  // namespace shardlab::ir
