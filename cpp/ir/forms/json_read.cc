#include "ir/forms/json_read.h"

#include <cmath>
#include <map>
#include <memory>

#include "ir/tracing/builder.h"
#include "ir/forms/json_value.h"
#include "ir/primitives/control_flow.h"
#include "ir/tracing/parallel_ops.h"
#include "ir/tracing/rule.h"
#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

using Kind = JsonValue::Kind;
constexpr const char* kWhat = "program";
constexpr double kMaxInt = 2147483647.0;

// Bytes of `shape`, or -1 when the count overflows (dimensions are below 2^31).
int64_t bytes_of(const Shape& shape) {
  int64_t n = static_cast<int64_t>(kElemBytes);
  for (int64_t d : shape) {
    if (d != 0 && n > (int64_t{1} << 62) / d) return -1;
    n *= d;
  }
  return n;
}

class Reader {
 public:
  explicit Reader(const ReadLimits& limits) : lim_(limits) {}

  Program top(const JsonValue& doc) {
    expect(doc, Kind::kObject, "the program");
    Builder b;
    std::vector<Atom> inputs;
    for (const JsonValue& v : member(doc, "invars", Kind::kArray, "the program").items) {
      const Aval a = aval(member(v, "aval", Kind::kObject, "an input"), "an input");
      if (!a.vma.empty()) malformed("a program input cannot vary along mesh axes");
      count_value(a, 1, "an input");
      inputs.push_back(b.input(a));
    }
    std::vector<Atom> outs = body(b, doc, inputs, 1, "the program");
    return b.build(outs);
  }

 private:
  using Env = std::map<std::string, Atom>;

  template <class... Parts>
  [[noreturn]] static void malformed(Parts&&... parts) {
    fail(ErrorKind::kValue, kWhat, ": ", std::forward<Parts>(parts)...);
  }

  static void expect(const JsonValue& v, Kind kind, const std::string& what) {
    if (v.kind != kind) malformed(what, " must be ", json_kind_name(kind), ", not ", json_kind_name(v.kind));
  }

  static const JsonValue& member(const JsonValue& obj, const char* key, Kind kind, const std::string& where) {
    expect(obj, Kind::kObject, where);
    const JsonValue* v = obj.find(key);
    if (!v) malformed(where, " has no '", key, "'");
    expect(*v, kind, where + "'s " + key);
    return *v;
  }

  static int64_t integer(const JsonValue& v, const std::string& what) {
    expect(v, Kind::kNumber, what);
    if (!(std::abs(v.number) <= kMaxInt) || v.number != std::floor(v.number))
      malformed(what, " must be an integer of at most 31 bits, got ", v.number);
    return static_cast<int64_t>(v.number);
  }

  static std::vector<int64_t> integers(const JsonValue& v, const std::string& what) {
    expect(v, Kind::kArray, what);
    std::vector<int64_t> out;
    for (const JsonValue& x : v.items) out.push_back(integer(x, what));
    return out;
  }

  static std::vector<std::string> strings(const JsonValue& v, const std::string& what) {
    expect(v, Kind::kArray, what);
    std::vector<std::string> out;
    for (const JsonValue& x : v.items) {
      expect(x, Kind::kString, what);
      out.push_back(x.string);
    }
    return out;
  }

  // A float: a number, or the strings the writer uses for what JSON lacks.
  static double real(const JsonValue& v, const std::string& what) {
    if (v.kind == Kind::kNumber) return v.number;
    if (v.kind == Kind::kString) {
      if (v.string == "NaN") return NAN;
      if (v.string == "Infinity") return INFINITY;
      if (v.string == "-Infinity") return -INFINITY;
    }
    malformed(what, " must be a number, \"NaN\", \"Infinity\" or \"-Infinity\"");
  }

  static Aval aval(const JsonValue& v, const std::string& where) {
    Aval a;
    a.dtype = dtype_from_name(member(v, "dtype", Kind::kString, where + "'s aval").string, kWhat);
    a.shape = integers(member(v, "shape", Kind::kArray, where + "'s aval"), where + "'s shape");
    for (int64_t d : a.shape)
      if (d < 0) malformed(where, "'s shape ", shape_str(a.shape), " has a negative dimension");
    if (const JsonValue* vma = v.find("vma")) a.vma = strings(*vma, where + "'s vma");
    if (const JsonValue* weak = v.find("weak_type")) {
      expect(*weak, Kind::kBool, where + "'s weak_type");
      a.weak = weak->boolean;
    }
    if (const JsonValue* s = v.find("sharding")) {
      a.sharding = sharding(*s, where + "'s sharding");
      check_sharding(a.sharding, a.shape, kWhat, where);
    }
    return a;
  }

