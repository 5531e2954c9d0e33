// The program representation, like a jaxpr: typed variables, literals,
// equations (primitive, params, inputs, outputs; a nested program such as a
// shard_map body is a param, as in JAX) and a program's inputs and outputs.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/core/aval.h"
#include "ir/core/params.h"
#include "ir/core/primitive.h"

namespace shardlab::ir {

/// A variable's number within its program.
using VarId = int32_t;

/// An equation operand: a variable or a scalar literal.
struct Atom {
  VarId var = -1;      ///< the variable, or -1 for a literal
  double literal = 0;  ///< the literal's value (cast to aval.dtype)
  Aval aval;           ///< the operand's type
  uint32_t trace = 0;  ///< the Builder whose variable it is (0 for literals)

  /// A variable operand of trace `trace`.
  static Atom of(VarId v, const Aval& aval, uint32_t trace) { return Atom{v, 0.0, aval, trace}; }
  /// A rank-0 literal of `dtype`, weakly typed when it stands for a Python scalar.
  static Atom constant(double value, DType dtype, bool weak = false) {
    return Atom{-1, value, Aval{dtype, {}, {}, weak}, 0};
  }
  /// Whether this is a literal.
  bool is_literal() const { return var < 0; }
};

struct Program;

/// One equation: outputs = prim[params](inputs).
struct Eqn {
  Prim prim;
  Params params;
  std::vector<Atom> inputs;
  std::vector<VarId> outputs;
};

/// Where a program runs: at the top level, or as the body of a shard_map over
/// `mesh`, where values carry the mesh axes they vary along (when check_vma).
struct Scope {
  MeshRef mesh;           ///< the shard_map's mesh; null at the top level
  bool check_vma = true;  ///< whether avals track varying axes (shard_map's check_vma)
  /// Whether values here carry VMA types.
  bool tracks_vma() const { return mesh && check_vma; }
};

/// A closed program: variables are numbered 0..avals.size()-1 in order of creation.
struct Program {
  std::vector<Aval> avals;    ///< the type of every variable, by VarId
  std::vector<VarId> invars;  ///< the inputs
  std::vector<Eqn> eqns;      ///< the body, in order
  std::vector<Atom> outvars;  ///< the outputs
  Scope scope;                ///< where it runs
};

/// Whether `a` and `b` are the same program: the same variables, equations
/// (nested programs compared alike; meshes and rules by identity) and
/// outputs, in the same scope. A function traced twice on the same types gives two.
bool same_program(const Program& a, const Program& b);

/// The programs nested in equation `e` (its program parameters: a
/// shard_map's body, a custom call's program, cond's branches, scan's body).
std::vector<const Program*> subprograms(const Eqn& e);

/// The mesh the shard_maps of `p` run over, nested ones included, or null
/// when it has none. Shard_maps over two meshes (other shapes or names) are
/// a ShardingError naming `what`: a program runs on one mesh's devices, on
/// every executor alike.
MeshRef program_mesh(const Program& p, const char* what);

/// The types of `values`, as a tuple for messages: (f32[3], i32[]).
std::string types_str(const std::vector<Atom>& values);

}  // namespace shardlab::ir
