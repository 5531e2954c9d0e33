// The element loops of the reductions (psum, pmax, pmin, psum_scatter). They fold up to 8 peers' inputs in one pass over the
// destination, always in the order given (ascending device order), so the
// result is bitwise that of a serial loop. Folding many inputs per pass
// matters in wasm, where the destination's load and store per input per
// element otherwise cost more than the inputs' own loads (a 2^20-float psum
// took 1.6 ms folding one input per pass, 1.2 ms folding three).
#pragma once

#include <cstdint>
#include <cstring>

namespace shardlab {

/// How all_reduce combines values.
enum class ReduceOp : uint8_t { kSum, kMax, kMin };

namespace kernels {

/// a + b; int32 sums wrap, as in XLA.
template <class T>
struct Add {
  T operator()(T a, T b) const { return a + b; }
};
template <>
struct Add<int32_t> {
  int32_t operator()(int32_t a, int32_t b) const {
    return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
  }
};
/// max(a, b); a NaN operand gives NaN, as lax.max.
template <class T>
struct Max {
  T operator()(T a, T b) const { return (a > b || a != a) ? a : b; }
};
/// min(a, b); a NaN operand gives NaN, as lax.min.
template <class T>
struct Min {
  T operator()(T a, T b) const { return (a < b || a != a) ? a : b; }
};

/// dst[i] = f(...f(f(Init ? s[0][i] : dst[i], ...)...), s[K-1][i]): every
/// bound known at compile time so the loop vectorises.
template <int K, bool Init, class T, class F>
void fold_k(T* dst, const T* const* srcs, int64_t n, F f) {
  const T* s[K];
  for (int k = 0; k < K; ++k) s[k] = srcs[k];  // locals: dst stores cannot alias them
  for (int64_t i = 0; i < n; ++i) {
    T v = Init ? s[0][i] : dst[i];
    for (int k = Init ? 1 : 0; k < K; ++k) v = f(v, s[k][i]);
    dst[i] = v;
  }
}

/// fold_k for a run-time k in 1..8.
template <bool Init, class T, class F>
void fold(T* dst, const T* const* srcs, int k, int64_t n, F f) {
  switch (k) {
    case 1:
      return fold_k<1, Init>(dst, srcs, n, f);
    case 2:
      return fold_k<2, Init>(dst, srcs, n, f);
    case 3:
      return fold_k<3, Init>(dst, srcs, n, f);
    case 4:
      return fold_k<4, Init>(dst, srcs, n, f);
    case 5:
      return fold_k<5, Init>(dst, srcs, n, f);
    case 6:
      return fold_k<6, Init>(dst, srcs, n, f);
    case 7:
      return fold_k<7, Init>(dst, srcs, n, f);
    default:
      return fold_k<8, Init>(dst, srcs, n, f);
  }
}

/// dst = srcs[0] f srcs[1] f ... f srcs[n-1], in that order, 8 inputs per pass.
template <class T, class F>
void fold_all(T* dst, const T* const* srcs, int n, int64_t len, F f) {
  fold<true>(dst, srcs, n < 8 ? n : 8, len, f);
  for (int done = 8; done < n; done += 8) fold<false>(dst, srcs + done, n - done < 8 ? n - done : 8, len, f);
}

}  // namespace kernels

/// Reduces `len` elements of the `n` arrays `srcs` (in the order given) into
/// dst with `op`. dst may be one of srcs.
template <class T>
void reduce_arrays(ReduceOp op, T* dst, const T* const* srcs, int n, int64_t len) {
  switch (op) {
    case ReduceOp::kMax:
      return kernels::fold_all(dst, srcs, n, len, kernels::Max<T>{});
    case ReduceOp::kMin:
      return kernels::fold_all(dst, srcs, n, len, kernels::Min<T>{});
    case ReduceOp::kSum:
      return kernels::fold_all(dst, srcs, n, len, kernels::Add<T>{});
  }
}

}  // namespace shardlab
