#include "ir/print.h"

#include <algorithm>
#include <sstream>

namespace shardlab::ir {

std::string var_name(VarId v) {
  // Base-26 digits, with the leading digit from 'b' on for names of two or more letters, as JAX.
  std::string s;
  int n = v;
  do {
    s.insert(s.begin(), static_cast<char>('a' + n % 26));
    n /= 26;
  } while (n > 0);
  return s;
}

namespace {

std::string atom_str(const Atom& a) {
  if (!a.is_literal()) return var_name(a.var);
  std::ostringstream out;
  if (a.aval.dtype == DType::kFloat32) {
    out << a.literal;
    if (out.str().find_first_of(".en") == std::string::npos) out << ".0";
  } else if (a.aval.dtype == DType::kBool) {
    out << (a.literal != 0 ? "True" : "False");
  } else {
    out << static_cast<int64_t>(a.literal);
  }
  return out.str() + ":" + a.aval.str();
}

std::string eqn_str(const Program& p, const Eqn& e) {
  std::ostringstream out;
  for (size_t i = 0; i < e.outputs.size(); ++i)
    out << (i ? " " : "") << var_name(e.outputs[i]) << ":" << p.avals[e.outputs[i]].str();
  out << " = " << primitive(e.prim).name;
  if (!e.params.empty()) {
    // Sorted by name, as jax.make_jaxpr prints them.
    std::vector<const Param*> sorted;
    for (const Param& p : e.params) sorted.push_back(&p);
    std::sort(sorted.begin(), sorted.end(), [](const Param* a, const Param* b) { return a->name < b->name; });
    out << "[";
    for (size_t i = 0; i < sorted.size(); ++i)
      out << (i ? " " : "") << sorted[i]->name << "=" << param_str(sorted[i]->value);
    out << "]";
  }
  for (const Atom& a : e.inputs) out << " " << atom_str(a);
  return out.str();
}

}  // namespace

std::string to_text(const Program& p) {
  std::ostringstream head;
  head << "{ lambda ; ";
  for (size_t i = 0; i < p.invars.size(); ++i)
    head << (i ? " " : "") << var_name(p.invars[i]) << ":" << p.avals[p.invars[i]].str();
  head << ". let";
  std::ostringstream tail;
  tail << "in (";
  for (size_t i = 0; i < p.outvars.size(); ++i) tail << (i ? ", " : "") << atom_str(p.outvars[i]);
  tail << (p.outvars.size() == 1 ? ",)" : ")") << " }";

  std::string one_line = head.str();
  for (const Eqn& e : p.eqns) one_line += " " + eqn_str(p, e);
  one_line += " " + tail.str();
  if (p.eqns.size() <= 1 && one_line.size() <= 80) return one_line;

  std::string text = head.str() + "\n";
  for (const Eqn& e : p.eqns) text += "    " + eqn_str(p, e) + "\n";
  return text + "  " + tail.str();
}

}  // namespace shardlab::ir
