// A mesh: named axes laid over devices 0..n-1 in row-major order, as
// jax.make_mesh. Device d's coordinate along axis k is (d / stride_k) % size_k.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/dims.h"

namespace shardlab {

/// Most devices a mesh may have (bit masks of devices fit in 64 bits).
constexpr int kMaxDevices = 64;

/// A set of mesh axes resolved for a collective, in the order the caller named
/// them: positions along it count major-to-minor in that order, as in
/// jax.lax.axis_index(('a', 'b')) == a * size_b + b.
/// Resolving one is cheap (no allocation): collectives do it on every device
/// on every call; only error messages spell the names out.
class Mesh;
struct AxisGroup {
  Dims axes;                   ///< mesh axis numbers, in the caller's order
  uint32_t mask = 0;           ///< the same axes as a bit set over mesh axes
  int size = 1;                ///< number of devices in each group (product of axis sizes)
  const Mesh* mesh = nullptr;  ///< the mesh the axes belong to
  /// How messages name it: 'data' or ('data', 'model').
  std::string label() const;
};

/// Named axes over devices; immutable once built.
class Mesh {
 public:
  /// Builds a mesh of the given axis sizes and names; throws on empty or
  /// repeated names, sizes < 1, or more than kMaxDevices devices.
  Mesh(std::vector<int> shape, std::vector<std::string> axis_names);

  /// Number of devices (product of the axis sizes).
  int size() const { return size_; }
  /// Number of axes.
  int ndim() const { return static_cast<int>(shape_.size()); }
  /// Axis sizes.
  const std::vector<int>& shape() const { return shape_; }
  /// Axis names.
  const std::vector<std::string>& axis_names() const { return names_; }
  /// Size of axis `axis`.
  int axis_size(int axis) const { return shape_[axis]; }

  /// The number of the axis called `name`; throws a ValueError naming `fn`,
  /// the unknown name and the valid names.
  int axis_number(const std::string& name, std::string_view fn) const;
  /// Resolves axis names for `fn` (one or several, no repeats); throws a
  /// ValueError naming `fn` and the unknown or repeated name.
  AxisGroup axis_group(const std::vector<std::string>& names, std::string_view fn) const;
  /// Resolves axis names, or nothing if one is unknown or repeated: for
  /// callers that build an error context only when it is needed.
  std::optional<AxisGroup> find_axis_group(const std::vector<std::string>& names) const;

  /// Device d's coordinate along `axis`.
  int coord(int device, int axis) const { return (device / strides_[axis]) % shape_[axis]; }
  /// Device d's position within its group of `g` (axis_index over g's axes).
  int position(int device, const AxisGroup& g) const noexcept;
  /// The device of d's group of `g` at `position` (inverse of position()).
  int member(int device, const AxisGroup& g, int position) const noexcept;
  /// Which of the size()/g.size groups of `g` device d belongs to (0-based).
  int group_number(int device, uint32_t mask) const;
  /// Bit set of the devices in d's group over the axes of `mask`.
  uint64_t group_devices(int device, uint32_t mask) const;

  /// Text like Mesh('data': 2, 'model': 4).
  std::string str() const;

 private:
  std::vector<int> shape_;
  std::vector<std::string> names_;
  std::vector<int> strides_;
  int size_ = 1;
};

}  // namespace shardlab
