// Evaluating one equation on one device's values: the step both executors
// share, so they compute every local primitive with the same code.
#pragma once

#include <vector>

#include "exec/interpreter.h"

namespace shardlab::exec {

/// Evaluates `e` (not a shard_map) reading its operands from `env` (indexed
/// by VarId) and writing its outputs there; `ctx` is the device running it,
/// or null outside a shard_map body (where collectives are an error).
void eval_eqn(const ir::Eqn& e, std::vector<HostArray>& env, const ir::DeviceContext* ctx);

/// Evaluates `e` (not a shard_map) on tensors already laid out: the one place
/// that picks a primitive's evaluation rule (local, or on the device `ctx`).
void eval_tensors(const ir::Eqn& e, const std::vector<const ir::Tensor*>& in, const std::vector<ir::Tensor*>& out,
                  const ir::DeviceContext* ctx);

/// A literal as a rank-0 host array.
HostArray literal_array(const ir::Atom& a);

/// An environment for running `p`: one empty value of the right aval per variable.
std::vector<HostArray> make_env(const ir::Program& p);

/// The value of an operand (a copy; literals become arrays).
HostArray value_of(const ir::Atom& a, const std::vector<HostArray>& env);

}  // namespace shardlab::exec
