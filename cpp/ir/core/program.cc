#include "ir/core/program.h"

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

std::string types_str(const std::vector<Atom>& values) {
  std::string s = "(";
  for (size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + values[i].aval.str();
  return s + (values.size() == 1 ? ",)" : ")");
}

}  // namespace shardlab::ir
