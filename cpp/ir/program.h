// The program representation, like a jaxpr: typed variables, literals,
// equations (primitive, params, inputs, outputs, nested programs) and a
// program's inputs and outputs.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "ir/aval.h"
#include "ir/params.h"
#include "ir/primitive.h"

namespace shardlab::ir {

/// A variable's number within its program.
using VarId = int32_t;

/// An equation operand: a variable or a scalar literal.
struct Atom {
  VarId var = -1;      ///< the variable, or -1 for a literal
  double literal = 0;  ///< the literal's value (cast to aval.dtype)
  Aval aval;           ///< the operand's type

  /// A variable operand.
  static Atom of(VarId v, const Aval& aval) { return Atom{v, 0.0, aval}; }
  /// A rank-0 literal of `dtype`.
  static Atom constant(double value, DType dtype) { return Atom{-1, value, Aval{dtype, {}, {}}}; }
  /// Whether this is a literal.
  bool is_literal() const { return var < 0; }
};

struct Program;

/// One equation: outputs = prim[params](inputs), with nested programs for
/// primitives such as shard_map.
struct Eqn {
  Prim prim;
  Params params;
  std::vector<Atom> inputs;
  std::vector<VarId> outputs;
  std::vector<std::shared_ptr<const Program>> subprograms;
};

/// A closed program: variables are numbered 0..avals.size()-1 in order of creation.
struct Program {
  std::vector<Aval> avals;    ///< the type of every variable, by VarId
  std::vector<VarId> invars;  ///< the inputs
  std::vector<Eqn> eqns;      ///< the body, in order
  std::vector<Atom> outvars;  ///< the outputs
};

}  // namespace shardlab::ir
