// Builds a Program equation by equation: every emit runs the primitive's
// shape rule, so a bad program is rejected when it is traced.
#pragma once

#include <vector>

#include "ir/program.h"

namespace shardlab::ir {

/// Accumulates a program being traced.
class Builder {
 public:
  /// Adds a program input of type `aval`.
  Atom input(const Aval& aval);
  /// Emits prim[params](inputs) and returns its outputs.
  std::vector<Atom> emit(Prim prim, Params params, std::vector<Atom> inputs);
  /// emit() for a primitive with one output.
  Atom emit1(Prim prim, Params params, std::vector<Atom> inputs);
  /// The program so far, returning `outputs`.
  Program build(const std::vector<Atom>& outputs) const;

 private:
  VarId new_var(const Aval& aval);
  Program program_;
};

}  // namespace shardlab::ir
