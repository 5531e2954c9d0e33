// The program layer for the JS tracer. JS holds traced values as plain
// objects ({t: trace id, v: variable, dtype, shape, vma}, or {literal, dtype}),
// never as Embind objects: a trace owns its values. JS drives nested traces
// (a shard_map body, a function being differentiated) step by step, so user
// code runs in JS frames only and its exceptions propagate unchanged.
#pragma once

#include <emscripten/val.h>

#include <memory>
#include <string>

#include "exec/executable.h"
#include "ir/tracing/autodiff.h"
#include "ir/tracing/control_flow.h"
#include "ir/tracing/parallel_ops.h"
#include "ir/tracing/vmap.h"
#include "js/async_runtime.h"

namespace shardlab::js {

/// A traced program, shared by the JS jit cache and running jobs.
struct JsProgram {
  /// The program as traced (what make_jaxpr prints). Its custom rules may
  /// hold JS functions, so only the main thread holds it.
  std::shared_ptr<const ir::Program> traced;
  /// The program ready to run on the devices (frames reused across calls):
  /// the traced one lowered (ir::lower), which holds no JS functions.
  std::shared_ptr<exec::Executable> executable;
  /// The program it runs.
  const ir::Program& program() const { return executable->program(); }
  /// A traced program made ready to run.
  static JsProgram of(ir::Program p);
  /// jax.make_jaxpr's text (a JS string).
  emscripten::val text() const;
  /// jax.make_jaxpr's text with the last `num_consts` inputs as constvars (closed-over arrays).
  emscripten::val text_with_consts(int num_consts) const;
  /// The text of the program that runs (partitioned where its values are
  /// sharded, then lowered), the last `num_consts` inputs as constvars:
  /// jit(f).lower(x).compile().as_text().
  emscripten::val compiled_text(int num_consts) const;
  /// Where the text's nested programs (shard_map bodies) printed on several
  /// lines have their equations: [{first, last, equations}], lines [first, last).
  emscripten::val printed_bodies(int num_consts) const;
  /// The JSON form (ir/forms/json.h), as a JS string.
  emscripten::val json() const;
  /// The JSON form of the program that runs (lowered), whose equations a timeline's spans index.
  emscripten::val lowered_json() const;
  /// The equations of the program that runs (lowered: a scan as a while over its steps), nested bodies included.
  double num_equations() const;
  /// The traced program's input avals (shardings in their types) as JS atoms without trace ids.
  emscripten::val in_avals() const;
  /// The traced program's output avals.
  emscripten::val out_avals() const;
  /// Per output, the out_spec of the shard_map that produced it (stays
  /// sharded when run), or null for a replicated output.
  emscripten::val out_specs() const;
};

/// A trace: a top-level one owns its builder; the builder of a nested trace
/// belongs to its ShardMapTrace or FunctionTrace.
class JsTrace {
 public:
  /// A top-level trace.
  JsTrace();
  /// A view of `builder` (owned elsewhere).
  explicit JsTrace(ir::Builder* builder) : b_(builder) {}

  /// The builder equations are emitted into (the innermost open body's).
  ir::Builder& builder() { return *b_; }
  /// Adds an input of `dtype` ("float32", "int32", "bool") and `shape`, weakly typed when `weak` (a Python
  /// scalar), sharded over Explicit mesh axes as `sharding` says (null: unsharded; see sharding_to_js).
  emscripten::val input(const std::string& dtype, const emscripten::val& shape, bool weak,
                        const emscripten::val& sharding);
  /// Emits primitive `name` with `params` (a JS object) on `inputs` (JS atoms); returns the output atoms.
  emscripten::val emit(const std::string& name, const emscripten::val& params, const emscripten::val& inputs);
  /// Binds jax.lax function `name` (psum, pmean, all_gather, pcast, ...,
  /// found through the registry) with its keyword arguments `args` (a JS
  /// object under jax.lax's names: {axis_name, axis, tiled, ...}) on the
  /// atoms `operands` (a tree's leaves); returns the results.
  emscripten::val bind(const std::string& name, const emscripten::val& args, const emscripten::val& operands);
  /// The program returning `outputs`.
  JsProgram build(const emscripten::val& outputs);

  /// The C++ atom of a JS atom (a value of this trace or an enclosing one, or a literal).
  ir::Atom atom(const emscripten::val& a) const;
  /// The C++ atoms of a JS array of atoms.
  std::vector<ir::Atom> atoms(const emscripten::val& a) const;

