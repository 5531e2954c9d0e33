// Builds the primitive table from every Def<P>: instantiating Def<P>::shape
// etc. for each enumerator makes a missing primitive or rule a compile error.
// The jax.lax functions are the Defs' (and the few composites beside them).
#include <algorithm>
#include <array>
#include <type_traits>
#include <utility>

#include "ir/core/primitive.h"
#include "ir/primitives/bitwise.h"
#include "ir/primitives/call.h"
#include "ir/primitives/comparisons.h"
#include "ir/primitives/debug.h"
#include "ir/primitives/decompositions.h"
#include "ir/primitives/control_flow.h"
#include "ir/primitives/derivatives.h"
#include "ir/primitives/dtype_ops.h"
#include "ir/primitives/elementwise.h"
#include "ir/primitives/gather_scatter.h"
#include "ir/primitives/indexing.h"
#include "ir/primitives/linalg.h"
#include "ir/primitives/parallel.h"
#include "ir/primitives/reductions.h"
#include "ir/primitives/shape_ops.h"
#include "ir/primitives/shard_map.h"
#include "ir/primitives/sharding_ops.h"
#include "ir/primitives/sorting.h"
#include "ir/primitives/unary_math.h"
#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

template <class D, class = void>
struct HasEval : std::false_type {};
template <class D>
struct HasEval<D, std::void_t<decltype(&D::eval)>> : std::true_type {};
template <class D, class = void>
struct HasDeviceEval : std::false_type {};
template <class D>
struct HasDeviceEval<D, std::void_t<decltype(&D::eval_on_device)>> : std::true_type {};
template <class D, class = void>
struct RunByExecutor : std::false_type {};
template <class D>
struct RunByExecutor<D, std::void_t<decltype(D::kRunByExecutor)>> : std::true_type {};

template <class D, class = void>
struct HasLower : std::false_type {};
template <class D>
struct HasLower<D, std::void_t<decltype(&D::lower)>> : std::true_type {};
template <class D, class = void>
struct IsCollective : std::false_type {};
template <class D>
struct IsCollective<D, std::void_t<decltype(D::kCollective)>> : std::true_type {};
template <class D, class = void>
struct HasLaxFunction : std::false_type {};
template <class D>
struct HasLaxFunction<D, std::void_t<decltype(D::kLaxName)>> : std::true_type {};
template <class D, class = void>
struct IsCall : std::false_type {};
template <class D>
struct IsCall<D, std::void_t<decltype(D::kCallProgram)>> : std::true_type {};
template <class D, class = void>
struct IsNullary : std::false_type {};
template <class D>
struct IsNullary<D, std::void_t<decltype(D::kNullary)>> : std::true_type {};

template <class D, class = void>
struct HasNoneParams : std::false_type {};
template <class D>
struct HasNoneParams<D, std::void_t<decltype(D::kNoneParams)>> : std::true_type {};

template <class D, class = void>
struct HasAxisNames : std::false_type {};
template <class D>
struct HasAxisNames<D, std::void_t<decltype(&D::axis_names)>> : std::true_type {};

template <class D, class = void>
struct HasEffect : std::false_type {};
template <class D>
struct HasEffect<D, std::void_t<decltype(D::kEffect)>> : std::true_type {};

template <class D, class = void>
struct HasWeakRule : std::false_type {};
template <class D>
struct HasWeakRule<D, std::void_t<decltype(D::kWeak)>> : std::true_type {};

template <class D, class = void>
struct HasJvpWithPrimal : std::false_type {};
template <class D>
struct HasJvpWithPrimal<D, std::void_t<decltype(&D::jvp_with_primal)>> : std::true_type {};

// Its JVP rule, or null for a Def whose jvp_with_primal stands for it.
template <class D>
constexpr JvpRule jvp_of() {
  if constexpr (HasJvpWithPrimal<D>::value) return nullptr;
  else return &D::jvp;
}

