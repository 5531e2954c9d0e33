#include "ir/tracing/parallel_ops.h"

#include <algorithm>

#include "ir/tracing/ops.h"
#include "ir/primitives/parallel.h"
#include "ir/primitives/shard_map.h"
#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

// jax.lax function `name` bound with `args` on `xs`, through the registry.
std::vector<Atom> bind(Builder& b, const char* name, Params args, const std::vector<Atom>& xs) {
  return lax_function(name).call(b, args, xs);
}

Atom bind1(Builder& b, const char* name, Params args, const Atom& x) { return bind(b, name, std::move(args), {x})[0]; }

}  // namespace

std::vector<Atom> psum(Builder& b, const std::vector<Atom>& xs, const AxisNames& axes) {
  return bind(b, "psum", {{"axis_name", axes}}, xs);
}
std::vector<Atom> pmean(Builder& b, const std::vector<Atom>& xs, const AxisNames& axes) {
  return bind(b, "pmean", {{"axis_name", axes}}, xs);
}
std::vector<Atom> pmax(Builder& b, const std::vector<Atom>& xs, const AxisNames& axes) {
  return bind(b, "pmax", {{"axis_name", axes}}, xs);
}
std::vector<Atom> pmin(Builder& b, const std::vector<Atom>& xs, const AxisNames& axes) {
  return bind(b, "pmin", {{"axis_name", axes}}, xs);
}

Atom psum(Builder& b, const Atom& x, const AxisNames& axes) { return psum(b, std::vector<Atom>{x}, axes)[0]; }
Atom pmean(Builder& b, const Atom& x, const AxisNames& axes) { return pmean(b, std::vector<Atom>{x}, axes)[0]; }
Atom pmax(Builder& b, const Atom& x, const AxisNames& axes) { return pmax(b, std::vector<Atom>{x}, axes)[0]; }
Atom pmin(Builder& b, const Atom& x, const AxisNames& axes) { return pmin(b, std::vector<Atom>{x}, axes)[0]; }

Atom pvary(Builder& b, const Atom& x, const AxisNames& axes) {
  return bind1(b, "pcast", {{"axis_name", axes}, {"to", std::string("varying")}}, x);
}

Atom all_gather(Builder& b, const Atom& x, const AxisNames& axes, int axis, bool tiled) {
  return bind1(b, "all_gather", {{"axis_name", axes}, {"axis", int64_t{axis}}, {"tiled", tiled}}, x);
}

Atom psum_scatter(Builder& b, const Atom& x, const AxisNames& axes, int dim, bool tiled) {
  return bind1(b, "psum_scatter", {{"axis_name", axes}, {"scatter_dimension", int64_t{dim}}, {"tiled", tiled}}, x);
}

Atom ppermute(Builder& b, const Atom& x, const AxisNames& axes, const std::vector<std::pair<int, int>>& perm) {
  IntLists pairs;
  for (const auto& [src, dst] : perm) pairs.push_back({src, dst});
  return bind1(b, "ppermute", {{"axis_name", axes}, {"perm", pairs}}, x);
}

Atom all_to_all(Builder& b, const Atom& x, const AxisNames& axes, int split_axis, int concat_axis, bool tiled) {
  return bind1(b, "all_to_all",
               {{"axis_name", axes},
                {"split_axis", int64_t{split_axis}},
                {"concat_axis", int64_t{concat_axis}},
                {"tiled", tiled}},
               x);
}

Atom axis_index(Builder& b, const AxisNames& axes) { return bind(b, "axis_index", {{"axis_name", axes}}, {})[0]; }

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