  // A sharding (aval_json's form).
  static Sharding sharding(const JsonValue& v, const std::string& where) {
    Sharding s;
    int64_t devices = 1;
    for (const JsonValue& axis : member(v, "mesh", Kind::kArray, where).items) {
      expect(axis, Kind::kArray, where + "'s mesh axis");
      if (axis.items.size() != 3) malformed(where, "'s mesh axes are [name, size, \"Explicit\" or \"Auto\"]");
      expect(axis.items[0], Kind::kString, where + "'s mesh axis name");
      expect(axis.items[2], Kind::kString, where + "'s mesh axis type");
      const int64_t size = integer(axis.items[1], where + "'s mesh axis size");
      devices *= size;
      if (size < 1 || devices > kMaxDevices) malformed(where, "'s mesh has more than ", kMaxDevices, " devices");
      if (axis.items[2].string != "Explicit" && axis.items[2].string != "Auto")
        malformed(where, "'s mesh axis type must be \"Explicit\" or \"Auto\"");
      s.mesh.push_back(MeshAxis{axis.items[0].string, static_cast<int>(size), axis.items[2].string == "Explicit"});
    }
    for (const JsonValue& d : member(v, "dims", Kind::kArray, where).items) s.dims.push_back(strings(d, where + "'s dims"));
    s.unreduced = strings(member(v, "unreduced", Kind::kArray, where), where + "'s unreduced");
    s.reduced = strings(member(v, "reduced", Kind::kArray, where), where + "'s reduced");
    return std::move(s).normalized();
  }

  static PartitionSpec spec(const JsonValue& v, const std::string& what) {
    expect(v, Kind::kArray, what);
    PartitionSpec p;
    for (const JsonValue& e : v.items) {
      if (e.kind == Kind::kNull) p.entries.emplace_back();
      else if (e.kind == Kind::kString) p.entries.push_back({e.string});
      else p.entries.push_back(strings(e, what + " entry"));
    }
    return p;
  }

  static Specs specs(const JsonValue& v, const std::string& what) {
    expect(v, Kind::kArray, what);
    Specs out;
    for (const JsonValue& s : v.items) out.push_back(spec(s, what));
    return out;
  }

  // A parameter as its schema types it.
  static ParamValue param(const ParamSpec& s, const JsonValue& v, const std::string& what) {
    switch (s.type) {
      case ParamType::kBool:
        expect(v, Kind::kBool, what);
        return v.boolean;
      case ParamType::kInt:
        return integer(v, what);
      case ParamType::kFloat:
        return real(v, what);
      case ParamType::kString:
        expect(v, Kind::kString, what);
        return v.string;
      case ParamType::kInts:
        return integers(v, what);
      case ParamType::kNames:
        return strings(v, what);
      case ParamType::kDType:
        expect(v, Kind::kString, what);
        return dtype_from_name(v.string, kWhat);
      case ParamType::kIntLists: {
        expect(v, Kind::kArray, what);
        IntLists lists;
        for (const JsonValue& x : v.items) lists.push_back(integers(x, what));
        return lists;
      }
      case ParamType::kMesh: {
        std::vector<int> shape;
        for (int64_t d : integers(member(v, "shape", Kind::kArray, what), what + "'s shape"))
          shape.push_back(static_cast<int>(d));
        return std::make_shared<const Mesh>(shape, strings(member(v, "axis_names", Kind::kArray, what), what));
      }
      case ParamType::kSpecs:
        return specs(v, what);
      case ParamType::kSharding:
        // Checked against its value's shape by the primitive's sharding rule (Builder::emit).
        return v.kind == Kind::kNull ? Sharding{} : sharding(v, what);
      case ParamType::kRule:
        expect(v, Kind::kString, what);
        return rule_named(v.string);
      case ParamType::kProgram:
      case ParamType::kPrograms:
        break;  // read by the primitive that runs it (shard_map, a custom call, cond, scan), in its scope
    }
    malformed(what, " cannot be read here");
  }

  // Counts n more equations.
  void count_equations(size_t n) {
    equations_ += n;
    if (equations_ > lim_.max_equations)
      fail(ErrorKind::kResource, kWhat, ": it has more than ", lim_.max_equations, " equations");
  }

