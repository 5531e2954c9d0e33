// Reverse-mode autodiff, as JAX does it: linearize (the JVP), then transpose
// the linear part. Transposition works on any program given which inputs are
// linear: the non-linear part is re-emitted forward, then cotangents flow
// backward through each linear equation's transpose rule.
#pragma once

#include "ir/tracing/builder.h"
#include "ir/core/program.h"

namespace shardlab::ir {

/// Which outputs of `p` depend on the inputs marked `linear_in`.
std::vector<bool> linear_outputs(const Program& p, const std::vector<bool>& linear_in);

/// What emit_transpose emits: the values of p's non-linear outputs and the
/// cotangents of its linear inputs (nullopt: a symbolic zero or a linear output).
struct Transposed {
  std::vector<MaybeAtom> values;  ///< per output of p
  std::vector<MaybeAtom> cts;     ///< per input of p
};

/// Emits into `b` the transpose of `p` with respect to the inputs marked
/// `linear_in`: `inputs` gives the non-linear inputs' values (entries of
/// linear inputs are ignored), `out_cts` the cotangents of p's outputs.
Transposed emit_transpose(Builder& b, const Program& p, const std::vector<bool>& linear_in,
                          const std::vector<Atom>& inputs, const std::vector<MaybeAtom>& out_cts);

/// The VJP of `program` with respect to the inputs marked in `wrt` (all when
/// empty): inputs are its inputs then one cotangent per output; outputs are
/// its outputs then one cotangent per marked input.
Program vjp(const Program& program, const std::vector<bool>& wrt = {});

}  // namespace shardlab::ir
