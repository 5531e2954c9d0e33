#include "runtime/mesh.h"

#include <algorithm>
#include <sstream>

#include "runtime/errors.h"

namespace shardlab {

namespace {

// Plain appends, not a stream: axis groups are labelled on hot paths too.
std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i ? ", '" : "'") + names[i] + "'";
  return out;
}

}  // namespace

Mesh::Mesh(std::vector<int> shape, std::vector<std::string> axis_names)
    : shape_(std::move(shape)), names_(std::move(axis_names)) {
  if (shape_.size() != names_.size())
    fail(ErrorKind::kValue, "Mesh: ", shape_.size(), " axis sizes but ", names_.size(),
         " axis names; give one name per axis");
  if (shape_.empty()) fail(ErrorKind::kValue, "Mesh: a mesh needs at least one axis");
  if (shape_.size() > 8) fail(ErrorKind::kValue, "Mesh: at most 8 axes are supported, got ", shape_.size());
  int64_t total = 1;
  for (size_t i = 0; i < shape_.size(); ++i) {
    if (shape_[i] < 1)
      fail(ErrorKind::kValue, "Mesh: axis '", names_[i], "' has size ", shape_[i], "; sizes must be >= 1");
    if (names_[i].empty()) fail(ErrorKind::kValue, "Mesh: axis ", i, " has an empty name");
    for (size_t j = 0; j < i; ++j)
      if (names_[j] == names_[i])
        fail(ErrorKind::kValue, "Mesh: axis name '", names_[i], "' is used twice in (", quoted_list(names_), ")");
    total *= shape_[i];
    if (total > kMaxDevices) fail(ErrorKind::kValue, "Mesh: ", str(), " has more than ", kMaxDevices, " devices");
  }
  size_ = static_cast<int>(total);
  strides_.assign(shape_.size(), 1);
  for (int k = static_cast<int>(shape_.size()) - 2; k >= 0; --k) strides_[k] = strides_[k + 1] * shape_[k + 1];
}

int Mesh::axis_number(const std::string& name, std::string_view fn) const {
  for (size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == name) return static_cast<int>(i);
  fail(ErrorKind::kValue, fn, ": unknown axis name '", name, "'; the mesh ", str(), " has axes (", quoted_list(names_),
       ")");
}

std::optional<AxisGroup> Mesh::find_axis_group(const std::vector<std::string>& names) const {
  AxisGroup g;
  g.mesh = this;
  for (const auto& name : names) {
    const auto it = std::find(names_.begin(), names_.end(), name);
    const int a = static_cast<int>(it - names_.begin());
    if (it == names_.end() || (g.mask & (1u << a))) return std::nullopt;
    g.axes.push_back(a);
    g.mask |= 1u << a;
    g.size *= shape_[a];
  }
  return g;
}

AxisGroup Mesh::axis_group(const std::vector<std::string>& names, std::string_view fn) const {
  if (auto g = find_axis_group(names)) return *g;
  // Some name is unknown or repeated: the first such, in order, is reported
  // (the loop ends in one of the two failures).
  for (size_t i = 0;; ++i) {
    axis_number(names[i], fn);
    for (size_t j = 0; j < i; ++j)
      if (names[j] == names[i])
        fail(ErrorKind::kValue, fn, ": axis '", names[i], "' appears twice in (", quoted_list(names), ")");
  }
}

std::string AxisGroup::label() const {
  std::vector<std::string> names;
  for (int64_t a : axes) names.push_back(mesh->axis_names()[static_cast<size_t>(a)]);
  return names.size() == 1 ? "'" + names[0] + "'" : "(" + quoted_list(names) + ")";
}

int Mesh::position(int device, const AxisGroup& g) const noexcept {
  int pos = 0;
  for (int64_t a : g.axes) pos = pos * shape_[a] + coord(device, static_cast<int>(a));
  return pos;
}

int Mesh::member(int device, const AxisGroup& g, int position) const noexcept {
  int d = device;
  for (int i = static_cast<int>(g.axes.size()) - 1; i >= 0; --i) {
    const auto a = static_cast<size_t>(g.axes[static_cast<size_t>(i)]);
    d += (position % shape_[a] - coord(device, a)) * strides_[a];
    position /= shape_[a];
  }
  return d;
}

int Mesh::group_number(int device, uint32_t mask) const {
  int g = 0;
  for (int a = 0; a < ndim(); ++a)
    if (!(mask & (1u << a))) g = g * shape_[a] + coord(device, a);
  return g;
}

uint64_t Mesh::group_devices(int device, uint32_t mask) const {
  uint64_t bits = 0;
  for (int e = 0; e < size_; ++e) {
    bool same = true;
    for (int a = 0; a < ndim() && same; ++a)
      if (!(mask & (1u << a)) && coord(e, a) != coord(device, a)) same = false;
    if (same) bits |= uint64_t{1} << e;
  }
  return bits;
}

std::string Mesh::str() const {
  std::ostringstream out;
  out << "Mesh(";
  for (size_t i = 0; i < shape_.size(); ++i) out << (i ? ", " : "") << "'" << names_[i] << "': " << shape_[i];
  out << ")";
  return out.str();
}

}  // namespace shardlab