 private:
  std::unique_ptr<ir::Builder> owned_;
  ir::Builder* b_;
};

/// Runs `program` with the lockstep executor (no threads) on host arrays
/// ({dtype, shape, data: a typed array} each); returns the outputs as
/// {dtype, shape, data: Uint32Array holding the elements' bits}.
emscripten::val interpret_js(const JsProgram& program, const emscripten::val& inputs);

/// The program whose JSON form is `text`, read and checked as ir/forms/json_read.h
/// says within `limits` ({maxTextBytes, maxEquations, maxValueBytes,
/// maxTotalBytes, maxWork}, each optional): how the judge rebuilds a program
/// a sandbox traced.
JsProgram program_from_json_js(const emscripten::val& text, const emscripten::val& limits);
/// The program running jax.lax function `name` with `args` on each device's
/// block of an array of `dtype` and `shape` laid out by `in_spec` on `mesh`,
/// the results laid out by `out_spec` (ir::collective_program): what the
/// device runtime's collective() runs.
JsProgram collective_program_js(const DeviceMesh& mesh, const std::string& dtype, const emscripten::val& shape,
                                const emscripten::val& in_spec, const std::string& name, const emscripten::val& args,
                                const emscripten::val& out_spec, bool check_vma);
/// The registry's jax.lax functions, which the JS API and Python's jax build
/// theirs from: [{name, primitive (null for a composite: pmean), collective,
/// takesOperands, args: [{name, type, keyword, optional, default}]}].
emscripten::val lax_functions_js();

/// A JS atom for `a`.
emscripten::val atom_to_js(const ir::Atom& a);
/// A JS array of atoms.
emscripten::val atoms_to_js(const std::vector<ir::Atom>& atoms);

/// A shard_map being traced from JS (ir::ShardMapTrace).
class JsShardMap {
 public:
  /// Starts tracing a shard_map over `mesh` on `args` of `outer`.
  JsShardMap(JsTrace& outer, const DeviceMesh& mesh, const emscripten::val& in_specs, bool check_vma,
             const emscripten::val& args);
  /// The body's trace (a view; valid while this object lives).
  JsTrace* body() { return &body_; }
  /// The body's inputs.
  emscripten::val blocks() const { return atoms_to_js(t_->blocks()); }
  /// Emits the shard_map; returns its outputs in the outer trace.
  emscripten::val finish(const emscripten::val& out_specs, const emscripten::val& outs);

 private:
  std::unique_ptr<ir::ShardMapTrace> t_;
  JsTrace body_;
};

/// A function being differentiated from JS (ir::FunctionTrace).
class JsFunction {
 public:
  /// Starts tracing a function of `args` (atoms of `outer`); an `isolated`
  /// one (a custom rule traced where it is called) cannot read outer values.
  JsFunction(JsTrace& outer, const emscripten::val& args, bool isolated);
  /// The function's trace (a view; valid while this object lives).
  JsTrace* body() { return &body_; }
  /// The function's inputs.
  emscripten::val inputs() const { return atoms_to_js(t_->inputs()); }
  /// The function's outputs in the outer trace (jax.vjp's first result).
  emscripten::val primal(const emscripten::val& outs);
  /// {outputs, derivs} of jax.vjp for output cotangents `cts` (atoms of
  /// `here`, the trace the pullback is called in: the outer one or one nested in it).
  emscripten::val vjp(const emscripten::val& outs, const emscripten::val& cts, JsTrace& here);
  /// The arguments' cotangents of jax.linear_transpose for output cotangents `cts` (atoms of `here`).
  emscripten::val linear_transpose(const emscripten::val& outs, const emscripten::val& cts, JsTrace& here);
  /// {outputs, derivs} of jax.jvp for argument tangents `tangents`.
  emscripten::val jvp(const emscripten::val& outs, const emscripten::val& tangents);
  /// {outputs, derivs} of jax.grad (a float32 scalar first output; the rest pass through as aux).
  emscripten::val grad(const emscripten::val& outs);
  /// jax.custom_jvp's call of the function (outputs `outs`) named `name`,
  /// differentiated by the JS rule `jvp` named `jvp_name` (js_rule).
  emscripten::val custom_jvp_call(const emscripten::val& outs, const std::string& name, const std::string& jvp_name,
                                  const emscripten::val& jvp);
  /// A jitted function's call (outputs `outs`) named `name`: one jit equation.
  emscripten::val jit_call(const emscripten::val& outs, const std::string& name);
  /// jax.checkpoint's call (outputs `outs`): one checkpoint equation.
  emscripten::val checkpoint_call(const emscripten::val& outs, bool prevent_cse, const std::string& policy);
  /// jax.custom_vjp's call, differentiated by the JS rules `fwd` and `bwd`.
  emscripten::val custom_vjp_call(const emscripten::val& outs, const std::string& name, const std::string& fwd_name,
                                  const emscripten::val& fwd, const std::string& bwd_name, const emscripten::val& bwd);
  /// jax.custom_jvp's call by its rule traced here (ir::FunctionTrace::custom_jvp_call_of_rule).
  emscripten::val custom_jvp_call_of_rule(const emscripten::val& outs, const std::string& name,
                                          const std::string& jvp_name);
  /// jax.custom_vjp's call by its fwd traced here (ir::FunctionTrace::custom_vjp_call_of_fwd), bwd the JS rule `bwd`.
  emscripten::val custom_vjp_call_of_fwd(const emscripten::val& outs, int num_outs, const std::string& name,
                                         const std::string& fwd_name, const std::string& bwd_name,
                                         const emscripten::val& bwd);

