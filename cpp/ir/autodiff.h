// Differentiating a function in the middle of a trace (jax.vjp, jax.grad and
// jax.jvp called on traced values): the function is traced in a nested
// builder with the enclosing scope, transformed, and its transform inlined.
// Values it captures from the enclosing trace are constants to the derivative.
#pragma once

#include <functional>
#include <vector>

#include "ir/builder.h"

namespace shardlab::ir {

/// A traced function of several values.
using TracedFn = std::function<std::vector<Atom>(Builder& b, const std::vector<Atom>& args)>;

/// What vjp_at and jvp_at emit: f's outputs and the derivatives.
struct Derivatives {
  std::vector<Atom> outputs;  ///< f(args)
  std::vector<Atom> derivs;   ///< vjp: one cotangent per arg; jvp: one tangent per output
};

/// jax.vjp(f, *args)[1](*cts), emitted into b.
Derivatives vjp_at(Builder& b, const TracedFn& f, const std::vector<Atom>& args, const std::vector<Atom>& cts);

/// jax.jvp(f, args, tangents), emitted into b.
Derivatives jvp_at(Builder& b, const TracedFn& f, const std::vector<Atom>& args, const std::vector<Atom>& tangents);

/// jax.grad(f, argnums=all)(*args) for f with one scalar float32 output
/// (its cotangent is 1, typed like the output).
Derivatives grad_at(Builder& b, const TracedFn& f, const std::vector<Atom>& args);

}  // namespace shardlab::ir
