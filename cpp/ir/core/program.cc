#include "ir/core/program.h"

#include <algorithm>
#include <cstring>

#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

bool same_atom(const Atom& a, const Atom& b) {
  // Literals by their bits (NaN equals NaN, 0.0 is not -0.0), variables by number.
  return a.var == b.var && a.aval == b.aval && std::memcmp(&a.literal, &b.literal, sizeof a.literal) == 0;
}

bool same_atoms(const std::vector<Atom>& a, const std::vector<Atom>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), same_atom);
}

bool same_value(const ParamValue& a, const ParamValue& b) {
  if (a.index() != b.index()) return false;
  if (const auto* p = std::get_if<ProgramRef>(&a)) return same_program(**p, *std::get<ProgramRef>(b));
  if (const auto* ps = std::get_if<Programs>(&a)) {
    const Programs& qs = std::get<Programs>(b);
    return std::equal(ps->begin(), ps->end(), qs.begin(), qs.end(),
                      [](const ProgramRef& x, const ProgramRef& y) { return same_program(*x, *y); });
  }
  return a == b;
}

}  // namespace

bool same_program(const Program& a, const Program& b) {
  if (a.avals != b.avals || a.invars != b.invars || !same_atoms(a.outvars, b.outvars) || a.eqns.size() != b.eqns.size() ||
      a.scope.mesh != b.scope.mesh || a.scope.check_vma != b.scope.check_vma)
    return false;
  for (size_t i = 0; i < a.eqns.size(); ++i) {
    const Eqn &x = a.eqns[i], &y = b.eqns[i];
    if (x.prim != y.prim || x.outputs != y.outputs || !same_atoms(x.inputs, y.inputs) ||
        x.params.size() != y.params.size())
      return false;
    for (size_t k = 0; k < x.params.size(); ++k)
      if (x.params[k].name != y.params[k].name || !same_value(x.params[k].value, y.params[k].value)) return false;
  }
  return true;
}

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
