#include "ir/parallel_ops.h"

#include <algorithm>

#include "ir/ops.h"
#include "ir/primitives/shard_map.h"
#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

// The axes resolved in b's shard_map mesh; errors name `fn`.
AxisGroup bound(Builder& b, const AxisNames& axes, const char* fn) {
  if (!b.scope().mesh) {
    std::string label;
    for (const auto& a : axes) label += (label.empty() ? "'" : ", '") + a + "'";
    fail(ErrorKind::kValue, fn, ": axis name ", label,
         " is unbound; collectives run inside a shard_map body, whose mesh names the axes");
  }
  return b.scope().mesh->axis_group(axes, fn);
}

// x pvary'd along the axes of `axes` it does not vary along yet (only where VMA is tracked).
Atom varying(Builder& b, const Atom& x, const AxisNames& axes) {
  const Atom v = b.local(x);
  if (!b.scope().tracks_vma()) return v;
  AxisNames missing;
  for (const std::string& a : axes)
    if (!std::binary_search(v.aval.vma.begin(), v.aval.vma.end(), a)) missing.push_back(a);
  if (missing.empty()) return v;
  return b.emit1(Prim::kPvary, {{"axes", missing}}, {v});
}

std::vector<Atom> reduce(Builder& b, Prim prim, const std::vector<Atom>& xs, const AxisNames& axes, const char* fn) {
  bound(b, axes, fn);
  if (xs.empty()) return {};  // psum of an empty tree, as in JAX
  std::vector<Atom> operands;
  for (const Atom& x : xs) operands.push_back(varying(b, x, axes));
  return b.emit(prim, {{"axes", axes}}, operands);
}

}  // namespace

std::vector<Atom> psum(Builder& b, const std::vector<Atom>& xs, const AxisNames& axes) {
  return reduce(b, Prim::kPsum, xs, axes, "psum");
}

std::vector<Atom> pmean(Builder& b, const std::vector<Atom>& xs, const AxisNames& axes) {
  const AxisGroup g = bound(b, axes, "pmean");
  for (const Atom& x : xs)
    if (x.aval.dtype != DType::kFloat32)
      fail(ErrorKind::kShape, "pmean: needs float32 operands, got ", x.aval.str(), "; use psum for integers");
  std::vector<Atom> out;
  for (const Atom& s : psum(b, xs, axes)) out.push_back(div(b, s, f32_scalar(g.size)));
  return out;
}

std::vector<Atom> pmax(Builder& b, const std::vector<Atom>& xs, const AxisNames& axes) {
  return reduce(b, Prim::kPmax, xs, axes, "pmax");
}

std::vector<Atom> pmin(Builder& b, const std::vector<Atom>& xs, const AxisNames& axes) {
  return reduce(b, Prim::kPmin, xs, axes, "pmin");
}

Atom psum(Builder& b, const Atom& x, const AxisNames& axes) { return psum(b, std::vector<Atom>{x}, axes)[0]; }
Atom pmean(Builder& b, const Atom& x, const AxisNames& axes) { return pmean(b, std::vector<Atom>{x}, axes)[0]; }
Atom pmax(Builder& b, const Atom& x, const AxisNames& axes) { return pmax(b, std::vector<Atom>{x}, axes)[0]; }
Atom pmin(Builder& b, const Atom& x, const AxisNames& axes) { return pmin(b, std::vector<Atom>{x}, axes)[0]; }

Atom pvary(Builder& b, const Atom& x, const AxisNames& axes) {
  bound(b, axes, "pcast");
  return varying(b, x, axes);
}

Atom all_gather(Builder& b, const Atom& x, const AxisNames& axes, int axis, bool tiled) {
  const AxisGroup g = bound(b, axes, "all_gather");
  return b.emit1(
      Prim::kAllGather,
      {{"all_gather_dimension", int64_t{axis}}, {"axis_name", axes}, {"axis_size", int64_t{g.size}}, {"tiled", tiled}},
      {varying(b, x, axes)});
}

Atom psum_scatter(Builder& b, const Atom& x, const AxisNames& axes, int dim, bool tiled) {
  const AxisGroup g = bound(b, axes, "psum_scatter");
  return b.emit1(
      Prim::kReduceScatter,
      {{"axis_name", axes}, {"axis_size", int64_t{g.size}}, {"scatter_dimension", int64_t{dim}}, {"tiled", tiled}},
      {varying(b, x, axes)});
}

Atom ppermute(Builder& b, const Atom& x, const AxisNames& axes, const std::vector<std::pair<int, int>>& perm) {
  const AxisGroup g = bound(b, axes, "ppermute");
  check_permutation(perm, g.size, g.label());
  IntLists pairs;
  for (const auto& [src, dst] : perm) pairs.push_back({src, dst});
  return b.emit1(Prim::kPpermute, {{"axis_name", axes}, {"perm", pairs}}, {varying(b, x, axes)});
}

Atom all_to_all(Builder& b, const Atom& x, const AxisNames& axes, int split_axis, int concat_axis, bool tiled) {
  const AxisGroup g = bound(b, axes, "all_to_all");
  return b.emit1(Prim::kAllToAll,
                 {{"axis_name", axes},
                  {"axis_size", int64_t{g.size}},
                  {"concat_axis", int64_t{concat_axis}},
                  {"split_axis", int64_t{split_axis}},
                  {"tiled", tiled}},
                 {varying(b, x, axes)});
}

Atom axis_index(Builder& b, const AxisNames& axes) {
  bound(b, axes, "axis_index");
  return b.emit1(Prim::kAxisIndex, {{"axis_name", axes}}, {});
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
    if (check_vma_ && !outs[j].is_literal()) outs[j] = varying(body_, outs[j], spec_axes(out_specs[j]));
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

}  // namespace shardlab::ir
