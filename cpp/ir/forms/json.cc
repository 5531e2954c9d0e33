#include "ir/forms/json.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "ir/primitives/shard_map.h"
#include "ir/forms/print.h"
#include "ir/tracing/rule.h"

namespace shardlab::ir {

namespace {

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// A number; JSON has no NaN or infinities, so those become strings.
std::string number(double v) {
  if (std::isnan(v)) return "\"NaN\"";
  if (std::isinf(v)) return v > 0 ? "\"Infinity\"" : "\"-Infinity\"";
  std::ostringstream out;
  out.precision(17);
  out << v;
  return out.str();
}

template <class T, class F>
std::string list(const std::vector<T>& xs, F f) {
  std::string out = "[";
  for (size_t i = 0; i < xs.size(); ++i) out += (i ? "," : "") + f(xs[i]);
  return out + "]";
}

std::string int_list(const std::vector<int64_t>& xs) {
  return list(xs, [](int64_t v) { return std::to_string(v); });
}
std::string str_list(const std::vector<std::string>& xs) { return list(xs, quoted); }

// A type's sharding: {"mesh":[["X",4,"Explicit"],...],"dims":[["X"],[],...],"unreduced":[...],"reduced":[...]}.
std::string sharding_json(const Sharding& s) {
  return "{\"mesh\":" + list(s.mesh, [](const MeshAxis& m) {
           return "[" + quoted(m.name) + "," + std::to_string(m.size) + "," + quoted(m.is_explicit ? "Explicit" : "Auto") + "]";
         }) +
         ",\"dims\":" + list(s.dims, str_list) + ",\"unreduced\":" + str_list(s.unreduced) +
         ",\"reduced\":" + str_list(s.reduced) + "}";
}

std::string aval_json(const Aval& a) {
  return "{\"dtype\":" + quoted(dtype_long_name(a.dtype)) + ",\"shape\":" + int_list(a.shape) +
         ",\"vma\":" + str_list(a.vma) + (a.weak ? ",\"weak_type\":true" : "") +
         (a.sharding.empty() ? "" : ",\"sharding\":" + sharding_json(a.sharding)) + ",\"str\":" + quoted(a.str()) + "}";
}

std::string spec_json(const PartitionSpec& spec) {
  return list(spec.entries, [](const std::vector<std::string>& e) {
    if (e.empty()) return std::string("null");
    if (e.size() == 1) return quoted(e[0]);
    return str_list(e);
  });
}

// Names variables in the order the text printer does.
class JsonWriter {
 public:
  std::string program(const Program& p) {
    Names names;
    std::string out = "{\"invars\":" + list(p.invars, [&](VarId v) { return var(p, v, names); });
    out += ",\"eqns\":" + list(p.eqns, [&](const Eqn& e) { return eqn(p, e, names); });
    out += ",\"outvars\":" + list(p.outvars, [&](const Atom& a) { return atom(a, names); }) + "}";
    return out;
  }

 private:
  using Names = std::map<VarId, std::string>;

  std::string var(const Program& p, VarId v, Names& names) {
    auto it = names.find(v);
    if (it == names.end()) it = names.emplace(v, var_name(counter_++)).first;
    return "{\"name\":" + quoted(it->second) + ",\"aval\":" + aval_json(p.avals[v]) + "}";
  }

  static std::string atom(const Atom& a, Names& names) {
    if (a.is_literal()) return "{\"literal\":" + number(a.literal) + ",\"aval\":" + aval_json(a.aval) + "}";
    return "{\"name\":" + quoted(names[a.var]) + ",\"aval\":" + aval_json(a.aval) + "}";
  }

