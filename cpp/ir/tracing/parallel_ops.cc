#include "ir/tracing/parallel_ops.h"

#include <algorithm>

#include "ir/tracing/ops.h"
#include "ir/primitives/parallel.h"
#include "ir/primitives/shard_map.h"
#include "runtime/errors.h"

namespace shardlab::ir {

Atom pvary(Builder& b, const Atom& x, const AxisNames& axes) {
  return lax_function("pcast").call(b, {{"axis_name", axes}, {"to", std::string("varying")}}, {x})[0];
}

namespace {

Scope body_scope(Builder& outer, const MeshRef& mesh, bool check_vma) {
  if (outer.scope().mesh)
    fail(ErrorKind::kValue,
         "shard_map: a shard_map inside a shard_map body is not supported; use one shard_map over all the mesh axes");
  return Scope{mesh, check_vma};
}

}  // namespace

ShardMapTrace::ShardMapTrace(Builder& outer, MeshRef mesh, Specs in_specs, bool check_vma, std::vector<Atom> args)
    : outer_(outer),
      mesh_(std::move(mesh)),
      in_specs_(std::move(in_specs)),
      check_vma_(check_vma),
      args_(std::move(args)),
      body_(body_scope(outer, mesh_, check_vma), &outer) {
  if (in_specs_.size() != args_.size())
    fail(ErrorKind::kValue, "shard_map: got ", args_.size(), " arguments but ", in_specs_.size(),
         " in_specs; give one spec per argument (or one for a whole subtree)");
  for (size_t i = 0; i < args_.size(); ++i) {
    args_[i] = outer_.local(args_[i]);
    blocks_.push_back(body_.input(
        block_aval(*mesh_, args_[i].aval, in_specs_[i], check_vma_, "shard_map in_specs[" + std::to_string(i) + "]")));
  }
}

std::vector<Atom> ShardMapTrace::finish(const Specs& out_specs, std::vector<Atom> outs) {
  if (out_specs.size() != outs.size())
    fail(ErrorKind::kValue, "shard_map: the body returned ", outs.size(), " outputs but there are ", out_specs.size(),
         " out_specs; give one spec per output (or one for a whole subtree)");
  for (size_t j = 0; j < outs.size(); ++j) {
    outs[j] = body_.local(outs[j]);
    // A block tiled along an axis is, as a value, varying along it; typing
    // it so keeps cotangents of the same type as the outputs.
    if (check_vma_ && !outs[j].is_literal()) outs[j] = vary_along(body_, outs[j], spec_axes(out_specs[j]));
  }
  auto program = std::make_shared<const Program>(body_.build(outs));
  std::vector<Atom> operands = body_.captured();
  operands.insert(operands.end(), args_.begin(), args_.end());
  Specs specs(body_.captured().size(), PartitionSpec{});
  specs.insert(specs.end(), in_specs_.begin(), in_specs_.end());
  return outer_.emit(
      Prim::kShardMap,
      {{"jaxpr", program}, {"mesh", mesh_}, {"in_specs", specs}, {"out_specs", out_specs}, {"check_vma", check_vma_}},
      operands);
}

std::vector<Atom> shard_map(Builder& b, const MeshRef& mesh, const Specs& in_specs, const Specs& out_specs,
                            bool check_vma, const std::vector<Atom>& args, const BodyFn& f) {
  ShardMapTrace t(b, mesh, in_specs, check_vma, args);
  return t.finish(out_specs, f(t.body(), t.blocks()));
}

Program collective_program(const MeshRef& mesh, const Aval& in, const PartitionSpec& in_spec,
                           const std::string& lax_name, const Params& args, const PartitionSpec& out_spec,
                           bool check_vma) {
  const LaxFunction& f = lax_function(lax_name);
  Builder b;
  ShardMapTrace t(b, mesh, {in_spec}, check_vma, {b.input(in)});
  const std::vector<Atom> outs = f.call(t.body(), args, f.takes_operands ? t.blocks() : std::vector<Atom>{});
  Atom y = outs.at(0);
  // A scalar result of a function that reads no operand (axis_index) becomes
  // a [1] block, so that the devices' results can be laid out along mesh axes.
  if (!f.takes_operands && y.aval.shape.empty()) y = broadcast_in_dim(t.body(), y, {1}, {});
  // shard_map would refuse the same out_spec; this names the collective, which is what the caller chose.
  const std::vector<std::string> laid_out = spec_axes(out_spec);
  if (check_vma)
    for (const std::string& a : y.aval.vma)
      if (std::find(laid_out.begin(), laid_out.end(), a) == laid_out.end())
        fail(ErrorKind::kSharding, lax_name, ": out_spec ", out_spec.str(), " omits mesh axis '", a,
             "', along which the result varies; mention it in out_spec, or pass check_vma=False");
  return b.build(t.finish({out_spec}, {y}));
}

}  // namespace shardlab::ir
