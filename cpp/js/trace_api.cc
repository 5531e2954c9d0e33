#include "js/trace_api.h"

#include <algorithm>
#include <cmath>

#include "exec/lockstep_program.h"
#include "ir/forms/json.h"
#include "ir/forms/json_read.h"
#include "ir/primitives/parallel.h"
#include "ir/forms/print.h"
#include "ir/tracing/rule.h"
#include "runtime/errors.h"
#include "runtime/sizes.h"
#include "js/js_errors.h"

namespace shardlab::js {

using emscripten::val;

namespace {

// Long strings between JS and the module: a program's JSON form or text runs
// to megabytes, and Embind's std::string conversion reads and writes the
// heap one byte at a time from JS, which a growable heap makes slow (a 6 MB
// program took 2 s each way). These copy the bytes in one call and let
// TextEncoder and TextDecoder do the rest. (They live here, not in a file of
// their own: LLVM 14 strips the thread-locals Embind's val::call declares
// only from objects that also hold atomics, and the threadless module's link
// refuses any left; this file holds atomics.)

// `s` (UTF-8) as a JS string.
val js_text(const std::string& s) {
  // Copied out of the heap first: TextDecoder does not read shared memory.
  val bytes = val::global("Uint8Array").new_(s.size());
  bytes.call<void>("set", val(emscripten::typed_memory_view(s.size(), reinterpret_cast<const uint8_t*>(s.data()))));
  return val::global("TextDecoder").new_().call<val>("decode", bytes);
}

// The UTF-8 bytes of the JS string `s`.
std::string text_from_js(const val& s) {
  const val bytes = val::global("TextEncoder").new_().call<val>("encode", s);
  std::string out(bytes["length"].as<size_t>(), '\0');
  val(emscripten::typed_memory_view(out.size(), reinterpret_cast<uint8_t*>(out.data()))).call<void>("set", bytes);
  return out;
}

std::vector<std::string> strings_from_js(const val& v) {
  std::vector<std::string> out;
  if (v.isString()) return {v.as<std::string>()};
  const int n = v["length"].as<int>();
  for (int i = 0; i < n; ++i) out.push_back(v[i].as<std::string>());
  return out;
}

val strings_to_js(const std::vector<std::string>& v) {
  val a = val::array();
  for (const auto& s : v) a.call<void>("push", s);
  return a;
}

// An integer a JS number holds exactly (a cast would make 2.5 2, and NaN
// undefined behaviour); a ValueError names primitive `prim`, its parameter
// `what` (and the entry) otherwise.
int64_t int_from_js(const val& e, const std::string& prim, const std::string& what) {
  const double x = e.isNumber() ? e.as<double>() : NAN;
  if (!is_safe_integer(x))
    fail(ErrorKind::kValue, prim, ": parameter ", what, " is ", quote_js(e), "; expected an integer in -", kMaxDimension,
         "..", kMaxDimension);
  return static_cast<int64_t>(x);
}

// A list of integers (int_from_js each).
std::vector<int64_t> ints_from_js(const val& v, const std::string& prim, const std::string& key) {
  std::vector<int64_t> out;
  const int n = v["length"].as<int>();
  for (int i = 0; i < n; ++i) out.push_back(int_from_js(v[i], prim, "'" + key + "' entry " + std::to_string(i)));
  return out;
}

// vmap's in_axes or out_axes: per entry an integer (a dimension, negative
// from the end) or null (not mapped).
std::vector<ir::MapAxis> map_axes_from_js(const val& v, const char* what) {
  std::vector<ir::MapAxis> out;
  const int n = v["length"].as<int>();
  for (int i = 0; i < n; ++i) {
    const val e = v[i];
    if (e.isNull() || e.isUndefined()) {
      out.push_back(std::nullopt);
      continue;
    }
    const double x = e.isNumber() ? e.as<double>() : NAN;
    if (!std::isfinite(x) || x != std::floor(x) || std::fabs(x) > kMaxDimension)
      fail(ErrorKind::kValue, "vmap: ", what, " entry ", i, " is ", quote_js(e), "; expected an integer axis or null");
    out.push_back(static_cast<int>(x));
  }
  return out;
}

// A type's sharding as JS holds it: null when unsharded, else
// {mesh: [[name, size, 'Explicit' or 'Auto'], ...], dims: [[axes], ...], unreduced, reduced}.
val sharding_to_js(const ir::Sharding& s) {
  if (s.empty()) return val::null();
  val mesh = val::array();
  for (const ir::MeshAxis& m : s.mesh) {
    val axis = val::array();
    axis.call<void>("push", m.name);
    axis.call<void>("push", m.size);
    axis.call<void>("push", std::string(m.is_explicit ? "Explicit" : "Auto"));
    mesh.call<void>("push", axis);
  }
  val dims = val::array();
  for (const auto& d : s.dims) dims.call<void>("push", strings_to_js(d));
  val r = val::object();
  r.set("mesh", mesh);
  r.set("dims", dims);
  r.set("unreduced", strings_to_js(s.unreduced));
  r.set("reduced", strings_to_js(s.reduced));
  return r;
}

// sharding_to_js's form back (null or undefined: unsharded).
ir::Sharding sharding_from_js(const val& v) {
  ir::Sharding s;
  if (v.isNull() || v.isUndefined()) return s;
  const val mesh = v["mesh"];
  for (int i = 0; i < mesh["length"].as<int>(); ++i)
    s.mesh.push_back(ir::MeshAxis{mesh[i][0].as<std::string>(), mesh[i][1].as<int>(), mesh[i][2].as<std::string>() == "Explicit"});
  const val dims = v["dims"];
  for (int i = 0; i < dims["length"].as<int>(); ++i) s.dims.push_back(strings_from_js(dims[i]));
  s.unreduced = strings_from_js(v["unreduced"]);
  s.reduced = strings_from_js(v["reduced"]);
  return std::move(s).normalized();
}

// A parameter from its JS value, converted to the type the primitive's schema gives it.
ir::ParamValue param_from_js(const ir::ParamSpec& spec, const val& v, const std::string& prim) {
  const bool is_array = val::global("Array").call<bool>("isArray", v);
  const auto expect = [&](bool ok) {
    if (!ok)
      fail(ErrorKind::kValue, prim, ": parameter '", spec.name, "' must be a ", ir::param_type_name(spec.type));
  };
  switch (spec.type) {
    case ir::ParamType::kBool:
      expect(v.isTrue() || v.isFalse());
      return v.as<bool>();
    case ir::ParamType::kInt:
      return int_from_js(v, prim, "'" + std::string(spec.name) + "'");
    case ir::ParamType::kFloat:
      expect(v.isNumber());
      return v.as<double>();
    case ir::ParamType::kString:
      expect(v.isString());
      return v.as<std::string>();
    case ir::ParamType::kInts:
      expect(is_array);
      return ints_from_js(v, prim, spec.name);
    case ir::ParamType::kNames:
      expect(v.isString() || is_array);
      return strings_from_js(v);
    case ir::ParamType::kDType:
      expect(v.isString());
      return dtype_from_name(v.as<std::string>(), prim.c_str());
    case ir::ParamType::kIntLists: {
      expect(is_array);
      ir::IntLists lists;
      const int n = v["length"].as<int>();
      for (int i = 0; i < n; ++i) lists.push_back(ints_from_js(v[i], prim, std::string(spec.name) + "[" + std::to_string(i) + "]"));
      return lists;
    }
    case ir::ParamType::kSharding:
      return sharding_from_js(v);
    default:
      fail(ErrorKind::kValue, prim, ": parameter '", spec.name, "' cannot be given from JavaScript");
  }
}

// The parameters `schema` names from a JS object, in its order (an optional
// one left out or undefined is left out); errors name `fn`.
ir::Params params_from_js(const val& params, const ir::ParamSchema& schema, const char* fn) {
  const bool none = params.isUndefined() || params.isNull();
  ir::Params out;
  std::string valid;
  for (const ir::ParamSpec& spec : schema) {
    valid += std::string(valid.empty() ? "" : ", ") + spec.name;
    const val v = none ? val::undefined() : params[spec.name];
    if (v.isUndefined()) {
      if (spec.optional) continue;  // the jax.lax function's default (LaxFunction::call)
      fail(ErrorKind::kValue, fn, ": missing parameter '", spec.name, "'");
    }
    out.push_back(ir::Param{spec.name, param_from_js(spec, v, fn)});
  }
  if (none) return out;
  const val keys = val::global("Object").call<val>("keys", params);
  for (int i = 0, n = keys["length"].as<int>(); i < n; ++i) {
    const std::string key = keys[i].as<std::string>();
    bool known = false;
    for (const ir::ParamSpec& spec : schema) known = known || key == spec.name;
    if (!known) fail(ErrorKind::kValue, fn, ": unknown parameter '", key, "'; its parameters are ", valid);
  }
  return out;
}

ir::Specs specs_from_js(const val& specs) {
  ir::Specs out;
  const int n = specs["length"].as<int>();
  for (int i = 0; i < n; ++i) out.push_back(spec_from_js(specs[i]));
  return out;
}

val result(const ir::Derivatives& d) {
  val r = val::object();
  r.set("outputs", atoms_to_js(d.outputs));
  r.set("derivs", atoms_to_js(d.derivs));
  return r;
}

val aval_to_js(const ir::Aval& a) {
  val r = val::object();
  r.set("dtype", std::string(dtype_long_name(a.dtype)));
  r.set("shape", shape_to_js(a.shape));
  r.set("vma", strings_to_js(a.vma));
  r.set("weak", a.weak);
  r.set("sharding", sharding_to_js(a.sharding));
  return r;
}

}  // namespace

val atom_to_js(const ir::Atom& a) {
  val r = aval_to_js(a.aval);
  if (a.is_literal()) {
    r.set("literal", a.literal);
  } else {
    r.set("t", a.trace);
    r.set("v", a.var);
  }
  return r;
}

val atoms_to_js(const std::vector<ir::Atom>& atoms) {
  val a = val::array();
  for (const ir::Atom& x : atoms) a.call<void>("push", atom_to_js(x));
  return a;
}

JsProgram JsProgram::of(ir::Program p) {
  auto traced = std::make_shared<const ir::Program>(std::move(p));
  return JsProgram{traced, std::make_shared<exec::Executable>(traced)};
}

val JsProgram::text() const { return js_text(ir::to_text(*traced)); }

val JsProgram::compiled_text(int num_consts) const {
  return js_text(ir::to_text(program(), static_cast<size_t>(std::max(num_consts, 0))));
}

val JsProgram::text_with_consts(int num_consts) const {
  return js_text(ir::to_text(*traced, static_cast<size_t>(std::max(num_consts, 0))));
}

val JsProgram::printed_bodies(int num_consts) const {
  std::vector<ir::PrintedBody> bodies;
  ir::to_text(*traced, bodies, static_cast<size_t>(std::max(num_consts, 0)));
  val out = val::array();
  for (const ir::PrintedBody& b : bodies) {
    val o = val::object();
    o.set("first", b.first);
    o.set("last", b.last);
    o.set("equations", b.equations);
    out.call<void>("push", o);
  }
  return out;
}
val JsProgram::json() const { return js_text(ir::to_json(*traced)); }

val JsProgram::lowered_json() const { return js_text(ir::to_json(program())); }

double JsProgram::num_equations() const {
  const auto count = [](const auto& self, const ir::Program& p) -> double {
    double n = static_cast<double>(p.eqns.size());
    for (const ir::Eqn& e : p.eqns)
      for (const ir::Program* q : ir::subprograms(e)) n += self(self, *q);
    return n;
  };
  return count(count, program());
}

val JsProgram::in_avals() const {
  val a = val::array();
  for (ir::VarId v : traced->invars) a.call<void>("push", aval_to_js(traced->avals[v]));
  return a;
}

val JsProgram::out_avals() const {
  val a = val::array();
  for (const ir::Atom& o : traced->outvars) a.call<void>("push", aval_to_js(o.aval));
  return a;
}

val JsProgram::out_specs() const {
  val a = val::array();
  for (const ir::Atom& o : program().outvars) {
    val spec = val::null();
    for (const ir::Eqn& e : program().eqns)
      for (size_t j = 0; j < e.outputs.size() && !o.is_literal(); ++j)
        if (e.prim == ir::Prim::kShardMap && e.outputs[j] == o.var)
          spec = spec_to_js(ir::param<ir::Specs>(e.params, "out_specs", "shard_map")[j]);
    a.call<void>("push", spec);
  }
  return a;
}

val interpret_js(const JsProgram& program, const val& inputs) {
  return with_js_errors([&] {
    std::vector<exec::HostArray> args;
    const int n = inputs["length"].as<int>();
    for (int i = 0; i < n; ++i) {
      const val x = inputs[i];
      exec::HostArray h{
          ir::Aval{dtype_from_name(x["dtype"].as<std::string>(), "run"), shape_from_js(x["shape"], "run", "shape"), {}},
          {}};
      ir::check_aval(h.aval, "run", "the input");
      h.words.resize(static_cast<size_t>(num_elements(h.aval.shape)));
      const val data = x["data"];
      const val bits = val::global("Uint32Array").new_(data["buffer"], data["byteOffset"], h.words.size());
      val(emscripten::typed_memory_view(h.words.size(), h.words.data())).call<void>("set", bits);
      args.push_back(std::move(h));
    }
    val outs = val::array();
    for (const exec::HostArray& h : exec::interpret(program.program(), args)) {
      val o = val::object();
      o.set("dtype", std::string(dtype_long_name(h.aval.dtype)));
      o.set("shape", shape_to_js(h.aval.shape));
      val bits = val::global("Uint32Array").new_(h.words.size());
      bits.call<void>("set", val(emscripten::typed_memory_view(h.words.size(), h.words.data())));
      o.set("data", bits);
      outs.call<void>("push", o);
    }
    return outs;
  });
}

JsProgram collective_program_js(const DeviceMesh& mesh, const std::string& dtype, const val& shape, const val& in_spec,
                                const std::string& name, const val& args, const val& out_spec, bool check_vma) {
  return with_js_errors([&] {
    const ir::LaxFunction& f = ir::lax_function(name);
    const ir::Aval in{dtype_from_name(dtype, name.c_str()), shape_from_js(shape, name.c_str(), "shape"), {}};
    return JsProgram::of(ir::collective_program(mesh.mesh, in, spec_from_js(in_spec), name,
                                                params_from_js(args, f.args, f.name), spec_from_js(out_spec), check_vma));
  });
}

val lax_functions_js() {
  val out = val::array();
  const auto add = [&](const ir::LaxFunction& f, const ir::PrimitiveDef* def, bool collective) {
    val args = val::array();
    for (const ir::ParamSpec& s : f.args) {
      val a = val::object();
      a.set("name", std::string(s.name));
      a.set("type", std::string(ir::param_type_name(s.type)));
      a.set("keyword", s.keyword);
      a.set("optional", s.optional);
      if (s.optional)
        a.set("default", s.type == ir::ParamType::kBool     ? val(s.fallback != 0)
                         : s.type == ir::ParamType::kString ? val(std::string(s.text_fallback))
                                                            : val(static_cast<double>(s.fallback)));
      args.call<void>("push", a);
    }
    val r = val::object();
    r.set("name", std::string(f.name));
    r.set("primitive", def ? val(std::string(def->name)) : val::null());
    r.set("collective", collective);
    r.set("takesOperands", f.takes_operands);
    r.set("args", args);
    out.call<void>("push", r);
  };
  for (size_t i = 0; i < ir::kNumPrims; ++i) {
    const ir::PrimitiveDef& def = ir::primitive(static_cast<ir::Prim>(i));
    if (def.lax.name) add(def.lax, &def, def.collective);
  }
  for (const ir::LaxFunction& f : ir::kParallelComposites) add(f, nullptr, true);  // pmean: a psum and a division
  return out;
}

JsProgram program_from_json_js(const val& text, const val& limits) {
  return with_js_errors([&] {
    ir::ReadLimits lim;
    const auto number = [&](const char* key, double fallback) {
      const val v = limits.isUndefined() || limits.isNull() ? val::undefined() : limits[key];
      return v.isNumber() ? v.as<double>() : fallback;
    };
    lim.max_text_bytes = static_cast<size_t>(number("maxTextBytes", static_cast<double>(lim.max_text_bytes)));
    lim.max_equations = static_cast<size_t>(number("maxEquations", static_cast<double>(lim.max_equations)));
    lim.max_value_bytes = static_cast<int64_t>(number("maxValueBytes", static_cast<double>(lim.max_value_bytes)));
    lim.max_total_bytes = static_cast<int64_t>(number("maxTotalBytes", static_cast<double>(lim.max_total_bytes)));
    lim.max_work = number("maxWork", lim.max_work);
    return JsProgram::of(ir::program_from_json(text_from_js(text), lim));
  });
}

JsTrace::JsTrace() : owned_(std::make_unique<ir::Builder>()), b_(owned_.get()) {}

ir::Atom JsTrace::atom(const val& a) const {
  const val literal = a["literal"];
  if (!literal.isUndefined()) {
    const val dtype = a["dtype"];
    return ir::Atom::constant(literal.as<double>(),
                              dtype.isUndefined() ? DType::kFloat32 : dtype_from_name(dtype.as<std::string>(), "literal"),
                              a["weak"].as<bool>());
  }
  return b_->value(a["t"].as<uint32_t>(), a["v"].as<int>());
}

std::vector<ir::Atom> JsTrace::atoms(const val& a) const {
  std::vector<ir::Atom> out;
  const int n = a["length"].as<int>();
  for (int i = 0; i < n; ++i) out.push_back(atom(a[i]));
  return out;
}

val JsTrace::input(const std::string& dtype, const val& shape, bool weak, const val& sharding) {
  return with_js_errors([&] {
    return atom_to_js(b_->input(ir::Aval{dtype_from_name(dtype, "input"), shape_from_js(shape, "input", "shape"), {},
                                         weak, sharding_from_js(sharding)}));
  });
}

val JsTrace::emit(const std::string& name, const val& params, const val& inputs) {
  return with_js_errors([&] {
    const ir::Prim prim = ir::primitive_named(name);
    const ir::PrimitiveDef& def = ir::primitive(prim);
    return atoms_to_js(b_->emit(prim, params_from_js(params, def.params, def.name), atoms(inputs)));
  });
}

val JsTrace::bind(const std::string& name, const val& args, const val& operands) {
  return with_js_errors([&] {
    const ir::LaxFunction& f = ir::lax_function(name);
    return atoms_to_js(f.call(*b_, params_from_js(args, f.args, f.name), atoms(operands)));
  });
}

JsProgram JsTrace::build(const val& outputs) {
  return with_js_errors([&] {
    std::vector<ir::Atom> outs = atoms(outputs);
    for (ir::Atom& o : outs) o = b_->local(o);
    return JsProgram::of(b_->build(outs));
  });
}

JsShardMap::JsShardMap(JsTrace& outer, const DeviceMesh& mesh, const val& in_specs, bool check_vma, const val& args)
    : t_(with_js_errors([&] {
        return std::make_unique<ir::ShardMapTrace>(outer.builder(), mesh.mesh, specs_from_js(in_specs), check_vma,
                                                   outer.atoms(args));
      })),
      body_(&t_->body()) {}

val JsShardMap::finish(const val& out_specs, const val& outs) {
  return with_js_errors([&] { return atoms_to_js(t_->finish(specs_from_js(out_specs), body_.atoms(outs))); });
}

JsFunction::JsFunction(JsTrace& outer, const val& args, bool isolated)
    : outer_(outer),
      t_(with_js_errors(
          [&] { return std::make_unique<ir::FunctionTrace>(outer.builder(), outer.atoms(args), isolated); })),
      body_(&t_->builder()) {}

val JsFunction::vjp(const val& outs, const val& cts, JsTrace& here) {
  return with_js_errors([&] {
    const auto c = here.atoms(cts);
    return result(t_->vjp(body_.atoms(outs), std::vector<ir::MaybeAtom>(c.begin(), c.end()), here.builder()));
  });
}

val JsFunction::linear_transpose(const val& outs, const val& cts, JsTrace& here) {
  return with_js_errors([&] {
    const auto c = here.atoms(cts);
    return atoms_to_js(t_->linear_transpose(body_.atoms(outs), std::vector<ir::MaybeAtom>(c.begin(), c.end()), here.builder()));
  });
}

val JsFunction::primal(const val& outs) {
  return with_js_errors([&] { return atoms_to_js(t_->primal(body_.atoms(outs))); });
}

val JsFunction::jvp(const val& outs, const val& tangents) {
  return with_js_errors([&] { return result(t_->jvp(body_.atoms(outs), outer_.atoms(tangents))); });
}

val JsFunction::grad(const val& outs) {
  return with_js_errors([&] { return result(t_->grad(body_.atoms(outs))); });
}

namespace {

// A custom rule that calls the JS function `fn(trace, atoms)`, which emits
// into `trace` (a view of the builder the transformation emits into, which
// JS deletes when done) and returns the result atoms, or null when the
// user's rule threw: the JS side keeps that error and rethrows it once this
// call is back in JS, as a JS exception must not unwind through wasm frames.
ir::RuleRef js_rule(const std::string& name, const val& fn) {
  return std::make_shared<const ir::Rule>(ir::Rule{name, [name, fn](ir::Builder& b, const std::vector<ir::Atom>& args) {
    const JsTrace view(&b);
    const val out = fn(val(std::make_unique<JsTrace>(&b)), atoms_to_js(args));
    if (out.isNull() || out.isUndefined()) fail(ErrorKind::kValue, "the custom rule ", name, " failed");
    return view.atoms(out);
  }});
}

}  // namespace

val JsFunction::custom_jvp_call(const val& outs, const std::string& name, const std::string& jvp_name, const val& jvp) {
  return with_js_errors([&] { return atoms_to_js(t_->custom_jvp_call(body_.atoms(outs), name, js_rule(jvp_name, jvp))); });
}

val JsFunction::custom_jvp_call_of_rule(const val& outs, const std::string& name, const std::string& jvp_name) {
  return with_js_errors([&] { return atoms_to_js(t_->custom_jvp_call_of_rule(body_.atoms(outs), name, jvp_name)); });
}

val JsFunction::custom_vjp_call_of_fwd(const val& outs, int num_outs, const std::string& name,
                                       const std::string& fwd_name, const std::string& bwd_name, const val& bwd) {
  return with_js_errors([&] {
    return atoms_to_js(t_->custom_vjp_call_of_fwd(body_.atoms(outs), static_cast<size_t>(num_outs), name, fwd_name,
                                                  js_rule(bwd_name, bwd)));
  });
}

val JsFunction::jit_call(const val& outs, const std::string& name) {
  return with_js_errors([&] { return atoms_to_js(t_->jit_call(body_.atoms(outs), name)); });
}

val JsFunction::checkpoint_call(const val& outs, bool prevent_cse, const std::string& policy) {
  return with_js_errors([&] { return atoms_to_js(t_->checkpoint_call(body_.atoms(outs), prevent_cse, policy)); });
}

val JsFunction::custom_vjp_call(const val& outs, const std::string& name, const std::string& fwd_name, const val& fwd,
                                const std::string& bwd_name, const val& bwd) {
  return with_js_errors([&] {
    return atoms_to_js(t_->custom_vjp_call(body_.atoms(outs), name, js_rule(fwd_name, fwd), js_rule(bwd_name, bwd)));
  });
}

JsCond::JsCond(JsTrace& outer, const val& operands)
    : outer_(outer),
      t_(with_js_errors([&] { return std::make_unique<ir::CondTrace>(outer.builder(), outer.atoms(operands)); })) {}

JsTrace* JsCond::begin_branch() {
  return with_js_errors([&] {
    branch_ = std::make_unique<JsTrace>(&t_->begin_branch());
    return branch_.get();
  });
}

void JsCond::end_branch(const val& outs) {
  with_js_errors([&] {
    if (!branch_) fail(ErrorKind::kValue, "cond: no branch is being traced");
    t_->end_branch(branch_->atoms(outs));
    branch_.reset();
    return 0;
  });
}

val JsCond::finish(const val& index) {
  return with_js_errors([&] { return atoms_to_js(t_->finish(outer_.atom(index))); });
}

JsScan::JsScan(JsTrace& outer, const val& init, const val& xs, const val& length, bool reverse)
    : t_(with_js_errors([&] {
        std::optional<int64_t> n;
        if (!length.isNull() && !length.isUndefined()) n = int_from_js(length, "scan", "length");
        return std::make_unique<ir::ScanTrace>(outer.builder(), outer.atoms(init), outer.atoms(xs), n, reverse);
      })),
      body_(&t_->builder()) {}

val JsScan::finish(const val& outs) {
  return with_js_errors([&] { return atoms_to_js(t_->finish(body_.atoms(outs))); });
}

JsWhile::JsWhile(JsTrace& outer, const val& init)
    : t_(with_js_errors([&] { return std::make_unique<ir::WhileTrace>(outer.builder(), outer.atoms(init)); })) {}

JsTrace* JsWhile::begin_cond() {
  return with_js_errors([&] {
    part_ = std::make_unique<JsTrace>(&t_->begin_cond());
    return part_.get();
  });
}

void JsWhile::end_cond(const val& pred) {
  with_js_errors([&] {
    if (!part_) fail(ErrorKind::kValue, "while_loop: no cond is being traced");
    t_->end_cond(part_->atom(pred));
    part_.reset();
    return 0;
  });
}

JsTrace* JsWhile::begin_body() {
  return with_js_errors([&] {
    part_ = std::make_unique<JsTrace>(&t_->begin_body());
    return part_.get();
  });
}

val JsWhile::finish(const val& outs) {
  return with_js_errors([&] {
    if (!part_) fail(ErrorKind::kValue, "while_loop: no body is being traced");
    return atoms_to_js(t_->finish(part_->atoms(outs)));
  });
}

JsVmap::JsVmap(JsTrace& outer, const val& args, const val& in_axes, const val& axis_size, const val& axis_name)
    : t_(with_js_errors([&] {
        std::optional<int64_t> size;
        if (!axis_size.isNull() && !axis_size.isUndefined()) size = int_from_js(axis_size, "vmap", "axis_size");
        std::optional<std::string> name;
        if (!axis_name.isNull() && !axis_name.isUndefined()) {
          if (!axis_name.isString()) fail(ErrorKind::kValue, "vmap: axis_name must be a string, got ", quote_js(axis_name));
          name = axis_name.as<std::string>();
        }
        return std::make_unique<ir::VmapTrace>(outer.builder(), outer.atoms(args),
                                               map_axes_from_js(in_axes, "in_axes"), size, name);
      })),
      body_(&t_->builder()) {}

val JsVmap::finish(const val& outs, const val& out_axes) {
  return with_js_errors(
      [&] { return atoms_to_js(t_->finish(body_.atoms(outs), map_axes_from_js(out_axes, "out_axes"))); });
}

}  // namespace shardlab::js
