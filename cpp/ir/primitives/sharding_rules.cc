#include "ir/primitives/sharding_rules.h"

#include <algorithm>

#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

// A tuple of spec entries as Python writes it: ('X', None).
std::string entries_text(const Sharding& s, size_t rank) {
  std::string t = "(";
  for (size_t d = 0; d < rank; ++d) t += (d ? ", " : "") + spec_entry_text(s.dim(d));
  return t + (rank == 1 ? ",)" : ")");
}

}  // namespace

std::vector<MeshAxis> common_mesh(const char* name, const std::vector<Aval>& in) {
  const std::vector<MeshAxis>* mesh = nullptr;
  for (const Aval& a : in) {
    if (a.sharding.mesh.empty()) continue;
    if (mesh && *mesh != a.sharding.mesh)
      fail(ErrorKind::kShardingType, name, ": Mesh for all inputs should be equal; operands are sharded over meshes of ",
           "different axes (reshard one onto the other's mesh)");
    mesh = &a.sharding.mesh;
  }
  return mesh ? *mesh : std::vector<MeshAxis>{};
}

void check_settled(const char* name, const std::vector<Aval>& in) {
  for (const Aval& a : in)
    if (!a.sharding.unreduced.empty())
      fail(ErrorKind::kShardingType, name, ": an operand of type ", a.str(), " is unreduced over mesh axes, which ", name,
           " cannot take (a function of partial sums is not the partial sum of the function); jax.reshard it to a ",
           "spec without unreduced axes first");
}

std::vector<std::string> common_reduced(const char* name, const std::vector<Aval>& in) {
  const std::vector<std::string>* reduced = nullptr;
  for (const Aval& a : in) {
    if (a.sharding.reduced.empty()) continue;
    if (reduced && *reduced != a.sharding.reduced) {
      std::string specs;
      for (const Aval& b : in)
        if (!b.sharding.reduced.empty()) specs += (specs.empty() ? "" : ", ") + b.str();
      fail(ErrorKind::kShardingType, name, ": All inputs should be reduced across the same mesh axes. Got ", specs);
    }
    reduced = &a.sharding.reduced;
  }
  if (!reduced) return {};
  // Every other operand (scalars aside) is reduced over those axes too: neither replicated nor split over them.
  const std::vector<std::string> axes = *reduced;
  for (const Aval& a : in) {
    if (a.shape.empty() || a.sharding.reduced == axes) continue;
    bool split = false;
    for (const auto& dim : a.sharding.dims)
      for (const std::string& x : dim) split = split || std::find(axes.begin(), axes.end(), x) != axes.end();
    if (split)
      fail(ErrorKind::kShardingType, name, ": Inputs cannot be sharded/varying on the same axes that another input is ",
           "reduced on. Reshard the input which is reduced to be sharded on the mesh axes it is reduced on via ",
           "`jax.sharding.reshard(inp, jax.P(...))`. Got input type: ", a.str(), " and reduced spec: ", spec_entry_text(axes));
    fail(ErrorKind::kShardingType, name, ": Inputs cannot be replicated on the same axes that another input is reduced on. ",
         "Got input type: ", a.str(), " and reduced spec: ", spec_entry_text(axes));
  }
  return axes;
}

Sharding broadcast_sharding(const char* name, const std::vector<Aval>& in, bool linear) {
  Sharding out;
  out.mesh = common_mesh(name, in);
  if (out.mesh.empty()) return out;
  const Aval* first = nullptr;
  for (const Aval& a : in) {
    if (a.shape.empty()) continue;
    if (first && a.ndim() != first->ndim())
      fail(ErrorKind::kShape, name, ": arrays must have same number of dimensions, got ", shape_str(first->shape), ", ",
           shape_str(a.shape), ".");
    if (!first) first = &a;
  }
  if (first) {
    out.dims.resize(first->shape.size());
    for (size_t d = 0; d < out.dims.size(); ++d) {
      for (const Aval& a : in) {
        if (a.shape.empty() || a.sharding.dim(d).empty()) continue;
        if (out.dims[d].empty()) {
          out.dims[d] = a.sharding.dim(d);
        } else if (out.dims[d] != a.sharding.dim(d)) {
          std::string specs;
          for (const Aval& b : in)
            if (!b.shape.empty()) specs += (specs.empty() ? "" : ", ") + entries_text(b.sharding, b.shape.size());
          fail(ErrorKind::kShardingType, name, " got incompatible shardings for broadcasting: ", specs, ".");
        }
      }
    }
  }
  // Unreduced values add up as sums of shards only with each other (JAX's nary rule).
  if (linear) {
    for (const Aval& a : in)
      if (a.sharding.unreduced != in[0].sharding.unreduced || a.sharding.reduced != in[0].sharding.reduced)
        fail(ErrorKind::kShardingType, name, ": operands must be unreduced and reduced over the same mesh axes, got ",
             in[0].str(), " and ", a.str(), "; jax.reshard one of them first");
    out.unreduced = in[0].sharding.unreduced;
    out.reduced = in[0].sharding.reduced;
  } else {
    check_settled(name, in);
    out.reduced = common_reduced(name, in);
  }
  return std::move(out).normalized();
}

