// Rules many primitives share, as bases of their Def (CRTP, for the name):
// a Def declares only the rules it defines itself (SHARDLAB_NONLINEAR_RULES,
// SHARDLAB_NONDIFFERENTIABLE_RULES), and the registry still takes every rule
// from the Def, so a Def with neither the rule nor the base does not compile.
#pragma once

#include <vector>

#include "ir/ops.h"
#include "ir/primitive.h"

namespace shardlab::ir {

/// The transpose rule of a primitive linear in none of its operands:
/// transposing it with respect to an operand is an error naming it.
template <class D>
struct NotLinear {
  static std::vector<MaybeAtom> transpose(Builder&, const Params&, const std::vector<MaybeAtom>&,
                                          const std::vector<Atom>& inputs, const std::vector<bool>& linear) {
    return not_linear(D::kName, inputs, linear);
  }
};

/// A piecewise-constant primitive (a comparison): d(outputs) = 0 (symbolic
/// zeros), and it is linear in none of its operands.
template <class D>
struct NonDifferentiable : NotLinear<D> {
  static std::vector<MaybeAtom> jvp(Builder&, const Params&, const std::vector<Atom>&, const std::vector<Atom>& outputs,
                                    const std::vector<MaybeAtom>&) {
    return std::vector<MaybeAtom>(outputs.size());
  }
};

}  // namespace shardlab::ir
