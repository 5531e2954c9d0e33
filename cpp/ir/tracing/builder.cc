#include "ir/tracing/builder.h"

#include <algorithm>
#include <atomic>

#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

uint32_t next_trace_id() {
  static std::atomic<uint32_t> counter{0};
  return ++counter;
}

}  // namespace

Builder::Builder() : id_(next_trace_id()) {}

Builder::Builder(Scope scope, Builder* parent) : id_(next_trace_id()), parent_(parent) {
  program_.scope = std::move(scope);
}

VarId Builder::new_var(const Aval& aval) {
  program_.avals.push_back(aval);
  return static_cast<VarId>(program_.avals.size() - 1);
}

Atom Builder::input(const Aval& given) {
  check_aval(given, "input", "the input");
  check_sharding(given.sharding, given.shape, "input", "the input");
  Aval aval = given;
  aval.sharding = given.sharding.for_type();
  const VarId v = new_var(aval);
  program_.invars.push_back(v);
  return Atom::of(v, aval, id_);
}

Atom Builder::value(uint32_t trace, VarId var) const {
  for (const Builder* b = this; b; b = b->parent_)
    if (b->id_ == trace) {
      if (var < 0 || static_cast<size_t>(var) >= b->program_.avals.size())
        fail(ErrorKind::kValue, "trace: no variable ", var, " in trace ", trace);
      return Atom::of(var, b->program_.avals[var], trace);
    }
  fail(ErrorKind::kValue,
       "trace: a traced value of a finished trace was used (it escaped the function that made it, e.g. stored in a "
       "variable outside it); pass it as an argument instead");
}

Atom Builder::local(const Atom& a) {
  if (a.is_literal() || a.trace == id_) return a;
  if (!parent_)
    fail(ErrorKind::kValue, "trace: the value ", a.aval.str(),
         " belongs to a trace that is not this one or an enclosing one (a traced value escaped the function that "
         "made it, e.g. stored in a variable outside it); pass it as an argument instead");
  const Atom outer = parent_->local(a);
  for (size_t i = 0; i < captured_outer_.size(); ++i)
    if (captured_outer_[i].var == outer.var) return Atom::of(captured_vars_[i], program_.avals[captured_vars_[i]], id_);
  // Captured by a shard_map body, a value is replicated over its mesh: its
  // block is the whole value, invariant along every axis. Captured by a
  // function traced in the same scope (for autodiff), it keeps its type.
  const bool same_scope = parent_->scope().mesh == scope().mesh;
  const Aval inner = same_scope ? outer.aval : Aval{outer.aval.dtype, outer.aval.shape, {}, outer.aval.weak};
  const VarId v = new_var(inner);
  captured_outer_.push_back(outer);
  captured_vars_.push_back(v);
  return Atom::of(v, inner, id_);
}

Atom Builder::with_vma(const Atom& a, const std::vector<std::string>& vma) {
  std::vector<std::string> missing;
  for (const std::string& axis : vma)
    if (!std::binary_search(a.aval.vma.begin(), a.aval.vma.end(), axis)) missing.push_back(axis);
  if (missing.empty()) return a;
  return emit1(Prim::kPvary, {{"axes", missing}}, {a});
}