template <Prim P>
constexpr PrimitiveDef def_of() {
  using D = Def<P>;
  static_assert(HasEval<D>::value + HasDeviceEval<D>::value + RunByExecutor<D>::value == 1,
                "a primitive has exactly one kind of evaluation rule");
  PrimitiveDef def{D::kName,       D::kParams, &D::shape, nullptr, nullptr, jvp_of<D>(), &D::transpose,
                   &D::batch, &D::sample};
  def.sharding = &D::sharding;
  def.partition = &D::partition;
  if constexpr (HasJvpWithPrimal<D>::value) def.jvp_with_primal = &D::jvp_with_primal;
  if constexpr (HasEval<D>::value) def.eval = &D::eval;
  if constexpr (HasDeviceEval<D>::value) def.eval_on_device = &D::eval_on_device;
  if constexpr (HasAxisNames<D>::value) {
    def.axis_names = &D::axis_names;
    def.batch_over_axis = &D::batch_over_axis;
  }
  if constexpr (HasEffect<D>::value) def.effect = D::kEffect;
  if constexpr (IsCollective<D>::value) {
    def.collective = true;
    def.group_axes = &D::axis_names;
    def.traffic = &D::traffic;
  }
  if constexpr (HasLower<D>::value) def.lower = &D::lower;
  if constexpr (IsCall<D>::value) def.call_program = D::kCallProgram;
  if constexpr (HasWeakRule<D>::value) def.weak = D::kWeak;
  if constexpr (HasNoneParams<D>::value) def.none_params = D::kNoneParams;
  if constexpr (HasLaxFunction<D>::value) def.lax = LaxFunction{D::kLaxName, D::kLaxArgs, &D::bind, !IsNullary<D>::value};
  return def;
}

template <size_t... I>
constexpr std::array<PrimitiveDef, kNumPrims> make_table(std::index_sequence<I...>) {
  return {def_of<static_cast<Prim>(I)>()...};
}

constexpr std::array<PrimitiveDef, kNumPrims> kTable = make_table(std::make_index_sequence<kNumPrims>{});

}  // namespace

const PrimitiveDef& primitive(Prim p) { return kTable[static_cast<size_t>(p)]; }

bool weak_result(WeakRule rule, const std::vector<Aval>& in, size_t i) {
  auto all_weak = [&](size_t from) {
    return std::all_of(in.begin() + static_cast<std::ptrdiff_t>(std::min(from, in.size())), in.end(),
                       [](const Aval& a) { return a.weak; });
  };
  switch (rule) {
    case WeakRule::kAllOperands: return all_weak(0);
    case WeakRule::kFirstOperand: return !in.empty() && in[0].weak;
    case WeakRule::kCases: return all_weak(1);
    case WeakRule::kEachOperand: return i < in.size() && in[i].weak;
    case WeakRule::kNever: return false;
    case WeakRule::kShapeRule: break;
  }
  return false;
}

Prim primitive_named(const std::string& name) {
  std::string valid;
  for (size_t i = 0; i < kNumPrims; ++i) {
    if (name == kTable[i].name) return static_cast<Prim>(i);
    valid += std::string(i ? ", " : "") + kTable[i].name;
  }
  fail(ErrorKind::kValue, "primitive: unknown primitive '", name, "'; valid names are ", valid);
}

std::vector<Atom> LaxFunction::call(Builder& b, Params given, const std::vector<Atom>& operands) const {
  for (const ParamSpec& spec : args) {
    const bool present = std::any_of(given.begin(), given.end(), [&](const Param& p) { return p.name == spec.name; });
    if (!present && spec.optional) given.push_back(Param{spec.name, fallback_value(spec)});
  }
  return bind(b, given, operands);
}

const LaxFunction& lax_function(const std::string& name) {
  std::string valid;
  auto match = [&](const LaxFunction& f) {
    valid += std::string(valid.empty() ? "" : ", ") + f.name;
    return name == f.name;
  };
  for (const PrimitiveDef& def : kTable)
    if (def.lax.name && match(def.lax)) return def.lax;
  for (const LaxFunction& f : kParallelComposites)
    if (match(f)) return f;
  fail(ErrorKind::kValue, "lax: unknown function '", name, "'; valid names are ", valid);
}

}  // namespace shardlab::ir
