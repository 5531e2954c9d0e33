// Eigen views of flat element buffers, for the elementwise kernels: a
// buffer of n elements as an Eigen array, and a binary operation over two
// operands each either full (n elements) or a scalar broadcast to n.
#pragma once

#include <Eigen/Core>
#include <cstdint>

namespace shardlab::kernels {

/// n elements of T as a writable flat Eigen array.
template <class T>
using Vec = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
/// n elements of T as a read-only flat Eigen array.
template <class T>
using ConstVec = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;

/// f(out, in) over n elements.
template <class T, class U = T, class F>
void unary(const T* in, U* out, int64_t n, F f) {
  f(Vec<U>(out, n), ConstVec<T>(in, n));
}

/// f(out, x, y) over n elements, x and y each full (n elements) or one
/// element standing for all: a scalar operand is a constant expression of
/// the result's size (never a filled copy: nothing is allocated per call).
template <class T, class U = T, class F>
void binary(const T* x, bool x_full, const T* y, bool y_full, U* out, int64_t n, F f) {
  using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
  Vec<U> z(out, n);
  if (x_full && y_full) {
    f(z, ConstVec<T>(x, n), ConstVec<T>(y, n));
  } else if (x_full) {
    f(z, ConstVec<T>(x, n), Array::Constant(n, y[0]));
  } else if (y_full) {
    f(z, Array::Constant(n, x[0]), ConstVec<T>(y, n));
  } else {
    f(z, Array::Constant(n, x[0]), Array::Constant(n, y[0]));
  }
}

}  // namespace shardlab::kernels
