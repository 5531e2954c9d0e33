// Partial evaluation, as JAX's partial_eval_jaxpr_nounits: a program split,
// given which of its inputs are known, into what can be computed from the
// known inputs alone and what must wait for the unknown ones. The known part
// also gives the residuals: the known values the unknown part reads. Reverse
// mode uses it to run a loop's primal work forward once, saving residuals,
// and only the linear work backward (a scan's transpose: a forward scan with
// stacked residuals, then a transposed scan).
#pragma once

#include <vector>

#include "ir/core/program.h"

namespace shardlab::ir {

/// A program split by partial_eval.
struct PartialEval {
  /// known inputs of p (in p's order) -> (p's known outputs, residuals)
  Program known;
  /// (residuals, unknown inputs of p) -> p's unknown outputs
  Program unknown;
  /// Per output of p: whether the unknown part gives it.
  std::vector<bool> out_unknown;
  /// The residuals, as variables of p (some may be p's known inputs).
  std::vector<VarId> residuals;
};

/// Splits `p` given `unknown_in` (per input). An equation is unknown when it
/// reads an unknown value; an output is unknown when its value is, or when
/// `instantiate` (per output, or empty) asks for it from the unknown part.
PartialEval partial_eval(const Program& p, const std::vector<bool>& unknown_in,
                         const std::vector<bool>& instantiate = {});

}  // namespace shardlab::ir
