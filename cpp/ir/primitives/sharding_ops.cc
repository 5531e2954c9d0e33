#include "ir/primitives/sharding_ops.h"

#include <cstring>

#include "ir/tracing/builder.h"
#include "ir/transforms/batching.h"
#include "ir/transforms/partition.h"
#include "runtime/errors.h"

namespace shardlab::ir {

Atom reshard(Builder& b, const Atom& x, const Sharding& dst) {
  return b.emit1(Prim::kReshard, {{"dst_sharding", dst}}, {x});
}

std::vector<Aval> Def<Prim::kReshard>::shape(const Params&, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, kName, ": takes 1 operand, got ", in.size());
  return {in[0]};
}

// The destination, which the builder checks against the shape; given with
// no mesh (JAX's None) it is refused, as jax.reshard refuses None.
std::vector<Sharding> Def<Prim::kReshard>::sharding(const Params& p, const std::vector<Aval>& in,
                                                    const std::vector<Aval>&) {
  const Sharding& dst = param<Sharding>(p, "dst_sharding", kName);
  if (dst.mesh.empty())
    fail(ErrorKind::kValue, "Reshard should only be used with out_shardings which are non-None and have a non-empty mesh. ",
         "Got sharding None (operand ", in[0].str(), ").");
  common_mesh(kName, {in[0], Aval{in[0].dtype, in[0].shape, {}, false, dst}});
  return {dst};
}

void Def<Prim::kReshard>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  std::memcpy(out[0]->data, in[0]->data, static_cast<size_t>(num_elements(in[0]->aval.shape)) * kElemBytes);
}

std::vector<MaybeAtom> Def<Prim::kReshard>::jvp(Builder& b, const Params& p, const std::vector<Atom>&,
                                                const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  if (!t[0]) return {std::nullopt};
  return {b.emit1(Prim::kReshard, p, {*t[0]})};
}

std::vector<MaybeAtom> Def<Prim::kReshard>::transpose(Builder& b, const Params&, const std::vector<MaybeAtom>& cts,
                                                      const std::vector<Atom>& x, const std::vector<bool>&) {
  if (!cts[0]) return {std::nullopt};
  // Back to the sharding of x's cotangent (301: a reduced x's is unreduced,
  // an unreduced x's reduced); an unsharded x's on the cotangent's mesh, replicated.
  Sharding back = x[0].aval.sharding.cotangent();
  if (back.mesh.empty()) back.mesh = cts[0]->aval.sharding.mesh;
  if (back.mesh.empty()) return {*cts[0]};
  return {reshard(b, *cts[0], back)};
}

std::vector<Batched> Def<Prim::kReshard>::batch(Builder& b, const Params& p, const std::vector<Batched>& in, int64_t) {
  Sharding dst = param<Sharding>(p, "dst_sharding", kName);
  const auto at = static_cast<size_t>(in[0].dim);
  if (dst.dims.size() >= at) dst.dims.insert(dst.dims.begin() + static_cast<std::ptrdiff_t>(at), std::vector<std::string>{});
  return {Batched{reshard(b, in[0].value, std::move(dst).normalized()), in[0].dim}};
}

Sample Def<Prim::kReshard>::sample() {
  return {{samples::f32({4, 3})}, {{"dst_sharding", Sharding{{{"X", 2}}, {{"X"}}, {}, {}}}}};
}

// The blocks move from the operand's sharding to dst_sharding (Partitioner::reshard).
std::vector<Atom> Def<Prim::kReshard>::partition(Partitioner& pt, const PartEqn& e) {
  return {pt.reshard(e.blocks[0], e.in[0], e.out[0].sharding)};
}

}  // namespace shardlab::ir