  std::string param(const ParamValue& v) {
    return std::visit(
        [&](const auto& x) -> std::string {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, bool>) {
            return x ? "true" : "false";
          } else if constexpr (std::is_same_v<T, int64_t>) {
            return std::to_string(x);
          } else if constexpr (std::is_same_v<T, double>) {
            return number(x);
          } else if constexpr (std::is_same_v<T, std::string>) {
            return quoted(x);
          } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
            return int_list(x);
          } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
            return str_list(x);
          } else if constexpr (std::is_same_v<T, DType>) {
            return quoted(dtype_long_name(x));
          } else if constexpr (std::is_same_v<T, IntLists>) {
            return list(x, int_list);
          } else if constexpr (std::is_same_v<T, MeshRef>) {
            std::vector<int64_t> shape(x->shape().begin(), x->shape().end());
            return "{\"axis_names\":" + str_list(x->axis_names()) + ",\"shape\":" + int_list(shape) + "}";
          } else if constexpr (std::is_same_v<T, Specs>) {
            return list(x, spec_json);
          } else if constexpr (std::is_same_v<T, RuleRef>) {
            return quoted(x->name);
          } else if constexpr (std::is_same_v<T, Programs>) {
            return list(x, [&](const ProgramRef& q) { return program(*q); });
          } else if constexpr (std::is_same_v<T, Sharding>) {
            return x.mesh.empty() ? std::string("null") : sharding_json(x);
          } else {
            return program(*x);
          }
        },
        v);
  }

  std::string eqn(const Program& p, const Eqn& e, Names& names) {
    // Outputs are named before a nested program's variables, as in the text.
    const std::string outputs = list(e.outputs, [&](VarId v) { return var(p, v, names); });
    const ShardMapBody outer = body_;
    if (e.prim == Prim::kShardMap) body_ = shard_map_body(e);
    std::string params = "{";
    for (size_t i = 0; i < e.params.size(); ++i)
      params += (i ? "," : "") + quoted(e.params[i].name) + ":" + param(e.params[i].value);
    params += "}";
    body_ = outer;
    const PrimitiveDef& def = primitive(e.prim);
    return "{\"primitive\":" + quoted(def.name) + (def.collective ? ",\"collective\":true" + traffic(p, e) : "") +
           (def.call_program ? ",\"call\":" + quoted(def.call_program) : "") +
           ",\"params\":" + params + ",\"inputs\":" + list(e.inputs, [&](const Atom& a) { return atom(a, names); }) +
           ",\"outputs\":" + outputs + "}";
  }

  // The shard_map whose body is being written: its mesh, its body, and the
  // body's outputs stored as a group's shared result.
  struct ShardMapBody {
    const Mesh* mesh = nullptr;
    const Program* program = nullptr;
    std::vector<VarId> shared;
  };

  static ShardMapBody shard_map_body(const Eqn& e) {
    ShardMapBody b{ir::param<MeshRef>(e.params, "mesh", "shard_map").get(),
                   ir::param<ProgramRef>(e.params, "jaxpr", "shard_map").get(), {}};
    for (size_t j = 0; j < b.program->outvars.size(); ++j)
      if (shared_output_group(e, j)) b.shared.push_back(b.program->outvars[j].var);
    return b;
  }

  // A collective equation's traffic (its rule's, for its group on the
  // enclosing shard_map's mesh) and its operands' bytes on one device, as
  // `,"traffic":{...}`; nothing outside a shard_map body.
  std::string traffic(const Program& p, const Eqn& e) const {
    const PrimitiveDef& def = primitive(e.prim);
    if (!body_.mesh) return "";
    const std::optional<AxisGroup> g = body_.mesh->find_axis_group(def.group_axes(e.params));
    if (!g) return "";
    std::vector<Aval> in;
    int64_t operand_bytes = 0;
    for (const Atom& a : e.inputs) {
      in.push_back(a.aval);
      operand_bytes += element_bytes(a.aval.dtype, num_elements(a.aval.shape));
    }
    const bool shared = &p == body_.program && e.outputs.size() == 1 &&
                        std::find(body_.shared.begin(), body_.shared.end(), e.outputs[0]) != body_.shared.end();
    const Traffic t = def.traffic(e.params, in, g->size, shared);
    return ",\"traffic\":{\"algorithm\":" + quoted(t.algorithm) + ",\"operand_bytes\":" +
           std::to_string(operand_bytes) + ",\"sent\":" + int_list(t.sent) + ",\"computes\":" + quoted(t.computes) +
           ",\"combine\":" + quoted(t.combine) + ",\"links\":" + list(t.links, [](const std::pair<int, int>& l) { return int_list({l.first, l.second}); }) + "}";
  }

  int counter_ = 0;
  ShardMapBody body_;
};

}  // namespace

std::string to_json(const Program& p) { return JsonWriter().program(p); }

}  // namespace shardlab::ir