Sharding mapped_sharding(const Sharding& s, const std::vector<int64_t>& from) {
  std::vector<std::vector<std::string>> dims;
  for (int64_t d : from) dims.push_back(d < 0 ? std::vector<std::string>{} : s.dim(static_cast<size_t>(d)));
  return s.with_dims(std::move(dims));
}

Sharding without_dims(const Sharding& s, size_t rank, const std::vector<int64_t>& axes) {
  std::vector<int64_t> kept;
  for (size_t d = 0; d < rank; ++d)
    if (std::find(axes.begin(), axes.end(), static_cast<int64_t>(d)) == axes.end()) kept.push_back(static_cast<int64_t>(d));
  return mapped_sharding(s, kept);
}

Sharding varying_shape_sharding(const char* what, const Aval& operand, const Aval& out) {
  if (out.shape.empty() || std::all_of(out.shape.begin(), out.shape.end(), [](int64_t n) { return n == 1; }))
    return Sharding{};
  const Sharding& s = operand.sharding;
  for (size_t d = 0; d < operand.shape.size(); ++d) {
    const int64_t n = s.size_of(s.dim(d));
    if (operand.shape[d] != out.shape[d] && !s.dim(d).empty() && out.shape[d] % n != 0)
      fail(ErrorKind::kShardingType, what, " on sharded dims where out dim (", out.shape[d],
           ") is not divisible by mesh axes (", n, ") with spec (", spec_entry_text(s.dim(d)),
           ") is not implemented. Got input type=", operand.str(), " and output shape=", shape_str(out.shape));
  }
  return s;
}

void unsupported_sharded(const char* name, const std::vector<Aval>& in) {
  check_settled(name, in);
  for (const Aval& a : in)
    if (!a.sharding.empty())
      fail(ErrorKind::kShardingType, name, ": ShardLab has no sharding rule for ", name, " on an operand sharded as ",
           a.str(), " yet; jax.reshard it to P() first (or use a mesh whose axes are Auto)");
}

std::vector<Sharding> leading_sharding(const char* name, const std::vector<Aval>& in, const std::vector<Aval>& out) {
  check_settled(name, in);
  Sharding lead;
  lead.mesh = common_mesh(name, in);
  size_t batch = SIZE_MAX;
  for (const Aval& a : in) batch = std::min(batch, a.shape.size() >= 2 ? a.shape.size() - 2 : 0);
  for (const Aval& a : in) {
    for (size_t d = 0; d < a.shape.size(); ++d) {
      if (d >= batch) {
        if (!a.sharding.dim(d).empty())
          fail(ErrorKind::kShardingType, name, ": the matrix dimensions of ", a.str(),
               " must be unsharded; jax.reshard them to None first (the leading, batch dimensions may be sharded)");
        continue;
      }
      if (lead.dims.size() <= d) lead.dims.resize(d + 1);
      if (lead.dims[d].empty()) lead.dims[d] = a.sharding.dim(d);
      else if (!a.sharding.dim(d).empty() && lead.dims[d] != a.sharding.dim(d))
        fail(ErrorKind::kShardingType, name, ": operands' batch dimensions are sharded differently (", a.str(),
             "); jax.reshard them alike");
    }
  }
  std::vector<Sharding> r;
  for (const Aval& o : out) {
    std::vector<int64_t> from;
    for (size_t d = 0; d < o.shape.size(); ++d) from.push_back(d < batch && d < lead.dims.size() ? static_cast<int64_t>(d) : -1);
    r.push_back(mapped_sharding(lead, from));
  }
  return r;
}

}  // namespace shardlab::ir