  void count_value(const Aval& a, int64_t copies, const std::string& where) {
    const int64_t bytes = bytes_of(a.shape);
    if (bytes < 0 || bytes > lim_.max_value_bytes)
      fail(ErrorKind::kResource, kWhat, ": ", where, " is ", a.str(), " (", bytes < 0 ? "more than 2^62" : std::to_string(bytes),
           " bytes); a value may have at most ", lim_.max_value_bytes, " bytes");
    total_bytes_ += static_cast<double>(bytes) * static_cast<double>(copies);
    if (total_bytes_ > static_cast<double>(lim_.max_total_bytes))
      fail(ErrorKind::kResource, kWhat, ": its values need more than ", lim_.max_total_bytes,
           " bytes of device memory together (at ", where, ")");
  }

  // Element operations of one equation: its largest side, times the
  // contracted size (2 per multiply-add) for dot_general.
  void count_work(const Eqn& e, const std::vector<Atom>& in, const std::vector<Atom>& out, int64_t copies,
                  const std::string& where) {
    double in_elems = 0, out_elems = 0;
    for (const Atom& a : in) in_elems += static_cast<double>(num_elements(a.aval.shape));
    for (const Atom& a : out) out_elems += static_cast<double>(num_elements(a.aval.shape));
    double work = std::max(in_elems, out_elems);
    if (e.prim == Prim::kDotGeneral) {
      double k = 1;
      for (int64_t d : ir::param<IntLists>(e.params, "dimension_numbers", kWhat)[0])
        k *= static_cast<double>(in[0].aval.shape[static_cast<size_t>(d)]);
      work = 2 * out_elems * k;
    }
    work_ += work * static_cast<double>(copies) * repeats_;
    if (work_ > lim_.max_work)
      fail(ErrorKind::kResource, kWhat, ": one run would take more than ", lim_.max_work,
           " element operations (at ", where, ")");
  }

  static void define(Env& env, const JsonValue& v, const Atom& value, const std::string& where) {
    const std::string& name = member(v, "name", Kind::kString, where).string;
    const Aval declared = aval(member(v, "aval", Kind::kObject, where), where);
    if (declared != value.aval)
      malformed(where, " '", name, "' is declared ", declared.str(), " but is ", value.aval.str());
    if (!env.emplace(name, value).second) malformed(where, " '", name, "' is defined twice");
  }

  static Atom atom(const Env& env, const JsonValue& v, const std::string& where) {
    expect(v, Kind::kObject, where);
    if (const JsonValue* lit = v.find("literal")) {
      const Aval a = aval(member(v, "aval", Kind::kObject, where), where);
      if (!a.shape.empty() || !a.vma.empty()) malformed(where, ": a literal is a scalar, not ", a.str());
      return Atom::constant(real(*lit, where), a.dtype, a.weak);
    }
    const std::string& name = member(v, "name", Kind::kString, where).string;
    auto it = env.find(name);
    if (it == env.end()) malformed(where, " uses '", name, "' before it is defined");
    const Aval declared = aval(member(v, "aval", Kind::kObject, where), where);
    if (declared != it->second.aval)
      malformed(where, " declares '", name, "' as ", declared.str(), " but it is ", it->second.aval.str());
    return it->second;
  }

  // Emits the equations of `prog` into `b` with its inputs bound to
  // `inputs`; returns its outputs. `copies`: devices each value lives on.
  std::vector<Atom> body(Builder& b, const JsonValue& prog, const std::vector<Atom>& inputs, int64_t copies,
                         const std::string& where) {
    Env env;
    const auto& invars = member(prog, "invars", Kind::kArray, where).items;
    if (invars.size() != inputs.size())
      malformed(where, " has ", invars.size(), " inputs but receives ", inputs.size());
    for (size_t i = 0; i < invars.size(); ++i) define(env, invars[i], inputs[i], where + " input");
    const auto& eqns = member(prog, "eqns", Kind::kArray, where).items;
    for (size_t i = 0; i < eqns.size(); ++i) eqn(b, env, eqns[i], copies, where + " equation " + std::to_string(i));
    std::vector<Atom> outs;
    for (const JsonValue& o : member(prog, "outvars", Kind::kArray, where).items) outs.push_back(atom(env, o, where + " output"));
    return outs;
  }

