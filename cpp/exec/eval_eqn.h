// Evaluating one equation on one device's values: the step both executors
// share, so they compute every local primitive with the same code.
#pragma once

#include <vector>

#include "exec/lockstep_program.h"

namespace shardlab::exec {

/// Evaluates `e` (not a shard_map) reading its operands from `env` (indexed
/// by VarId) and writing its outputs there; `ctx` is the device running it,
/// or null outside a shard_map body (where collectives are an error). With
/// `donate` (see donations), the result takes over operand 0's storage.
void eval_eqn(const ir::Eqn& e, std::vector<HostArray>& env, const ir::DeviceContext* ctx, bool donate = false);

/// Per equation of `p`: whether it may write its result over its first
/// operand's storage: a dynamic_update_slice whose operand is a variable read
/// there for the last time, not an output of p nor one of its first `kept`
/// inputs. A loop filling a buffer row by row (a scan's stacked outputs) then
/// writes each row in place instead of copying the buffer every iteration.
std::vector<bool> donations(const ir::Program& p, size_t kept);

/// Evaluates `e` (not a shard_map) on tensors already laid out: the one place
/// that picks a primitive's evaluation rule (local, on the device `ctx`, a
/// while loop's, exec/while_loop.h, or a cond's, exec/cond_branch.h).
void eval_tensors(const ir::Eqn& e, const std::vector<const ir::Tensor*>& in, const std::vector<ir::Tensor*>& out,
                  const ir::DeviceContext* ctx);

/// A literal as a rank-0 host array.
HostArray literal_array(const ir::Atom& a);

/// Evaluates `e` (not a shard_map) in place: operand variable v's elements
/// are at operand(v), result v is the tensor result(v); literals get storage here.
template <class Operand, class Result>
void eval_in_place(const ir::Eqn& e, Operand operand, Result result, const ir::DeviceContext* ctx) {
  std::vector<HostArray> literals;
  literals.reserve(e.inputs.size());
  std::vector<ir::Tensor> in, out;  // reserved: the pointers below point into them
  in.reserve(e.inputs.size());
  out.reserve(e.outputs.size());
  std::vector<const ir::Tensor*> in_ptrs;
  std::vector<ir::Tensor*> out_ptrs;
  for (const ir::Atom& a : e.inputs) {
    void* data = a.is_literal() ? literals.emplace_back(literal_array(a)).words.data() : operand(a.var);
    in_ptrs.push_back(&in.emplace_back(ir::Tensor{a.aval, data}));
  }
  for (ir::VarId v : e.outputs) out_ptrs.push_back(&out.emplace_back(result(v)));
  eval_tensors(e, in_ptrs, out_ptrs, ctx);
}

/// An environment for running `p`: one empty value of the right aval per variable.
std::vector<HostArray> make_env(const ir::Program& p);

/// The value of an operand (a copy; literals become arrays).
HostArray value_of(const ir::Atom& a, const std::vector<HostArray>& env);

}  // namespace shardlab::exec
