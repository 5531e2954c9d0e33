// Host arrays from and to plain vectors, for the tests' programs run by the
// lockstep executor (exec/lockstep_program.h's interpret).
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "exec/lockstep_program.h"

namespace shardlab::exec {

/// A host array of `dtype` and `shape` holding `values` (4-byte elements).
template <class T>
HostArray host_array(DType dtype, const Shape& shape, const std::vector<T>& values) {
  static_assert(sizeof(T) == 4, "host arrays hold 4-byte elements");
  HostArray h{ir::Aval{dtype, shape, {}}, std::vector<uint32_t>(values.size())};
  if (!values.empty()) std::memcpy(h.words.data(), values.data(), values.size() * 4);
  return h;
}

/// A float32 host array of `shape` holding `values`.
inline HostArray host_f32(const Shape& shape, const std::vector<float>& values) { return host_array(DType::kFloat32, shape, values); }
/// An int32 host array of `shape` holding `values`.
inline HostArray host_i32(const Shape& shape, const std::vector<int32_t>& values) { return host_array(DType::kInt32, shape, values); }

/// The elements of a host array as T (float for float32, int32_t for int32 or bool).
template <class T>
std::vector<T> host_values(const HostArray& a) {
  std::vector<T> v(a.words.size());
  if (!v.empty()) std::memcpy(v.data(), a.words.data(), v.size() * 4);
  return v;
}
/// The elements of a float32 host array.
inline std::vector<float> as_floats(const HostArray& a) { return host_values<float>(a); }
/// The elements of an int32 or bool (0/1) host array.
inline std::vector<int32_t> as_ints(const HostArray& a) { return host_values<int32_t>(a); }

}  // namespace shardlab::exec