  void eqn(Builder& b, Env& env, const JsonValue& e, int64_t copies, std::string where) {
    count_equations(1);
    const Prim prim = primitive_named(member(e, "primitive", Kind::kString, where).string);
    const PrimitiveDef& def = primitive(prim);
    where += " (" + std::string(def.name) + ")";
    const JsonValue& given = member(e, "params", Kind::kObject, where);
    for (const auto& [key, value] : given.members) {
      bool known = false;
      for (const ParamSpec& s : def.params) known = known || key == s.name;
      if (!known) malformed(where, " has an unknown parameter '", key, "'");
    }
    Eqn eq{prim, {}, {}, {}};
    std::vector<std::pair<size_t, const JsonValue*>> programs;  // (schema position, value)
    for (const ParamSpec& s : def.params) {
      const JsonValue* v = given.find(s.name);
      if (!v) malformed(where, " lacks the parameter '", s.name, "'");
      if (s.type == ParamType::kProgram || s.type == ParamType::kPrograms) {
        programs.emplace_back(static_cast<size_t>(&s - def.params.begin()), v);
      } else {
        eq.params.push_back(Param{s.name, param(s, *v, where + " parameter '" + s.name + "'")});
      }
    }
    std::vector<Atom> inputs;
    for (const JsonValue& a : member(e, "inputs", Kind::kArray, where).items) inputs.push_back(atom(env, a, where + " operand"));
    std::vector<Atom> outs;
    if (prim == Prim::kShardMap) {
      outs = shard_map(b, eq.params, *programs.at(0).second, inputs, copies, where);
    } else if (!programs.empty()) {
      // Programs run in this scope (a custom call's, cond's branches, scan's
      // body, while's cond and body), read again on inputs of their declared
      // types. A scan's body runs `length` times: its work counts that often,
      // its values once (a loop reuses them), its equations once, unless it
      // holds a shard_map (then it runs unrolled, Def<kScan>::lower). A
      // while's trip count is only known as it runs: the host's time limit bounds it.
      const int64_t times = prim == Prim::kScan ? std::max<int64_t>(1, ir::param<int64_t>(eq.params, "length", kWhat)) : 1;
      const auto read = [&](const JsonValue& prog, const std::string& what) {
        Builder sub(b.scope(), nullptr);
        std::vector<Atom> args;
        for (const JsonValue& v : member(prog, "invars", Kind::kArray, what).items)
          args.push_back(sub.input(aval(member(v, "aval", Kind::kObject, what), what)));
        const size_t before = equations_;
        const double outer_repeats = repeats_;
        repeats_ *= static_cast<double>(times);
        const std::vector<Atom> ys = body(sub, prog, args, copies, what);
        repeats_ = outer_repeats;
        auto program = std::make_shared<const Program>(sub.build(ys));
        if (holds(*program, Prim::kShardMap)) count_equations((equations_ - before) * static_cast<size_t>(times - 1));
        return program;
      };
      for (const auto& [at, program] : programs) {  // ascending positions: each inserted where the schema has it
        const std::string name = def.params.items[at].name;
        ParamValue value;
        if (program->kind == Kind::kArray) {
          Programs list;
          for (size_t k = 0; k < program->items.size(); ++k)
            list.push_back(read(program->items[k], where + " " + name + " " + std::to_string(k)));
          value = list;
        } else {
          value = read(*program, where + " " + name);
        }
        eq.params.insert(eq.params.begin() + static_cast<long>(at), Param{def.params.items[at].name, value});
      }
      outs = b.emit(prim, eq.params, inputs);
    } else {
      outs = b.emit(prim, eq.params, inputs);
    }
    for (const Atom& o : outs) count_value(o.aval, copies, where + " output");
    count_work(eq, inputs, outs, copies, where);
    const auto& outputs = member(e, "outputs", Kind::kArray, where).items;
    if (outputs.size() != outs.size()) malformed(where, " names ", outputs.size(), " outputs but has ", outs.size());
    for (size_t i = 0; i < outs.size(); ++i) define(env, outputs[i], outs[i], where + " output");
  }

  // A shard_map: its body traced again in a ShardMapTrace over its operands.
  std::vector<Atom> shard_map(Builder& b, const Params& p, const JsonValue& jaxpr, const std::vector<Atom>& inputs,
                              int64_t copies, const std::string& where) {
    const MeshRef& mesh = ir::param<MeshRef>(p, "mesh", kWhat);
    ShardMapTrace t(b, mesh, ir::param<Specs>(p, "in_specs", kWhat), ir::param<bool>(p, "check_vma", kWhat), inputs);
    const std::vector<Atom> outs = body(t.body(), jaxpr, t.blocks(), copies * mesh->size(), where + " body");
    return t.finish(ir::param<Specs>(p, "out_specs", kWhat), outs);
  }

  const ReadLimits& lim_;
  size_t equations_ = 0;
  double total_bytes_ = 0;
  double work_ = 0;
  double repeats_ = 1;  // how many times the body being read runs per run of the program
};

}  // namespace

Program program_from_json(const std::string& text, const ReadLimits& limits) {
  const JsonValue doc = parse_json(text, kWhat, limits.max_text_bytes, limits.max_json_depth);
  return Reader(limits).top(doc);
}

}  // namespace shardlab::ir
