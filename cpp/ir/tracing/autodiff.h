// Differentiating a function in the middle of a trace (jax.vjp, jax.grad and
// jax.jvp called on traced values): the function is traced in a nested
// builder with the enclosing scope, transformed, and its transform inlined.
// Values it captures from the enclosing trace are constants to the derivative.
#pragma once

#include <vector>

#include "ir/tracing/builder.h"
#include "ir/tracing/rule.h"

namespace shardlab::ir {

/// What vjp_at and jvp_at emit: f's outputs and the derivatives.
struct Derivatives {
  std::vector<Atom> outputs;  ///< f(args)
  std::vector<Atom> derivs;   ///< vjp: one cotangent per arg; jvp: one tangent per output
};

/// A function being traced for differentiation, in a builder nested in the
/// enclosing one with the same scope. Callers (the JS tracer, the *_at
/// functions below) trace the function on inputs(), then take a derivative.
class FunctionTrace {
 public:
  /// Starts tracing a function of `args` (values of `outer`); an `isolated`
  /// one (a custom rule) cannot read the values of enclosing traces.
  FunctionTrace(Builder& outer, std::vector<Atom> args, bool isolated = false);
  /// The function's builder.
  Builder& builder() { return inner_; }
  /// The function's inputs, typed like the arguments.
  const std::vector<Atom>& inputs() const { return inputs_; }
  /// jax.vjp: f's outputs `outs` (values of builder()) and the cotangents of
  /// the arguments for output cotangents `cts` (nullopt: zero), emitted into
  /// `into`: the outer builder, or one nested in it (a pullback called under
  /// vmap, as jacrev does), whose values `cts` may be.
  Derivatives vjp(std::vector<Atom> outs, const std::vector<MaybeAtom>& cts, Builder& into);
  /// jax.linear_transpose: the cotangents of the arguments (f linear in
  /// them; their values are never read) for output cotangents `cts`,
  /// emitted into `into`; a non-linear use of an argument is its
  /// primitive's transpose error.
  std::vector<Atom> linear_transpose(std::vector<Atom> outs, const std::vector<MaybeAtom>& cts, Builder& into);
  /// f's outputs `outs` in the outer trace (its equations inlined there).
  std::vector<Atom> primal(std::vector<Atom> outs);
  /// jax.jvp: the outputs and their tangents for argument tangents `tangents`.
  Derivatives jvp(std::vector<Atom> outs, const std::vector<Atom>& tangents);
  /// jax.grad over every argument (with has_aux: the outputs after the first
  /// pass through undifferentiated) for a float32 scalar first output (its
  /// cotangent is 1, typed like the output).
  Derivatives grad(std::vector<Atom> outs);
  /// jax.custom_jvp's call: f's outputs `outs` in the outer trace as one
  /// custom_jvp_call of f's program (the values it closes over first among
  /// its operands: num_consts), differentiated by the rule `jvp`.
  std::vector<Atom> custom_jvp_call(std::vector<Atom> outs, const std::string& name, RuleRef jvp);
  /// A jitted function's call inside another trace: one jit equation of f's
  /// program (the values it closes over first among its operands), named `name`.
  std::vector<Atom> jit_call(std::vector<Atom> outs, const std::string& name);
  /// jax.checkpoint's call inside a trace: one checkpoint equation of f's
  /// program, whose derivative recomputes what `policy` does not save.
  std::vector<Atom> checkpoint_call(std::vector<Atom> outs, bool prevent_cse, const std::string& policy);
  /// jax.custom_vjp's call: as custom_jvp_call, differentiated by `fwd` and `bwd`.
  std::vector<Atom> custom_vjp_call(std::vector<Atom> outs, const std::string& name, RuleRef fwd, RuleRef bwd);
  /// jax.custom_jvp's call where a derivative will be taken of it: the
  /// isolated trace of its rule `jvp_name` on (primals, tangents), the
  /// arguments twice, with outputs `outs` (primal outputs, tangent outputs)
  /// gives the custom_jvp_call: its program the rule's primal half, its
  /// rule the traced one (JAX's JVP trace runs the rule, never the function).
  std::vector<Atom> custom_jvp_call_of_rule(std::vector<Atom> outs, const std::string& name,
                                            const std::string& jvp_name);
  /// jax.custom_vjp's call where a derivative will be taken of it: the
  /// isolated trace of `fwd_name` on the arguments, with outputs `outs` (the
  /// `num_outs` primal outputs, then residuals), gives the custom_vjp_call:
  /// its program fwd's primal half, its fwd the traced one, its bwd `bwd`.
  std::vector<Atom> custom_vjp_call_of_fwd(std::vector<Atom> outs, size_t num_outs, const std::string& name,
                                           const std::string& fwd_name, RuleRef bwd);

 private:
  Program program(std::vector<Atom>& outs);
  std::vector<bool> wrt() const;

  Builder& outer_;
  std::vector<Atom> args_;
  Builder inner_;
  std::vector<Atom> inputs_;
};

/// jax.vjp(f, *args)[1](*cts), emitted into b.
Derivatives vjp_at(Builder& b, const TracedFn& f, const std::vector<Atom>& args, const std::vector<Atom>& cts);

/// jax.jvp(f, args, tangents), emitted into b.
Derivatives jvp_at(Builder& b, const TracedFn& f, const std::vector<Atom>& args, const std::vector<Atom>& tangents);

/// jax.grad(f, argnums=all)(*args) for f with one scalar float32 output.
Derivatives grad_at(Builder& b, const TracedFn& f, const std::vector<Atom>& args);

}  // namespace shardlab::ir
