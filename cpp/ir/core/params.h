// Primitive parameters: an ordered list of named values (the order is the
// printing order, as in a jaxpr: `reduce_sum[axes=(0,)]`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ir/core/sharding.h"
#include "runtime/mesh.h"
#include "runtime/partition_spec.h"
#include "runtime/shape.h"

namespace shardlab::ir {

/// Lists of integer lists: pad's padding_config, dot_general's dimension numbers, ppermute's pairs.
using IntLists = std::vector<std::vector<int64_t>>;

struct Program;

/// A nested program (shard_map's body), printed by the program printer.
using ProgramRef = std::shared_ptr<const Program>;
/// Nested programs (cond's branches), printed as a tuple of programs.
using Programs = std::vector<ProgramRef>;
/// A mesh (shard_map's).
using MeshRef = std::shared_ptr<const Mesh>;
/// One PartitionSpec per input or output (shard_map's in_specs and out_specs).
using Specs = std::vector<PartitionSpec>;

struct Rule;
/// A function traced when a transformation needs it (custom_jvp's jvp rule,
/// custom_vjp's fwd and bwd; ir/tracing/rule.h), printed by its name.
using RuleRef = std::shared_ptr<const Rule>;

/// One parameter value.
using ParamValue = std::variant<bool, int64_t, double, std::string, std::vector<int64_t>, std::vector<std::string>,
                                DType, IntLists, MeshRef, Specs, ProgramRef, RuleRef, Programs, Sharding>;

/// A named parameter.
struct Param {
  std::string name;
  ParamValue value;
  bool operator==(const Param& o) const { return name == o.name && value == o.value; }
};

/// The parameters of one equation.
using Params = std::vector<Param>;

/// The type of a parameter, one per alternative of ParamValue: what a reader
/// of a program's JSON form or of JS options converts a value to (JSON and JS
/// cannot tell 2 from 2.0, or an empty list of ints from one of names).
/// kSharding: a sharding over a mesh's Explicit axes (out_sharding=, reshard's
/// destination); one with no mesh is JAX's None.
enum class ParamType : uint8_t { kBool, kInt, kFloat, kString, kInts, kNames, kDType, kIntLists, kMesh, kSpecs, kProgram, kRule, kPrograms, kSharding };

/// How a parameter prints where JAX prints it its own way rather than as a
/// plain tuple: dot_general's `(([1], [0]), ([], []))`, gather's
/// `GatherDimensionNumbers(offset_dims=(1,), ...)`, `GatherScatterMode.CLIP`,
/// `None` for a fill value or an empty list that stands for JAX's None, a
/// scan's flat trees of its groups of operands (`((), (None,), (None,))`:
/// the number of values in each group, printed as JAX 0.11's FlatTree of Nones).
enum class ParamFormat : uint8_t {
  kPlain, kDotDimensions, kGatherDimensions, kScatterDimensions, kGatherMode, kFillValue, kNoneIfEmpty, kNoneGroups,
  kImplied,  ///< never printed: the binder's type says it (broadcast_in_dim's shape, as JAX's printing rule), or JAX keeps it in a callback (debug_callback's fmt)
  kName,     ///< a string printed bare: a Python object JAX prints by its name (checkpoint's policy, None)
};

/// A parameter's name and type; for a jax.lax function's argument (a
/// LaxFunction's, which the JS API and Python's jax build their functions
/// from) also how it is passed and its default.
struct ParamSpec {
  const char* name = nullptr;
  ParamType type = ParamType::kBool;
  /// A jax.lax argument that may be left out: a caller from JS gets `fallback`.
  bool optional = false;
  /// Left out of the printed program when it is 0, empty or None (as JAX
  /// prints a custom call's num_consts only when the function closes over
  /// values, broadcast_in_dim's broadcast_dimensions only when there are
  /// some, and dot_general's out_sharding only when given).
  bool printed_if_nonzero = false;
  /// How the printed program shows it.
  ParamFormat format = ParamFormat::kPlain;
  /// A jax.lax argument JAX takes by keyword only (in JS, the options object).
  bool keyword = false;
  /// An optional jax.lax argument's default: an int, or a bool as 0 or 1.
  int64_t fallback = 0;
  /// An optional string argument's default (all_gather's to='varying').
  const char* text_fallback = nullptr;
};

/// A jax.lax function's argument passed by position (or by name, in Python).
constexpr ParamSpec positional_arg(const char* name, ParamType type) { return ParamSpec{name, type}; }

/// A jax.lax function's keyword-only argument; with a `fallback`, optional.
constexpr ParamSpec keyword_arg(const char* name, ParamType type) {
  ParamSpec s{name, type};
  s.keyword = true;
  return s;
}
/// See keyword_arg: an optional one, `fallback` when left out (an int, or a bool as 0 or 1).
constexpr ParamSpec keyword_arg(const char* name, ParamType type, int64_t fallback) {
  ParamSpec s = keyword_arg(name, type);
  s.optional = true;
  s.fallback = fallback;
  return s;
}

/// See keyword_arg: an optional string argument, `fallback` when left out.
constexpr ParamSpec keyword_text_arg(const char* name, const char* fallback) {
  ParamSpec s = keyword_arg(name, ParamType::kString);
  s.optional = true;
  s.text_fallback = fallback;
  return s;
}

/// The parameters a primitive takes, in printing order: every equation of it
/// has exactly these (Builder::emit checks).
struct ParamSchema {
  /// Most parameters a primitive has.
  static constexpr size_t kMax = 8;
  ParamSpec items[kMax]{};
  size_t size = 0;
  constexpr ParamSchema() = default;
  constexpr ParamSchema(std::initializer_list<ParamSpec> specs) {
    for (const ParamSpec& s : specs) items[size++] = s;
  }
  /// The specs, for range-for.
  constexpr const ParamSpec* begin() const { return items; }
  /// The end of the specs.
  constexpr const ParamSpec* end() const { return items + size; }
};

/// The type of a parameter value.
ParamType type_of(const ParamValue& v);
/// How a ParamType is called in messages ("int", "list of axis names", ...).
const char* param_type_name(ParamType t);
/// An optional jax.lax argument's default, as the value of its type (kInt or kBool).
ParamValue fallback_value(const ParamSpec& spec);

/// Checks that `params` are exactly `schema`'s, of its types and in its
/// order; throws a ValueError naming `prim` and the missing, mistyped or
/// unexpected parameter otherwise.
void check_params(const ParamSchema& schema, const Params& params, const char* prim);

/// The parameter `name` as type T; throws a ValueError naming `prim` if it is missing or of another type.
/// A string_view, so that looking a parameter up while evaluating never allocates.
template <class T>
const T& param(const Params& params, std::string_view name, const char* prim);

/// `params` with parameter `name`'s value replaced by `value` (how a rule
/// re-emits its primitive with some parameters changed).
Params with_param(Params params, std::string_view name, ParamValue value);

/// How a parameter prints in a jaxpr: 3, True, (0, 1), 'data', ('a', 'b'),
/// (P('data', None),), Mesh('data': 8). A nested program prints as "{...}"
/// here; the program printer expands it.
std::string param_str(const ParamValue& v);
/// How a parameter prints in a jaxpr in `format` (ParamFormat).
std::string param_str(const ParamValue& v, ParamFormat format);

}  // namespace shardlab::ir
