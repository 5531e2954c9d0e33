#include "runtime/partition_spec.h"

#include <algorithm>

#include "runtime/errors.h"

namespace shardlab {

std::string PartitionSpec::str() const {
  std::string out = "P(";
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i) out += ", ";
    const auto& e = entries[i];
    if (e.empty()) {
      out += "None";
    } else if (e.size() == 1) {
      out += "'" + e[0] + "'";
    } else {
      out += "(";
      for (size_t j = 0; j < e.size(); ++j) out += (j ? ", '" : "'") + e[j] + "'";
      out += ")";
    }
  }
  if (entries.size() == 1 && entries[0].size() > 1) out += ",";
  return out + ")";
}

Dims Layout::block_index(const Mesh& mesh, int device) const noexcept {
  Dims idx(global.size(), 0);
  for (size_t i = 0; i < global.size(); ++i) idx[i] = mesh.position(device, dim_axes[i]);
  return idx;
}

int Layout::owner(const Mesh& mesh, int device) const noexcept {
  const Dims idx = block_index(mesh, device);
  for (int e = 0; e < device; ++e)
    if (block_index(mesh, e) == idx) return e;
  return device;
}

Layout make_layout(const Mesh& mesh, const Shape& global, const PartitionSpec& spec, std::string_view fn) {
  if (spec.entries.size() > global.size())
    fail(ErrorKind::kSharding, fn, ": ", spec.str(), " has ", spec.entries.size(), " entries but the array has rank ",
         global.size(), " (shape ", shape_str(global), "); a spec may have at most one entry per dimension");
  Layout layout;
  layout.global = global;
  layout.block = global;
  for (size_t i = 0; i < global.size(); ++i) {
    if (global[i] < 0) fail(ErrorKind::kShape, fn, ": negative dimension in shape ", shape_str(global));
    static const std::vector<std::string> kNotSplit;
    const auto& names = i < spec.entries.size() ? spec.entries[i] : kNotSplit;
    // The error context is built only for names the mesh cannot resolve
    // (a layout is made for every input and output of every call).
    std::optional<AxisGroup> found = mesh.find_axis_group(names);
    const AxisGroup g =
        found ? *std::move(found)
              : mesh.axis_group(names, std::string(fn) + " (" + spec.str() + ", dimension " + std::to_string(i) + ")");
    if (g.mask & layout.split_mask) {
      for (int a : g.axes)
        if (layout.split_mask & (1u << a))
          fail(ErrorKind::kSharding, fn, ": mesh axis '", mesh.axis_names()[a], "' is used more than once in ",
               spec.str(), "; each axis may split at most one dimension");
    }
    layout.split_mask |= g.mask;
    if (global[i] % g.size != 0)
      fail(ErrorKind::kSharding, fn, ": dimension ", i, " of shape ", shape_str(global), " has size ", global[i],
           ", which is not divisible by ", g.size, " (the size of mesh axis ", g.label(), " in ", spec.str(), ")");
    layout.block[i] = global[i] / g.size;
    layout.dim_axes.push_back(std::move(g));
  }
  return layout;
}

bool PartitionSpec::splits_like(const PartitionSpec& other) const {
  const size_t n = std::max(entries.size(), other.entries.size());
  for (size_t d = 0; d < n; ++d) {
    const bool mine = d < entries.size() && !entries[d].empty();
    const bool theirs = d < other.entries.size() && !other.entries[d].empty();
    if (mine != theirs || (mine && entries[d] != other.entries[d])) return false;
  }
  return true;
}

}  // namespace shardlab
