#include "ir/core/sharding.h"

#include <algorithm>
#include <utility>

#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

const std::vector<std::string> kNone;

// JAX's _create_str: X, or (X,Y) for several axes.
std::string axes_group(const std::vector<std::string>& axes) {
  std::string s;
  for (size_t i = 0; i < axes.size(); ++i) s += (i ? "," : "") + axes[i];
  return axes.size() == 1 ? s : "(" + s + ")";
}

// Python's set repr of axis names: {'X', 'Y'}.
std::string set_text(const std::vector<std::string>& axes) {
  std::string s = "{";
  for (size_t i = 0; i < axes.size(); ++i) s += (i ? ", '" : "'") + axes[i] + "'";
  return s + "}";
}

}  // namespace

const std::vector<std::string>& Sharding::dim(size_t d) const { return d < dims.size() ? dims[d] : kNone; }

std::vector<std::string> Sharding::repeated_axes() const {
  std::vector<std::string> all, repeated;
  for (const auto& d : dims) all.insert(all.end(), d.begin(), d.end());
  all.insert(all.end(), unreduced.begin(), unreduced.end());
  all.insert(all.end(), reduced.begin(), reduced.end());
  std::sort(all.begin(), all.end());
  for (size_t i = 1; i < all.size(); ++i)
    if (all[i] == all[i - 1] && (repeated.empty() || repeated.back() != all[i])) repeated.push_back(all[i]);
  return repeated;
}

int64_t Sharding::size_of(const std::vector<std::string>& axes) const {
  int64_t n = 1;
  for (const std::string& a : axes)
    for (const MeshAxis& m : mesh)
      if (m.name == a) n *= m.size;
  return n;
}

Sharding Sharding::with_dims(std::vector<std::vector<std::string>> new_dims) const {
  Sharding s = *this;
  s.dims = std::move(new_dims);
  return std::move(s).for_type();
}

Sharding Sharding::cotangent() const {
  Sharding s = *this;
  std::swap(s.unreduced, s.reduced);
  return s;
}

Sharding Sharding::normalized() && {
  if (std::all_of(dims.begin(), dims.end(), [](const auto& d) { return d.empty(); })) dims.clear();
  // Unreduced and reduced axes are sets: kept in mesh order, as JAX prints them.
  auto in_mesh_order = [&](std::vector<std::string>& axes) {
    std::vector<std::string> out;
    for (const MeshAxis& m : mesh)
      if (std::find(axes.begin(), axes.end(), m.name) != axes.end()) out.push_back(m.name);
    axes = std::move(out);
  };
  in_mesh_order(unreduced);
  in_mesh_order(reduced);
  return std::move(*this);
}

Sharding Sharding::for_type() const {
  Sharding s = Sharding(*this).normalized();
  if (s.empty()) s.mesh.clear();
  return s;
}

std::string Sharding::repr(size_t ndim) const {
  if (mesh.empty()) return "None";
  // As JAX 0.11 writes an AbstractMesh: AbstractMesh('X': 4, axis_types=(Explicit,), device_kind=cpu, num_cores=None).
  std::string axes, types;
  for (size_t i = 0; i < mesh.size(); ++i) {
    axes += (i ? ", '" : "'") + mesh[i].name + "': " + std::to_string(mesh[i].size);
    types += std::string(i ? ", " : "") + (mesh[i].is_explicit ? "Explicit" : "Auto");
  }
  if (mesh.size() == 1) types += ",";
  return "NamedSharding(mesh=AbstractMesh(" + axes + ", axis_types=(" + types +
         "), device_kind=cpu, num_cores=None), spec=" + spec_text(ndim) + ")";
}

std::string Sharding::shape_text(const Shape& shape) const {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) {
    s += (i ? "," : "") + std::to_string(shape[i]);
    if (!dim(i).empty()) s += "@" + axes_group(dim(i));
  }
  return s;
}

std::string Sharding::state_text() const {
  std::string s;
  if (!unreduced.empty()) s += "U:" + axes_group(unreduced);
  if (!reduced.empty()) s += (s.empty() ? "R:" : ", R:") + axes_group(reduced);
  return s;
}

std::string spec_entry_text(const std::vector<std::string>& axes) {
  if (axes.empty()) return "None";
  if (axes.size() == 1) return "'" + axes[0] + "'";
  std::string s = "(";
  for (size_t i = 0; i < axes.size(); ++i) s += (i ? ", '" : "'") + axes[i] + "'";
  return s + ")";
}

std::string Sharding::spec_text(size_t ndim) const {
  std::string s = "P(";
  for (size_t i = 0; i < ndim; ++i) s += (i ? ", " : "") + spec_entry_text(dim(i));
  if (ndim == 1) s += ",";
  if (!unreduced.empty()) s += std::string(ndim ? ", " : "") + "unreduced=" + set_text(unreduced);
  if (!reduced.empty()) s += std::string(ndim || !unreduced.empty() ? ", " : "") + "reduced=" + set_text(reduced);
  return s + ")";
}

void check_sharding(const Sharding& s, const Shape& shape, const std::string& fn, const std::string& what) {
  if (s.dims.size() > shape.size())
    fail(ErrorKind::kSharding, fn, ": ", what, "'s sharding ", s.spec_text(s.dims.size()), " has ", s.dims.size(),
         " entries but its shape ", shape_str(shape), " has ", shape.size(), " dimensions");
  auto named = [&](const std::string& axis) {
    if (std::none_of(s.mesh.begin(), s.mesh.end(), [&](const MeshAxis& m) { return m.name == axis; }))
      fail(ErrorKind::kSharding, fn, ": ", what, "'s sharding ", s.spec_text(shape.size()), " names axis '", axis,
           "', which its mesh does not have");
  };
  for (const auto& d : s.dims)
    for (const std::string& axis : d) named(axis);
  for (const std::string& axis : s.unreduced) named(axis);
  for (const std::string& axis : s.reduced) named(axis);
  if (const std::vector<std::string> repeated = s.repeated_axes(); !repeated.empty()) {
    // JAX's DuplicateSpecError, word for word (its axes quoted as mesh.show_axes does).
    std::string axes;
    for (const std::string& a : repeated) axes += (axes.empty() ? "`" : ", `") + a + "`";
    fail(ErrorKind::kShardingType, "A single NamedSharding spec specification can map every mesh axis to at most one ",
         "positional dimension, but ", s.spec_text(shape.size()), " has duplicate entries for ", axes);
  }
  for (size_t d = 0; d < s.dims.size(); ++d) {
    const int64_t n = s.size_of(s.dims[d]);
    if (shape[d] % n != 0)
      fail(ErrorKind::kSharding, fn, ": ", what, "'s dimension ", d, " of size ", shape[d],
           " is not divisible by the ", n, " devices of mesh axes ", spec_entry_text(s.dims[d]), " it is split over (",
           s.spec_text(shape.size()), " on shape ", shape_str(shape), ")");
  }
}

}  // namespace shardlab::ir
