#include "ir/core/program.h"

#include "runtime/errors.h"

namespace shardlab::ir {

std::vector<const Program*> subprograms(const Eqn& e) {
  std::vector<const Program*> out;
  for (const Param& p : e.params) {
    if (const auto* one = std::get_if<ProgramRef>(&p.value)) out.push_back(one->get());
    if (const auto* many = std::get_if<Programs>(&p.value))
      for (const ProgramRef& q : *many) out.push_back(q.get());
  }
  return out;
}

namespace {

void collect_mesh(const Program& p, const char* what, MeshRef& found) {
  for (const Eqn& e : p.eqns) {
    if (e.prim == Prim::kShardMap) {
      const MeshRef& m = param<MeshRef>(e.params, "mesh", "shard_map");
      if (!found) found = m;
      else if (m->shape() != found->shape() || m->axis_names() != found->axis_names())
        fail(ErrorKind::kSharding, what, ": one program uses two meshes (", found->str(), " and ", m->str(),
             "); use one mesh per program");
    }
    for (const Program* sub : subprograms(e)) collect_mesh(*sub, what, found);
  }
}

}  // namespace

MeshRef program_mesh(const Program& p, const char* what) {
  MeshRef found;
  collect_mesh(p, what, found);
  return found;
}

std::string types_str(const std::vector<Atom>& values) {
  std::string s = "(";
  for (size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + values[i].aval.str();
  return s + (values.size() == 1 ? ",)" : ")");
}

}  // namespace shardlab::ir
