#include "ir/forms/print.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
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

// Python's repr of the double x (JAX prints a literal as str() of its value,
// a float32 widened to a Python float: 1.1 as 1.100000023841858): the
// fewest significant digits that read back as x, positional for decimal
// exponents from -4 to 15 (with '.0' when integral), else d.ddde+XX.
std::string python_float_repr(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[40];
  int digits = 1;
  for (; digits < 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*e", digits - 1, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  std::snprintf(buf, sizeof buf, "%.*e", digits - 1, x);
  const std::string text = buf;  // [-]d.ddde[+-]XX
  const size_t e = text.find('e');
  const int exponent = std::atoi(text.c_str() + e + 1);
  const bool negative = text[0] == '-';
  std::string mantissa;  // the significant digits, without the point
  for (size_t i = negative ? 1 : 0; i < e; ++i)
    if (text[i] != '.') mantissa += text[i];
  while (mantissa.size() > 1 && mantissa.back() == '0') mantissa.pop_back();
  std::string out = negative ? "-" : "";
  if (exponent < -4 || exponent >= 16) {
    out += mantissa.substr(0, 1) + (mantissa.size() > 1 ? "." + mantissa.substr(1) : "");
    char exp[8];
    std::snprintf(exp, sizeof exp, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
    return out + exp;
  }
  if (exponent < 0) return out + "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + mantissa;
  const size_t point = static_cast<size_t>(exponent) + 1;
  if (mantissa.size() <= point) return out + mantissa + std::string(point - mantissa.size(), '0') + ".0";
  return out + mantissa.substr(0, point) + "." + mantissa.substr(point);
}

int lines_in(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

// Names variables in order of appearance, as JAX's printer does, with one
// counter shared by a program and the programs nested in it. Records where
// each nested program printed on several lines has its equations, in lines
// from the start of the text being built (shifted as texts are joined).
class Printer {
 public:
  std::vector<PrintedBody> bodies;

  // The text of p, whose equations go at column indent + 4.
  std::string program(const Program& p, int indent, size_t num_consts = 0) {
    Names names;
    auto name = [&](VarId v) { return names.emplace(v, var_name(counter_)).second ? var_name(counter_++) : names[v]; };
    std::ostringstream head;
    head << "{ lambda ";
    const size_t args = p.invars.size() - std::min(num_consts, p.invars.size());
    for (size_t i = args; i < p.invars.size(); ++i)
      head << (i > args ? " " : "") << name(p.invars[i]) << ":" << p.avals[p.invars[i]].str();
    head << "; ";
    for (size_t i = 0; i < args; ++i)
      head << (i ? " " : "") << name(p.invars[i]) << ":" << p.avals[p.invars[i]].str();
    head << ". let";
    // An equation's output nothing reads prints as `_` (JAX's DropVar, which
    // its tracing puts in place of every unused output) and takes no name.
    std::vector<bool> used(p.avals.size(), false);
    for (const Eqn& e : p.eqns)
      for (const Atom& a : e.inputs)
        if (!a.is_literal()) used[static_cast<size_t>(a.var)] = true;
    for (const Atom& a : p.outvars)
      if (!a.is_literal()) used[static_cast<size_t>(a.var)] = true;
    std::vector<std::string> eqns;
    std::vector<std::vector<PrintedBody>> inner;  // the bodies inside each equation, lines from its start
    for (const Eqn& e : p.eqns) {
      const size_t before = bodies.size();
      eqns.push_back(eqn(p, e, names, used, indent + 4));
      inner.emplace_back(bodies.begin() + static_cast<std::ptrdiff_t>(before), bodies.end());
      bodies.resize(before);
    }
    std::ostringstream tail;
    tail << "in (";
    for (size_t i = 0; i < p.outvars.size(); ++i) tail << (i ? ", " : "") << atom(p.outvars[i], names);
    tail << (p.outvars.size() == 1 ? ",)" : ")") << " }";

    // JAX prints a program as one group: on one line, its equations joined
    // by "; ", when that fits in 80 columns (its pretty printer's width),
    // else one equation per line.
    std::string one_line = head.str();
    for (size_t i = 0; i < eqns.size(); ++i) one_line += (i ? "; " : " ") + eqns[i];
    one_line += " " + tail.str();
    if (one_line.size() <= 80 && one_line.find('\n') == std::string::npos) return one_line;
    std::string text = head.str() + "\n";
    // Lines are counted as they are written (counting the text again for each equation would be quadratic).
    int lines = 1;
    // A nested program's own equations come before the bodies nested in them.
    const size_t own = bodies.size();
    if (indent > 0) bodies.push_back(PrintedBody{});
    for (size_t i = 0; i < eqns.size(); ++i) {
      for (PrintedBody b : inner[i]) bodies.push_back(PrintedBody{b.first + lines, b.last + lines, b.equations});
      text += std::string(indent + 4, ' ') + eqns[i] + "\n";
      lines += 1 + lines_in(eqns[i]);
    }
    if (indent > 0) bodies[own] = PrintedBody{1, lines, static_cast<int>(p.eqns.size())};
    return text + std::string(indent + 2, ' ') + tail.str();
  }

 private:
  using Names = std::map<VarId, std::string>;

  static std::string atom(const Atom& a, Names& names) {
    if (!a.is_literal()) return names[a.var];
    std::ostringstream out;
    if (a.aval.dtype == DType::kFloat32) {
      out << python_float_repr(static_cast<double>(static_cast<float>(a.literal)));
    } else if (a.aval.dtype == DType::kBool) {
      out << (a.literal != 0 ? "True" : "False");
    } else {
      out << static_cast<int64_t>(a.literal);
    }
    return out.str() + ":" + a.aval.str();
  }

  std::string eqn(const Program& p, const Eqn& e, Names& names, const std::vector<bool>& used, int indent) {
    std::ostringstream out;
    for (size_t i = 0; i < e.outputs.size(); ++i) {
      const VarId v = e.outputs[i];
      if (used[static_cast<size_t>(v)]) names.emplace(v, var_name(counter_++));
      out << (i ? " " : "") << (used[static_cast<size_t>(v)] ? names[v] : "_") << ":" << p.avals[v].str();
    }
    out << " = " << primitive(e.prim).name;
    // Params sorted by name, as jax.make_jaxpr prints them (a custom call's
    // `name` first, and its num_consts only when not 0, as JAX's printing
    // rules for them do); one per line when one of them is a program.
    std::vector<const Param*> sorted;
    std::map<const Param*, ParamFormat> formats;
    bool nested = false;
    const ParamSchema& schema = primitive(e.prim).params;
    for (size_t i = 0; i < e.params.size(); ++i) {
      const Param& prm = e.params[i];
      const bool hidden = i < schema.size && schema.items[i].printed_if_nonzero &&
                          std::get_if<int64_t>(&prm.value) && std::get<int64_t>(prm.value) == 0;
      if (hidden) continue;
      sorted.push_back(&prm);
      if (i < schema.size) formats[&prm] = schema.items[i].format;
      nested = nested || std::holds_alternative<ProgramRef>(prm.value) || std::holds_alternative<Programs>(prm.value);
    }
    std::sort(sorted.begin(), sorted.end(), [](const Param* a, const Param* b) {
      return (a->name == "name") != (b->name == "name") ? a->name == "name" : a->name < b->name;
    });
    if (!sorted.empty()) {
      out << "[";
      for (size_t i = 0; i < sorted.size(); ++i) {
        if (nested) {
          out << "\n" << std::string(indent + 2, ' ');
        } else if (i) {
          out << " ";
        }
        out << sorted[i]->name << "=";
        if (const auto* sub = std::get_if<ProgramRef>(&sorted[i]->value)) {
          nested_program(out, **sub, indent + 2);
        } else if (const auto* subs = std::get_if<Programs>(&sorted[i]->value)) {
          // A tuple of programs (cond's branches), one per line, as JAX prints it.
          out << "(";
          for (const ProgramRef& q : *subs) {
            out << "\n" << std::string(indent + 4, ' ');
            nested_program(out, *q, indent + 4);
          }
          out << "\n" << std::string(indent + 2, ' ') << ")";
        } else if (const auto* fn = std::get_if<std::string>(&sorted[i]->value); fn && sorted[i]->name == "name") {
          out << *fn;  // a function's name, unquoted as JAX prints it
        } else {
          out << param_str(sorted[i]->value, formats[sorted[i]]);
        }
      }
      out << (nested ? "\n" + std::string(indent, ' ') + "]" : "]");
    }
    for (const Atom& a : e.inputs) out << " " << atom(a, names);
    return out.str();
  }

  // Writes nested program q at column `indent` of `out`; the bodies printed
  // inside it, from its first line, become this equation's.
  void nested_program(std::ostringstream& out, const Program& q, int indent) {
    const int at = lines_in(out.str());
    const size_t before = bodies.size();
    out << program(q, indent);
    for (size_t k = before; k < bodies.size(); ++k) {
      bodies[k].first += at;
      bodies[k].last += at;
    }
  }

  int counter_ = 0;
};

}  // namespace

std::string to_text(const Program& p, size_t num_consts) { return Printer().program(p, 0, num_consts); }

std::string to_text(const Program& p, std::vector<PrintedBody>& bodies, size_t num_consts) {
  Printer printer;
  std::string text = printer.program(p, 0, num_consts);
  bodies = std::move(printer.bodies);
  return text;
}

}  // namespace shardlab::ir
