// Lowering a traced program to what the executors run: every equation whose
// primitive has a lowering rule (custom calls, cond, scan; PrimitiveDef::lower)
// is replaced by what the rule emits, at any depth (shard_map bodies, while
// loops' cond and body too), a transpose of a product's result becomes
// the product of its operands swapped, a float division by a constant a
// product with its reciprocal and a log of an exp, a power or a square root
// rewritten, as XLA compiles them (see lower.cc).
// The traced program is what make_jaxpr prints; the lowered one runs.
#pragma once

#include "ir/tracing/builder.h"
#include "ir/core/program.h"

namespace shardlab::ir {

/// `p` lowered (`p` itself when nothing in it needs lowering).
ProgramRef lower(const ProgramRef& p);

/// Emits the equations of `p` (traced in b's scope) on `args` into `b`,
/// lowered; returns p's outputs. What lowering rules emit sub-programs with.
std::vector<Atom> emit_lowered(Builder& b, const Program& p, const std::vector<Atom>& args);

}  // namespace shardlab::ir
