// Builds the primitive table from every Def<P>: instantiating Def<P>::shape
// etc. for each enumerator makes a missing primitive or rule a compile error.
#include <array>
#include <utility>

#include "ir/primitive.h"
#include "ir/primitives/comparisons.h"
#include "ir/primitives/dtype_ops.h"
#include "ir/primitives/elementwise.h"
#include "ir/primitives/indexing.h"
#include "ir/primitives/linalg.h"
#include "ir/primitives/reductions.h"
#include "ir/primitives/shape_ops.h"
#include "ir/primitives/unary_math.h"

namespace shardlab::ir {

namespace {

template <Prim P>
constexpr PrimitiveDef def_of() {
  return PrimitiveDef{Def<P>::kName, &Def<P>::shape, &Def<P>::eval, &Def<P>::jvp, &Def<P>::transpose};
}

template <size_t... I>
constexpr std::array<PrimitiveDef, kNumPrims> make_table(std::index_sequence<I...>) {
  return {def_of<static_cast<Prim>(I)>()...};
}

constexpr std::array<PrimitiveDef, kNumPrims> kTable = make_table(std::make_index_sequence<kNumPrims>{});

}  // namespace

const PrimitiveDef& primitive(Prim p) { return kTable[static_cast<size_t>(p)]; }

}  // namespace shardlab::ir