std::vector<Atom> Builder::emit(Prim prim, Params params, std::vector<Atom> inputs) {
  for (Atom& a : inputs) a = local(a);
  // A primitive holding programs or rules (cond, scan, a custom call,
  // custom_lin) takes its operands as they are: its programs were traced on
  // exactly their types, and a rule's outputs are typed by its operands'.
  bool holds_programs = false;
  for (const ParamSpec& s : primitive(prim).params)
    holds_programs = holds_programs || s.type == ParamType::kProgram || s.type == ParamType::kPrograms ||
                     s.type == ParamType::kRule;
  if (scope().tracks_vma() && inputs.size() > 1 && !holds_programs && !primitive(prim).effect) {
    std::vector<std::string> all;
    for (const Atom& a : inputs)
      if (!a.is_literal()) all = vma_union(all, a.aval.vma);
    // A literal too, as JAX 0.11 types it: x * 2 of a varying x is mul x (pvary 2).
    for (Atom& a : inputs) a = with_vma(a, all);
  }
  std::vector<Aval> in;
  in.reserve(inputs.size());
  for (const Atom& a : inputs) in.push_back(a.aval);
  std::vector<Aval> out = primitive(prim).shape(params, in);
  // In a shard_map with check_vma=False (JAX's), no value varies by type,
  // whatever its rule says (axis_index's own result).
  if (scope().mesh && !scope().check_vma)
    for (Aval& a : out) a.vma.clear();
  if (const WeakRule rule = primitive(prim).weak; rule != WeakRule::kShapeRule)
    for (size_t i = 0; i < out.size(); ++i) out[i].weak = weak_result(rule, in, i);
  // Sharding in types: the rule's shardings, each checked against its shape
  // (an axis named twice, a dimension its axes do not divide).
  const std::vector<Sharding> shardings = primitive(prim).sharding(params, in, out);
  for (size_t i = 0; i < out.size(); ++i) {
    out[i].sharding = i < shardings.size() ? shardings[i].for_type() : Sharding{};
    if (!out[i].sharding.repeated_axes().empty()) {
      // JAX's message for a rule's result naming a mesh axis twice (lax/utils.py).
      std::string operands;
      for (const Aval& a : in) operands += (operands.empty() ? "" : ", ") + a.str();
      fail(ErrorKind::kShardingType, primitive(prim).name, " operation with inputs: ", operands,
           " produces an illegally sharded result: ", out[i].str());
    }
    check_sharding(out[i].sharding, out[i].shape, primitive(prim).name, "the result");
  }
  // Every value of a program fits in the device memory, so evaluating it may
  // count its elements and bytes without overflow (runtime/sizes.h).
  for (const Aval& aval : out) check_aval(aval, primitive(prim).name, "the result");
  // After the shape rule, whose errors about operands come first.
  check_params(primitive(prim).params, params, primitive(prim).name);
  Eqn eqn{prim, std::move(params), std::move(inputs), {}};
  std::vector<Atom> results;
  for (const Aval& aval : out) {
    const VarId v = new_var(aval);
    eqn.outputs.push_back(v);
    results.push_back(Atom::of(v, aval, id_));
  }
  program_.eqns.push_back(std::move(eqn));
  return results;
}

Atom Builder::emit1(Prim prim, Params params, std::vector<Atom> inputs) {
  auto out = emit(prim, std::move(params), std::move(inputs));
  if (out.size() != 1)
    fail(ErrorKind::kValue, primitive(prim).name, ": expected one output, the shape rule gave ", out.size());
  return out[0];
}

std::vector<Atom> Builder::call(const Program& p, const std::vector<Atom>& args) {
  if (args.size() != p.invars.size())
    fail(ErrorKind::kValue, "call: the program takes ", p.invars.size(), " inputs, got ", args.size());
  std::vector<Atom> value(p.avals.size());
  for (size_t i = 0; i < args.size(); ++i) value[p.invars[i]] = args[i];
  auto value_of = [&](const Atom& a) { return a.is_literal() ? a : value[a.var]; };
  for (const Eqn& e : p.eqns) {
    std::vector<Atom> xs;
    for (const Atom& a : e.inputs) xs.push_back(value_of(a));
    const auto ys = emit(e.prim, e.params, xs);
    for (size_t i = 0; i < ys.size(); ++i) value[e.outputs[i]] = ys[i];
  }
  std::vector<Atom> outs;
  for (const Atom& a : p.outvars) outs.push_back(value_of(a));
  return outs;
}

Program Builder::build(const std::vector<Atom>& outputs) const {
  Program p = program_;
  p.invars.insert(p.invars.begin(), captured_vars_.begin(), captured_vars_.end());
  for (const Atom& a : outputs) {
    if (!a.is_literal() && a.trace != id_)
      fail(ErrorKind::kValue, "trace: an output ", a.aval.str(),
           " is a value of another trace; return values computed inside the function");
    p.outvars.push_back(a);
  }
  return p;
}

void Builder::bind_vmap_axis(std::string name, int64_t size) { vmap_axis_.emplace(std::move(name), size); }

std::optional<int64_t> Builder::vmap_axis_size(const std::string& name) const {
  for (const Builder* b = this; b; b = b->parent_)
    if (b->vmap_axis_ && b->vmap_axis_->first == name) return b->vmap_axis_->second;
  return std::nullopt;
}

}  // namespace shardlab::ir
