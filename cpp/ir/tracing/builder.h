// Builds a Program equation by equation: every emit checks the parameters
// against the primitive's schema and runs its shape rule, so a bad program is
// rejected when it is traced (or read). A builder may be
// nested in another (a shard_map body in its enclosing trace): using a value
// of an enclosing trace captures it as an explicit input of the body, as JAX
// does with closed-over tracers. Inside a body that tracks VMA, an operand
// that varies along fewer mesh axes than another is first pvary'd to them,
// as JAX inserts pvary for a binary op of varying and invariant values
// (except for a primitive holding programs traced on its operands' types).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/core/program.h"

namespace shardlab::ir {

/// Accumulates a program being traced.
class Builder {
 public:
  /// A top-level trace.
  Builder();
  /// The trace of a body running in `scope`, nested in `parent` (may be null).
  Builder(Scope scope, Builder* parent);
  Builder(const Builder&) = delete;
  Builder& operator=(const Builder&) = delete;

  /// This trace's id (the `trace` of its values).
  uint32_t id() const { return id_; }
  /// Variable `var` of this trace or of the enclosing trace whose id is `trace`.
  Atom value(uint32_t trace, VarId var) const;
  /// Where the program being built runs.
  const Scope& scope() const { return program_.scope; }
  /// Adds a program input of type `aval`.
  Atom input(const Aval& aval);
  /// Emits prim[params](inputs) and returns its outputs.
  std::vector<Atom> emit(Prim prim, Params params, std::vector<Atom> inputs);
  /// emit() for a primitive with one output.
  Atom emit1(Prim prim, Params params, std::vector<Atom> inputs);
  /// Emits the equations of `p` (a program traced in this scope) on `args`
  /// and returns its outputs: how a traced function is inlined.
  std::vector<Atom> call(const Program& p, const std::vector<Atom>& args);
  /// `a` as a value of this trace: itself, a literal, or (for a value of an
  /// enclosing trace) the body input that captures it.
  Atom local(const Atom& a);
  /// The values of the enclosing trace captured so far, in order; build()
  /// puts their inputs before the others.
  const std::vector<Atom>& captured() const { return captured_outer_; }
  /// The equations emitted so far.
  const std::vector<Eqn>& equations() const { return program_.eqns; }
  /// The program so far, returning `outputs`.
  Program build(const std::vector<Atom>& outputs) const;
  /// `a` pvary'd along the axes of `vma` it does not vary along yet (a itself when none).
  Atom with_vma(const Atom& a, const std::vector<std::string>& vma);
  /// Binds jax.vmap's axis_name `name` to a batch of `size` here and in the
  /// traces nested in this one: collectives may name it (ir/tracing/vmap.h).
  void bind_vmap_axis(std::string name, int64_t size);
  /// The batch size of vmap axis `name` bound here or in an enclosing trace, or nullopt.
  std::optional<int64_t> vmap_axis_size(const std::string& name) const;

 private:
  VarId new_var(const Aval& aval);

  uint32_t id_;
  Builder* parent_ = nullptr;
  std::optional<std::pair<std::string, int64_t>> vmap_axis_;  // the axis name a vmap bound here
  Program program_;
  std::vector<Atom> captured_outer_;  // values of parent_'s trace
  std::vector<VarId> captured_vars_;  // their inputs here
};

/// A traced function of several values (what the *_at transformations take).
using TracedFn = std::function<std::vector<Atom>(Builder& b, const std::vector<Atom>& args)>;

}  // namespace shardlab::ir
