#include "ir/forms/print.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
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
    char exp[16];  // room for any int exponent, so the compiler sees no truncation
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

  // The text of top-level program p as JAX 0.11's pp_toplevel_jaxpr prints
  // it: each nested program it uses more than once, or of more than 10
  // equations, printed once before it as `let name = { ... } in` and named
  // where it is used (name: the using equation's `name` parameter, a jit's
  // function, else "jaxpr"; repeats numbered jaxpr1, jaxpr2, ...).
  std::string top_level(const Program& p, size_t num_consts) {
    std::string text;
    int lines = 0;
    for (const auto& [q, name] : hoisted(p)) {
      const std::string head = "let " + name + " = ";
      const size_t before = bodies.size();
      const std::string body = program(*q, 0, 0, head.size(), 3);
      if (body.find('\n') != std::string::npos) {
        bodies.insert(bodies.begin() + static_cast<std::ptrdiff_t>(before),
                      PrintedBody{1, lines_in(body), static_cast<int>(q->eqns.size())});
      }
      for (size_t k = before; k < bodies.size(); ++k) {
        bodies[k].first += lines;
        bodies[k].last += lines;
      }
      shared_.emplace(q, name);  // used by name from here on (its own text is above)
      text += head + body + " in\n";
      lines += lines_in(body) + 1;
    }
    const size_t before = bodies.size();
    text += program(p, 0, num_consts);
    for (size_t k = before; k < bodies.size(); ++k) {
      bodies[k].first += lines;
      bodies[k].last += lines;
    }
    return text;
  }

  // The text of p, whose equations go at column indent + 4; on one line when
  // it fits in 80 columns after `before` and before `after` characters.
  std::string program(const Program& p, int indent, size_t num_consts = 0, size_t before = 0, size_t after = 0) {
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
    if (before + one_line.size() + after <= 80 && one_line.find('\n') == std::string::npos) return one_line;
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
    if (is_float(a.aval.dtype)) {
      const uint32_t w = element_word(a.literal, a.aval.dtype);  // the value its dtype holds
      float f;
      std::memcpy(&f, &w, 4);
      out << python_float_repr(static_cast<double>(f));
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
    out << (e.outputs.empty() ? "" : " = ") << primitive(e.prim).name;  // an effect has no outputs: no `=`
    // Params sorted by name, as jax.make_jaxpr prints them (a custom call's
    // `name` first, and its num_consts only when not 0, as JAX's printing
    // rules for them do); one per line when one of them is a program printed
    // in place, or when the equation would not fit in 80 columns (JAX's group
    // of parameters breaks then).
    std::vector<const Param*> sorted;
    std::map<const Param*, ParamFormat> formats;
    const ParamSchema& schema = primitive(e.prim).params;
    for (size_t i = 0; i < e.params.size(); ++i) {
      const Param& prm = e.params[i];
      const ParamSpec* spec = i < schema.size ? &schema.items[i] : nullptr;
      if (spec && spec->format == ParamFormat::kImplied) continue;
      const auto* n = std::get_if<int64_t>(&prm.value);
      const auto* list = std::get_if<std::vector<int64_t>>(&prm.value);
      const auto* sharding = std::get_if<Sharding>(&prm.value);
      if (spec && spec->printed_if_nonzero && ((n && *n == 0) || (list && list->empty()) || (sharding && sharding->mesh.empty())))
        continue;
      sorted.push_back(&prm);
      if (spec) formats[&prm] = spec->format;
    }
    // The parameters JAX has and ShardLab leaves None, printed None (an empty list, kNoneIfEmpty).
    std::vector<Param> nones;
    if (const char* names = primitive(e.prim).none_params) {
      std::istringstream words(names);
      for (std::string w; words >> w;) nones.push_back(Param{w, std::vector<int64_t>{}});
    }
    for (const Param& prm : nones) {
      sorted.push_back(&prm);
      formats[&prm] = ParamFormat::kNoneIfEmpty;
    }
    std::sort(sorted.begin(), sorted.end(), [](const Param* a, const Param* b) {
      return (a->name == "name") != (b->name == "name") ? a->name == "name" : a->name < b->name;
    });
    // Each parameter's text, but a program printed in place (a tuple of them
    // too), written below where it records its lines; a program printed
    // before the top level is only its name, so its group may fit on one line.
    std::vector<std::string> flat(sorted.size());
    std::vector<bool> in_place(sorted.size(), false);
    bool broken = false;
    for (size_t i = 0; i < sorted.size(); ++i) {
      const auto* sub = std::get_if<ProgramRef>(&sorted[i]->value);
      in_place[i] = (sub && !shared_.count(sub->get())) || std::holds_alternative<Programs>(sorted[i]->value);
      if (!in_place[i]) flat[i] = flat_value(*sorted[i], formats[sorted[i]]);
      broken = broken || in_place[i];
    }
    std::string operands;
    for (const Atom& a : e.inputs) operands += " " + atom(a, names);
    if (!broken && !sorted.empty()) {
      size_t width = static_cast<size_t>(indent) + out.str().size() + 2 + operands.size();
      for (size_t i = 0; i < sorted.size(); ++i) width += (i ? 1 : 0) + sorted[i]->name.size() + 1 + flat[i].size();
      broken = width > 80;
    }
    if (!sorted.empty()) {
      out << "[";
      for (size_t i = 0; i < sorted.size(); ++i) {
        if (broken) {
          out << "\n" << std::string(indent + 2, ' ');
        } else if (i) {
          out << " ";
        }
        out << sorted[i]->name << "=";
        if (!in_place[i]) {
          out << flat[i];
        } else if (const auto* sub = std::get_if<ProgramRef>(&sorted[i]->value)) {
          nested_program(out, **sub, indent + 2);
        } else if (const auto* subs = std::get_if<Programs>(&sorted[i]->value)) {
          // A tuple of programs (cond's branches), one per line, as JAX prints it.
          out << "(";
          for (const ProgramRef& q : *subs) {
            out << "\n" << std::string(indent + 4, ' ');
            nested_program(out, *q, indent + 4);
          }
          out << "\n" << std::string(indent + 2, ' ') << ")";
        }
      }
      out << (broken ? "\n" + std::string(indent, ' ') + "]" : "]");
    }
    out << operands;
    return out.str();
  }

  // A parameter's text when it is not a program printed in place: a program
  // printed before the top level by its name, a function's name unquoted (as
  // JAX prints them), else its value.
  std::string flat_value(const Param& prm, ParamFormat format) const {
    if (const auto* sub = std::get_if<ProgramRef>(&prm.value)) return shared_.at(sub->get());
    if (const auto* fn = std::get_if<std::string>(&prm.value); fn && prm.name == "name") return *fn;
    return param_str(prm.value, format);
  }

  // Writes nested program q at column `indent` of `out` (its name, when it
  // is printed before the program); the bodies printed inside it, from its
  // first line, become this equation's.
  void nested_program(std::ostringstream& out, const Program& q, int indent) {
    if (auto it = shared_.find(&q); it != shared_.end()) {
      out << it->second;
      return;
    }
    const int at = lines_in(out.str());
    const size_t before = bodies.size();
    out << program(q, indent);
    for (size_t k = before; k < bodies.size(); ++k) {
      bodies[k].first += at;
      bodies[k].last += at;
    }
  }

  // The programs nested in p that JAX 0.11 prints before it, in the order its
  // breadth-first walk first meets them, with their names (see top_level).
  static std::vector<std::pair<const Program*, std::string>> hoisted(const Program& p) {
    std::vector<const Program*> order;
    std::map<const Program*, int> uses;
    std::map<const Program*, std::string> names;
    std::deque<const Program*> queue{&p};
    while (!queue.empty()) {
      const Program* q = queue.front();
      queue.pop_front();
      if (uses[q]++ == 0) order.push_back(q);
      if (q != &p && q->eqns.size() > 10) ++uses[q];  // a long program counts twice: always printed apart
      for (const Eqn& e : q->eqns) {
        const Param* name = nullptr;
        for (const Param& prm : e.params)
          if (prm.name == "name" && std::holds_alternative<std::string>(prm.value)) name = &prm;
        std::vector<const Program*> subs = subprograms(e);
        // In JAX's order of the parameters: a while binds its cond_jaxpr before its body_jaxpr.
        if (e.prim == Prim::kWhile) std::reverse(subs.begin(), subs.end());
        for (const Program* sub : subs) {
          queue.push_back(sub);
          if (name) {
            // Stripped of angle brackets at its ends: <lambda> as lambda (Python's str.strip("<>")).
            const std::string& n = std::get<std::string>(name->value);
            const size_t from = n.find_first_not_of("<>");
            names.emplace(sub, from == std::string::npos ? "" : n.substr(from, n.find_last_not_of("<>") - from + 1));
          }
        }
      }
    }
    std::map<std::string, int> taken;
    std::vector<std::pair<const Program*, std::string>> out;
    for (const Program* q : order) {
      if (uses[q] < 2) continue;
      auto it = names.find(q);
      std::string name = it == names.end() ? "jaxpr" : it->second;
      if (const int k = taken[name]++; k > 0) {
        name += std::to_string(k);
        ++taken[name];
      }
      out.emplace_back(q, name);
    }
    return out;
  }

  std::map<const Program*, std::string> shared_;  // programs printed before the top level, by name
  int counter_ = 0;
};

}  // namespace

std::string to_text(const Program& p, size_t num_consts) { return Printer().top_level(p, num_consts); }

std::string to_text(const Program& p, std::vector<PrintedBody>& bodies, size_t num_consts) {
  Printer printer;
  std::string text = printer.top_level(p, num_consts);
  bodies = std::move(printer.bodies);
  return text;
}

}  // namespace shardlab::ir