 private:
  JsTrace& outer_;
  std::unique_ptr<ir::FunctionTrace> t_;
  JsTrace body_;
};

/// A jax.lax.cond / switch being traced from JS (ir::CondTrace): branch after branch, then finish.
class JsCond {
 public:
  /// Starts tracing the branches of a cond on `operands` (atoms of `outer`).
  JsCond(JsTrace& outer, const emscripten::val& operands);
  /// Starts the next branch; returns its trace (a view, valid until end_branch).
  JsTrace* begin_branch();
  /// The current branch's inputs.
  emscripten::val inputs() const { return atoms_to_js(t_->inputs()); }
  /// Ends the current branch with its outputs.
  void end_branch(const emscripten::val& outs);
  /// Emits the cond at `index` (an int32 scalar atom of the outer trace); returns its outputs.
  emscripten::val finish(const emscripten::val& index);

 private:
  JsTrace& outer_;
  std::unique_ptr<ir::CondTrace> t_;
  std::unique_ptr<JsTrace> branch_;
};

/// A jax.lax.scan being traced from JS (ir::ScanTrace).
class JsScan {
 public:
  /// Starts tracing a scan over `xs` from `init` (atoms of `outer`); `length`
  /// an integer or null (xs' leading axis).
  JsScan(JsTrace& outer, const emscripten::val& init, const emscripten::val& xs, const emscripten::val& length,
         bool reverse);
  /// The body's trace (a view; valid while this object lives).
  JsTrace* body() { return &body_; }
  /// The body's inputs: the carries, then a row of each xs.
  emscripten::val inputs() const { return atoms_to_js(t_->inputs()); }
  /// Emits the scan whose body returned `outs` (carries, then a row of each ys); returns the carries, then the ys.
  emscripten::val finish(const emscripten::val& outs);

 private:
  std::unique_ptr<ir::ScanTrace> t_;
  JsTrace body_;
};

/// A jax.lax.while_loop being traced from JS (ir::WhileTrace): the cond, then the body, then finish.
class JsWhile {
 public:
  /// Starts tracing a while_loop from `init` (atoms of `outer`).
  JsWhile(JsTrace& outer, const emscripten::val& init);
  /// Starts the cond; returns its trace (a view, valid until end_cond).
  JsTrace* begin_cond();
  /// Ends the cond with its predicate (an atom of its trace).
  void end_cond(const emscripten::val& pred);
  /// Starts the body; returns its trace (a view, valid until finish).
  JsTrace* begin_body();
  /// The current cond's or body's inputs (the carries' stand-ins).
  emscripten::val inputs() const { return atoms_to_js(t_->inputs()); }
  /// Emits the while whose body returned `outs` (the new carries); returns the final carries.
  emscripten::val finish(const emscripten::val& outs);

 private:
  std::unique_ptr<ir::WhileTrace> t_;
  std::unique_ptr<JsTrace> part_;
};

/// A jax.vmap being traced from JS (ir::VmapTrace).
class JsVmap {
 public:
  /// Starts tracing vmap on `args` (atoms of `outer`), mapped along
  /// `in_axes` (one integer or null per argument), over `axis_size` (an
  /// integer, or null to take it from the mapped arguments), its axis named
  /// `axis_name` (a string collectives may name, or null).
  JsVmap(JsTrace& outer, const emscripten::val& args, const emscripten::val& in_axes,
         const emscripten::val& axis_size, const emscripten::val& axis_name);
  /// The function's trace (a view; valid while this object lives).
  JsTrace* body() { return &body_; }
  /// One example of each argument.
  emscripten::val inputs() const { return atoms_to_js(t_->inputs()); }
  /// The outputs for the whole batch in the outer trace, output j batched
  /// along out_axes[j] (an integer, or null: the same for every example).
  emscripten::val finish(const emscripten::val& outs, const emscripten::val& out_axes);

 private:
  std::unique_ptr<ir::VmapTrace> t_;
  JsTrace body_;
};

}  // namespace shardlab::js
