// Eigen views of tensor elements, shared by the evaluation rules.
#pragma once

#include <Eigen/Core>

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

}  // namespace shardlab::ir
