// Rules many primitives share, as bases of their Def (CRTP, for the name):
// a Def declares only the rules it defines itself (SHARDLAB_NONLINEAR_RULES,
// SHARDLAB_NONDIFFERENTIABLE_RULES), and the registry still takes every rule
// from the Def, so a Def with neither the rule nor the base does not compile.
#pragma once

#include <vector>

#include "ir/transforms/batching.h"
#include "ir/tracing/ops.h"
#include "ir/core/primitive.h"
#include "ir/primitives/sharding_rules.h"
#include "runtime/errors.h"

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

/// The batching rule of a primitive whose i-th output is f of its i-th
/// operand alone, elementwise (unary math, convert_element_type, and psum,
/// ppermute and the other collectives that keep shapes): the batch dimension
/// passes through, f(x)[.., k, ..] = f(x[.., k, ..]).
template <Prim P>
struct BatchPerOperand {
  static std::vector<Batched> batch(Builder& b, const Params& p, const std::vector<Batched>& in, int64_t) {
    std::vector<Atom> values;
    for (const Batched& x : in) values.push_back(x.value);
    const std::vector<Atom> outs = b.emit(P, p, values);
    std::vector<Batched> r;
    for (size_t i = 0; i < outs.size(); ++i) r.push_back(Batched{outs[i], in[i].dim});
    return r;
  }
};

/// The batching rule of an elementwise primitive of several operands (add,
/// the comparisons, ...): batch_elementwise, a scalar operand the same for
/// every example staying a scalar (the primitive repeats it).
template <Prim P>
struct BatchElementwise {
  static std::vector<Batched> batch(Builder& b, const Params& p, const std::vector<Batched>& in, int64_t size) {
    return batch_elementwise(b, P, p, in, size, in.size());
  }
};

/// The batching rule of a primitive over stacks of matrices [..., m, n]
/// whose leading dimensions are already a batch (the jax.lax.linalg
/// decompositions): the vmapped dimension moved first is one more of them.
template <Prim P>
struct BatchLeading {
  static std::vector<Batched> batch(Builder& b, const Params& p, const std::vector<Batched>& in, int64_t size) {
    return batched_at(b.emit(P, p, batch_dims_first(b, in, size)), 0);
  }
};

/// The batching rule of a primitive with no operands (iota, axis_index): its
/// equations are never batched, since batching starts from an operand.
template <class D>
struct NoOperands {
  static std::vector<Batched> batch(Builder&, const Params&, const std::vector<Batched>&, int64_t) {
    fail(ErrorKind::kValue, "vmap: ", D::kName, " takes no operands, so none of them can be batched");
  }
};

}  // namespace shardlab::ir
