#include "ir/primitives/parallel.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "ir/tracing/builder.h"
#include "ir/transforms/batching.h"
#include "ir/tracing/ops.h"
#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

using Names = std::vector<std::string>;

const Names& axes_of(const Params& p, const char* name) { return param<Names>(p, "axes", name); }
const Names& axis_name_of(const Params& p, const char* name) { return param<Names>(p, "axis_name", name); }
int int_param(const Params& p, const char* key, const char* name) {
  return static_cast<int>(param<int64_t>(p, key, name));
}

// The VMA set `vma` without `axes`.
Names without(const Names& vma, const Names& axes) {
  Names out;
  for (const std::string& a : vma)
    if (std::find(axes.begin(), axes.end(), a) == axes.end()) out.push_back(a);
  return out;
}

std::vector<Aval> one_operand(const char* name, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, name, ": takes 1 operand, got ", in.size());
  return in;
}

AxisGroup group_of(const DeviceContext& ctx, const Names& axes, const char* name) {
  return ctx.collectives->mesh().axis_group(axes, name);
}

Permutation permutation_of(const Params& p) {
  Permutation perm;
  for (const auto& pair : param<IntLists>(p, "perm", "ppermute"))
    perm.emplace_back(static_cast<int>(pair.at(0)), static_cast<int>(pair.at(1)));
  return perm;
}

// A collective's axes as its binding sees them: the group's size (the
// product of the axes' sizes) and its name in messages ('i', or ('i', 'j')).
struct BoundAxes {
  int size = 1;
  std::string label;
};

// The axes resolved: each an axis_name a jax.vmap around b binds, or an axis
// of b's shard_map mesh; errors name `fn`. A name neither binds is JAX 0.11's
// NameError (_check_axis_names), with the enclosing mesh added when there is one.
BoundAxes bound(Builder& b, const Names& axes, const char* fn) {
  const MeshRef& mesh = b.scope().mesh;
  BoundAxes out;
  Names on_mesh;
  for (const auto& name : axes) {
    if (const std::optional<int64_t> n = b.vmap_axis_size(name)) {
      out.size *= static_cast<int>(*n);
      continue;
    }
    if (mesh && std::find(mesh->axis_names().begin(), mesh->axis_names().end(), name) != mesh->axis_names().end()) {
      on_mesh.push_back(name);
      continue;
    }
    fail(ErrorKind::kAxisName, "Found an unbound axis name: ", name, ". To fix this, please call ", fn,
         " under `jax.shard_map`.",
         mesh ? " (The enclosing shard_map's mesh is " + mesh->str() + ".)" : std::string());
  }
  if (!on_mesh.empty()) out.size *= mesh->axis_group(on_mesh, fn).size;
  for (size_t i = 0; i < axes.size(); ++i) out.label += (i ? ", '" : "'") + axes[i] + "'";
  if (axes.size() != 1) out.label = "(" + out.label + ")";
  return out;
}

// A jax.lax function's axis_name argument.
const Names& axis_name_arg(const Params& args, const char* fn) { return param<Names>(args, "axis_name", fn); }

// psum / pmax / pmin of a tree: one equation for all its leaves (one
// rendezvous of the devices), as JAX binds them.
std::vector<Atom> bind_reduction(Builder& b, Prim prim, const Params& args, const std::vector<Atom>& xs,
                                 const char* fn) {
  const Names& axes = axis_name_arg(args, fn);
  bound(b, axes, fn);
  if (xs.empty()) return {};  // psum of an empty tree, as in JAX
  std::vector<Atom> operands;
  for (const Atom& x : xs) operands.push_back(vary_along(b, x, axes));
  return b.emit(prim, {{"axes", axes}}, operands);
}

// One equation per operand, as jax.lax maps these functions over a tree's leaves.
template <class One>
std::vector<Atom> each(const std::vector<Atom>& xs, One one) {
  std::vector<Atom> out;
  for (const Atom& x : xs) out.push_back(one(x));
  return out;
}

// Over a jax.vmap's own axis_name the batch's examples stand for the axis'
// devices (JAX's collective batching rules). A reduction reduces each operand
// along its batch dimension (a value the same for every example: psum
// multiplies it by the batch size, pmax and pmin keep it), then meets over
// its other axes as before; the results are the same for every example.
std::vector<Batched> reduce_over_batch(Builder& b, Prim prim, const Names& axes, const std::vector<Batched>& in,
                                       int64_t size, const std::string& axis) {
  std::vector<Atom> reduced;
  for (const Batched& x : in) {
    const std::vector<int64_t> d{x.dim};
    if (!x.batched()) {
      reduced.push_back(prim == Prim::kPsum ? mul(b, x.value, Atom::constant(static_cast<double>(size), x.value.aval.dtype))
                                            : x.value);
    } else {
      reduced.push_back(prim == Prim::kPsum   ? reduce_sum(b, x.value, d)
                        : prim == Prim::kPmax ? reduce_max(b, x.value, d)
                                              : reduce_min(b, x.value, d));
    }
  }
  const Names rest = without(axes, {axis});
  if (!rest.empty() && !reduced.empty()) reduced = b.emit(prim, {{"axes", rest}}, reduced);
  return batched_at(reduced, kNotBatched);
}

// The equation's axes must be the vmap's axis alone for `name` to batch over it.
void only_axis(const Names& axes, const std::string& axis, const char* name) {
  if (axes.size() != 1)
    fail(ErrorKind::kValue, name, " over jax.vmap's axis_name '", axis, "' together with other axes is not supported by ",
         "ShardLab; name the vmap's axis alone (psum, pmax, pmin and pmean may mix it with others)");
}

// all_gather over a jax.vmap's own axis_name: every example gets the whole
// batch stacked along the gather dimension (tiled: concatenated along it).
std::vector<Batched> gather_batch(Builder& b, const char* name, const Params& p, const std::vector<Batched>& in,
                                  int64_t size, const std::string& axis) {
  only_axis(param<Names>(p, "axis_name", name), axis, name);
  const int64_t a = param<int64_t>(p, "all_gather_dimension", name);
  Atom stacked = move_batch_dim(b, in[0], static_cast<int>(a), size);
  if (param<bool>(p, "tiled", name)) {
    Shape s = stacked.aval.shape;
    s[static_cast<size_t>(a)] *= s[static_cast<size_t>(a) + 1];
    s.erase(s.begin() + a + 1);
    stacked = reshape(b, stacked, s);
  }
  return {Batched{stacked, kNotBatched}};
}

std::vector<MaybeAtom> not_differentiable(const char* name) {
  fail(ErrorKind::kValue, name,
       ": has no derivative (as in JAX, which defines no JVP for it); take the gradient of a psum-based "
       "expression instead");
}

// psum of several operands (a tree) is one batched all-reduce: one
// rendezvous of the devices instead of one per operand.
void all_reduce(const DeviceContext& ctx, const Params& p, ReduceOp op, const char* name,
                const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  thread_local std::vector<ReduceBuffer> bufs;  // no allocation per call once grown
  bufs.clear();
  for (size_t i = 0; i < in.size(); ++i)
    bufs.push_back(ReduceBuffer{in[i]->aval.dtype, in[i]->data, out[i]->data, num_elements(in[i]->aval.shape)});
  ctx.collectives->all_reduce_many(ctx.device, group_of(ctx, axes_of(p, name), name), op, bufs);
}

// What psum / pmax / pmin of these operands move: all_reduce_many of them.
Traffic reduction_traffic(ReduceOp op, const std::vector<Aval>& in, int n, bool shared_out) {
  std::vector<ReduceBuffer> bufs;
  for (const Aval& a : in) bufs.push_back(ReduceBuffer{a.dtype, nullptr, nullptr, num_elements(a.shape)});
  return all_reduce_traffic(op, bufs, n, shared_out);
}

// psum/pmax/pmin take any number of operands (JAX binds one psum for a whole
// tree); each result is its operand's type, invariant along the axes.
std::vector<Aval> reduced_shape(const Params& p, const std::vector<Aval>& in, const char* name) {
  if (in.empty()) fail(ErrorKind::kValue, name, ": takes at least 1 operand, got 0");
  std::vector<Aval> out;
  for (const Aval& a : in) {
    if (a.dtype == DType::kBool || is_unsigned(a.dtype))
      fail(ErrorKind::kShape, name, ": needs floating-point or signed integer operands, got ", a.str());
    out.push_back(Aval{a.dtype, a.shape, without(a.vma, axes_of(p, name))});
  }
  return out;
}

}  // namespace

// psum

std::vector<Aval> Def<Prim::kPsum>::shape(const Params& p, const std::vector<Aval>& in) {
  return reduced_shape(p, in, kName);
}
void Def<Prim::kPsum>::eval_on_device(const DeviceContext& ctx, const Params& p, const std::vector<const Tensor*>& in,
                                      const std::vector<Tensor*>& out) {
  all_reduce(ctx, p, ReduceOp::kSum, kName, in, out);
}
std::vector<MaybeAtom> Def<Prim::kPsum>::jvp(Builder& b, const Params& p, const std::vector<Atom>&,
                                             const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  // One psum of the nonzero tangents; zero tangents stay symbolic.
  std::vector<Atom> nonzero;
  for (const MaybeAtom& ti : t)
    if (ti) nonzero.push_back(*ti);
  std::vector<MaybeAtom> out(t.size());
  if (nonzero.empty()) return out;
  const std::vector<Atom> sums = b.emit(Prim::kPsum, p, nonzero);
  for (size_t i = 0, k = 0; i < t.size(); ++i)
    if (t[i]) out[i] = sums[k++];
  return out;
}
std::vector<MaybeAtom> Def<Prim::kPsum>::transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                                   const std::vector<Atom>&, const std::vector<bool>& linear) {
  std::vector<MaybeAtom> out(cts.size());
  if (!b.scope().tracks_vma()) {
    // check_vma=False: the transpose of psum is psum (of the per-device cotangents).
    std::vector<Atom> present;
    for (size_t i = 0; i < cts.size(); ++i)
      if (linear[i] && cts[i]) present.push_back(*cts[i]);
    if (present.empty()) return out;
    const std::vector<Atom> sums = b.emit(Prim::kPsum, p, present);
    for (size_t i = 0, k = 0; i < cts.size(); ++i)
      if (linear[i] && cts[i]) out[i] = sums[k++];
    return out;
  }
  // ct_x = pvary(ct_y) along the reduced axes the cotangent does not vary along.
  for (size_t i = 0; i < cts.size(); ++i) {
    if (!linear[i] || !cts[i]) continue;
    const Names missing = without(axes_of(p, kName), cts[i]->aval.vma);
    out[i] = missing.empty() ? *cts[i] : b.emit1(Prim::kPvary, {{"axes", missing}}, {*cts[i]});
  }
  return out;
}

std::vector<Atom> Def<Prim::kPsum>::bind(Builder& b, const Params& args, const std::vector<Atom>& xs) {
  // A psum of bools counts the true ones (int32), as JAX's.
  std::vector<Atom> counted;
  for (const Atom& x : xs) counted.push_back(x.aval.dtype == DType::kBool ? convert_element_type(b, x, DType::kInt32) : x);
  return bind_reduction(b, Prim::kPsum, args, counted, kLaxName);
}
const Names& Def<Prim::kPsum>::axis_names(const Params& p) { return axes_of(p, kName); }
std::vector<Batched> Def<Prim::kPsum>::batch_over_axis(Builder& b, const Params& p, const std::vector<Batched>& in,
                                                   int64_t size, const std::string& axis) {
  return reduce_over_batch(b, Prim::kPsum, axes_of(p, kName), in, size, axis);
}
Traffic Def<Prim::kPsum>::traffic(const Params&, const std::vector<Aval>& in, int n, bool shared_out) {
  return reduction_traffic(ReduceOp::kSum, in, n, shared_out);
}

// pmean

std::vector<Atom> bind_pmean(Builder& b, const Params& args, const std::vector<Atom>& xs) {
  const BoundAxes g = bound(b, axis_name_arg(args, "pmean"), "pmean");
  // psum(x) / n with true division, as JAX's: an int32 or bool sum becomes float32.
  std::vector<Atom> out;
  for (const Atom& s : Def<Prim::kPsum>::bind(b, args, xs)) {
    const Atom sum = is_float(s.aval.dtype) ? s : convert_element_type(b, s, DType::kFloat32);
    out.push_back(div(b, sum, scalar_like(sum, g.size)));
  }
  return out;
}

Sample Def<Prim::kPsum>::sample() { return {{samples::f32({2, 3}, {"i"})}, {{"axes", Names{"i"}}}}; }

// pmax, pmin

std::vector<Aval> Def<Prim::kPmax>::shape(const Params& p, const std::vector<Aval>& in) {
  return reduced_shape(p, in, kName);
}
void Def<Prim::kPmax>::eval_on_device(const DeviceContext& ctx, const Params& p, const std::vector<const Tensor*>& in,
                                      const std::vector<Tensor*>& out) {
  all_reduce(ctx, p, ReduceOp::kMax, kName, in, out);
}
std::vector<MaybeAtom> Def<Prim::kPmax>::jvp(Builder&, const Params&, const std::vector<Atom>&,
                                             const std::vector<Atom>&, const std::vector<MaybeAtom>&) {
  return not_differentiable(kName);
}
std::vector<MaybeAtom> Def<Prim::kPmax>::transpose(Builder&, const Params&, const std::vector<MaybeAtom>&,
                                                   const std::vector<Atom>&, const std::vector<bool>&) {
  return not_differentiable(kName);
}

std::vector<Atom> Def<Prim::kPmax>::bind(Builder& b, const Params& args, const std::vector<Atom>& xs) {
  return bind_reduction(b, Prim::kPmax, args, xs, kLaxName);
}
const Names& Def<Prim::kPmax>::axis_names(const Params& p) { return axes_of(p, kName); }
std::vector<Batched> Def<Prim::kPmax>::batch_over_axis(Builder& b, const Params& p, const std::vector<Batched>& in,
                                                   int64_t size, const std::string& axis) {
  return reduce_over_batch(b, Prim::kPmax, axes_of(p, kName), in, size, axis);
}
Traffic Def<Prim::kPmax>::traffic(const Params&, const std::vector<Aval>& in, int n, bool shared_out) {
  return reduction_traffic(ReduceOp::kMax, in, n, shared_out);
}

Sample Def<Prim::kPmax>::sample() { return {{samples::f32({2, 3}, {"i"})}, {{"axes", Names{"i"}}}}; }

std::vector<Aval> Def<Prim::kPmin>::shape(const Params& p, const std::vector<Aval>& in) {
  return reduced_shape(p, in, kName);
}
void Def<Prim::kPmin>::eval_on_device(const DeviceContext& ctx, const Params& p, const std::vector<const Tensor*>& in,
                                      const std::vector<Tensor*>& out) {
  all_reduce(ctx, p, ReduceOp::kMin, kName, in, out);
}
std::vector<MaybeAtom> Def<Prim::kPmin>::jvp(Builder&, const Params&, const std::vector<Atom>&,
                                             const std::vector<Atom>&, const std::vector<MaybeAtom>&) {
  return not_differentiable(kName);
}
std::vector<MaybeAtom> Def<Prim::kPmin>::transpose(Builder&, const Params&, const std::vector<MaybeAtom>&,
                                                   const std::vector<Atom>&, const std::vector<bool>&) {
  return not_differentiable(kName);
}

std::vector<Atom> Def<Prim::kPmin>::bind(Builder& b, const Params& args, const std::vector<Atom>& xs) {
  return bind_reduction(b, Prim::kPmin, args, xs, kLaxName);
}
const Names& Def<Prim::kPmin>::axis_names(const Params& p) { return axes_of(p, kName); }
std::vector<Batched> Def<Prim::kPmin>::batch_over_axis(Builder& b, const Params& p, const std::vector<Batched>& in,
                                                   int64_t size, const std::string& axis) {
  return reduce_over_batch(b, Prim::kPmin, axes_of(p, kName), in, size, axis);
}
Traffic Def<Prim::kPmin>::traffic(const Params&, const std::vector<Aval>& in, int n, bool shared_out) {
  return reduction_traffic(ReduceOp::kMin, in, n, shared_out);
}

Sample Def<Prim::kPmin>::sample() { return {{samples::f32({2, 3}, {"i"})}, {{"axes", Names{"i"}}}}; }

// pvary

Atom vary_along(Builder& b, const Atom& x, const Names& axes) {
  const Atom v = b.local(x);
  if (!b.scope().tracks_vma()) return v;
  Names on_mesh;  // a vmap's axis is no VMA axis: its examples are batched, not devices
  for (const std::string& a : axes)
    if (!b.vmap_axis_size(a)) on_mesh.push_back(a);
  return b.with_vma(v, on_mesh);
}

// jax.lax.pcast(x, axis_name, to='varying'): pvary along the axes x does not vary along yet.
std::vector<Atom> Def<Prim::kPvary>::bind(Builder& b, const Params& args, const std::vector<Atom>& xs) {
  const std::string& to = param<std::string>(args, "to", kLaxName);
  if (to != "varying")
    fail(ErrorKind::kValue, "pcast: to='", to,
         "' is not supported; ShardLab supports to='varying' (JAX also has 'reduced' and 'unreduced')");
  const Names& axes = axis_name_arg(args, kLaxName);
  bound(b, axes, kLaxName);
  return each(xs, [&](const Atom& x) { return vary_along(b, x, axes); });
}

const Names& Def<Prim::kPvary>::axis_names(const Params& p) { return axes_of(p, kName); }
// A jax.vmap's axis is no VMA axis: pvary along it is the identity (still along the others).
std::vector<Batched> Def<Prim::kPvary>::batch_over_axis(Builder& b, const Params& p, const std::vector<Batched>& in,
                                                       int64_t, const std::string& axis) {
  const Names rest = without(axes_of(p, kName), {axis});
  if (rest.empty()) return in;
  return {Batched{b.emit1(Prim::kPvary, {{"axes", rest}}, {in[0].value}), in[0].dim}};
}

std::vector<Aval> Def<Prim::kPvary>::shape(const Params& p, const std::vector<Aval>& in) {
  one_operand(kName, in);
  Names axes = axes_of(p, kName);
  std::sort(axes.begin(), axes.end());
  return {Aval{in[0].dtype, in[0].shape, vma_union(in[0].vma, axes)}};
}
void Def<Prim::kPvary>::eval_on_device(const DeviceContext&, const Params&, const std::vector<const Tensor*>& in,
                                       const std::vector<Tensor*>& out) {
  std::memcpy(out[0]->data, in[0]->data, static_cast<size_t>(num_elements(in[0]->aval.shape)) * kElemBytes);
}
std::vector<MaybeAtom> Def<Prim::kPvary>::jvp(Builder& b, const Params& p, const std::vector<Atom>&,
                                              const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return linear_jvp(b, Prim::kPvary, p, t[0]);
}
std::vector<MaybeAtom> Def<Prim::kPvary>::transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                                    const std::vector<Atom>&, const std::vector<bool>& linear) {
  if (!linear[0] || !cts[0]) return {std::nullopt};
  return {b.emit1(Prim::kPsum, {{"axes", axes_of(p, kName)}}, {*cts[0]})};
}

Sample Def<Prim::kPvary>::sample() { return {{samples::f32({2, 3})}, {{"axes", Names{"i"}}}}; }

// all_gather and all_gather_invariant: the same gathering, typed apart

namespace {

// The gathered value's type: x's dtype, the gathered shape, varying along `vma`.
Aval gathered(const char* name, const Params& p, const Aval& x, Names vma) {
  return Aval{x.dtype,
              all_gather_shape(x.shape, int_param(p, "axis_size", name), int_param(p, "all_gather_dimension", name),
                               param<bool>(p, "tiled", name)),
              std::move(vma)};
}

// Every device's block of `in`, in position order, into `out`.
void gather_on_device(const char* name, const DeviceContext& ctx, const Params& p, const Tensor& in, Tensor& out) {
  ctx.collectives->all_gather(ctx.device, group_of(ctx, axis_name_of(p, name), name), in.data, out.data,
                              in.aval.shape, int_param(p, "all_gather_dimension", name), param<bool>(p, "tiled", name));
}

// all_gather's and all_gather_invariant's sample: a tiled gather along dimension 1 over 8 devices.
Sample gather_sample() {
  return {{samples::f32({2, 3}, {"i"})},
          {{"all_gather_dimension", int64_t{1}}, {"axis_name", Names{"i"}}, {"axis_size", int64_t{8}}, {"tiled", true}}};
}

// The gathering batched: the batch dimension first, the gathered dimension one further.
std::vector<Batched> batched_gather(Prim prim, const char* name, Builder& b, const Params& p,
                                    const std::vector<Batched>& in, int64_t size) {
  const int64_t dim = param<int64_t>(p, "all_gather_dimension", name) + 1;
  return {Batched{b.emit1(prim, with_param(p, "all_gather_dimension", dim), {move_batch_dim(b, in[0], 0, size)}), 0}};
}

}  // namespace

std::vector<Aval> Def<Prim::kAllGather>::shape(const Params& p, const std::vector<Aval>& in) {
  one_operand(kName, in);
  return {gathered(kName, p, in[0], in[0].vma)};
}
void Def<Prim::kAllGather>::eval_on_device(const DeviceContext& ctx, const Params& p,
                                           const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  gather_on_device(kName, ctx, p, *in[0], *out[0]);
}
std::vector<MaybeAtom> Def<Prim::kAllGather>::jvp(Builder& b, const Params& p, const std::vector<Atom>&,
                                                  const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return linear_jvp(b, Prim::kAllGather, p, t[0]);
}
std::vector<MaybeAtom> Def<Prim::kAllGather>::transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                                        const std::vector<Atom>&, const std::vector<bool>& linear) {
  if (!linear[0] || !cts[0]) return {std::nullopt};
  return {b.emit1(Prim::kReduceScatter,
                  {{"axis_name", axis_name_of(p, kName)},
                   {"axis_size", param<int64_t>(p, "axis_size", kName)},
                   {"scatter_dimension", param<int64_t>(p, "all_gather_dimension", kName)},
                   {"tiled", param<bool>(p, "tiled", kName)}},
                  {*cts[0]})};
}

// to='varying' binds all_gather, to='invarying' all_gather_invariant (JAX
// 0.11's _all_gather_is_async); JAX's to='reduced' needs reduced types.
std::vector<Atom> Def<Prim::kAllGather>::bind(Builder& b, const Params& args, const std::vector<Atom>& xs) {
  const Names& axes = axis_name_arg(args, kLaxName);
  const BoundAxes g = bound(b, axes, kLaxName);
  const std::string& to = param<std::string>(args, "to", kLaxName);
  if (to == "reduced")
    fail(ErrorKind::kValue, "all_gather: to='reduced' is not supported by ShardLab (it has no reduced types); "
                            "use to='varying' or to='invarying'");
  if (to != "varying" && to != "invarying")
    fail(ErrorKind::kValue, "Got unexpected `to` value for `jax.lax.all_gather`. Allowed `to` values are: "
                            "{'varying', 'reduced', 'invarying'} (got '", to, "')");
  const Prim prim = to == "varying" ? Prim::kAllGather : Prim::kAllGatherInvariant;
  const Params params{{"all_gather_dimension", param<int64_t>(args, "axis", kLaxName)},
                      {"axis_name", axes},
                      {"axis_size", int64_t{g.size}},
                      {"tiled", param<bool>(args, "tiled", kLaxName)}};
  return each(xs, [&](const Atom& x) { return b.emit1(prim, params, {vary_along(b, x, axes)}); });
}
const Names& Def<Prim::kAllGather>::axis_names(const Params& p) { return axis_name_of(p, kName); }
std::vector<Batched> Def<Prim::kAllGather>::batch_over_axis(Builder& b, const Params& p, const std::vector<Batched>& in,
                                                   int64_t size, const std::string& axis) {
  return gather_batch(b, kName, p, in, size, axis);
}
Traffic Def<Prim::kAllGather>::traffic(const Params&, const std::vector<Aval>& in, int n, bool shared_out) {
  return all_gather_traffic(one_operand(kName, in)[0].shape, in[0].dtype, n, shared_out);
}

std::vector<Batched> Def<Prim::kAllGather>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                                 int64_t size) {
  return batched_gather(Prim::kAllGather, kName, b, p, in, size);
}
Sample Def<Prim::kAllGather>::sample() {
  return gather_sample();
}

// all_gather_invariant

std::vector<Aval> Def<Prim::kAllGatherInvariant>::shape(const Params& p, const std::vector<Aval>& in) {
  one_operand(kName, in);
  // Invariant along the gathered axes: every device holds the whole.
  return {gathered(kName, p, in[0], without(in[0].vma, axis_name_of(p, kName)))};
}
void Def<Prim::kAllGatherInvariant>::eval_on_device(const DeviceContext& ctx, const Params& p,
                                                    const std::vector<const Tensor*>& in,
                                                    const std::vector<Tensor*>& out) {
  gather_on_device(kName, ctx, p, *in[0], *out[0]);
}
std::vector<MaybeAtom> Def<Prim::kAllGatherInvariant>::jvp(Builder& b, const Params& p, const std::vector<Atom>&,
                                                           const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return linear_jvp(b, Prim::kAllGatherInvariant, p, t[0]);
}
// ct_x = dynamic_slice(ct, axis_index * n along the gathered dimension), n
// the block size (squeezed back when not tiled): each device's own block.
std::vector<MaybeAtom> Def<Prim::kAllGatherInvariant>::transpose(Builder& b, const Params& p,
                                                                 const std::vector<MaybeAtom>& cts,
                                                                 const std::vector<Atom>& inputs,
                                                                 const std::vector<bool>& linear) {
  if (!linear[0] || !cts[0]) return {std::nullopt};
  const Atom& ct = *cts[0];
  const int64_t dim = param<int64_t>(p, "all_gather_dimension", kName);
  const bool tiled = param<bool>(p, "tiled", kName);
  const int64_t block = tiled ? ct.aval.shape[static_cast<size_t>(dim)] / param<int64_t>(p, "axis_size", kName) : 1;
  const Atom index = b.emit1(Prim::kAxisIndex, {{"axis_name", axis_name_of(p, kName)}}, {});
  std::vector<Atom> starts(ct.aval.shape.size(), Atom::constant(0, DType::kInt32));
  starts[static_cast<size_t>(dim)] = mul(b, index, Atom::constant(static_cast<double>(block), DType::kInt32));
  Shape sizes = ct.aval.shape;
  sizes[static_cast<size_t>(dim)] = block;
  const Atom mine = dynamic_slice(b, ct, starts, sizes);
  return {tiled ? mine : squeeze(b, mine, {dim})};
}
const Names& Def<Prim::kAllGatherInvariant>::axis_names(const Params& p) { return axis_name_of(p, kName); }
std::vector<Batched> Def<Prim::kAllGatherInvariant>::batch_over_axis(Builder& b, const Params& p, const std::vector<Batched>& in,
                                                   int64_t size, const std::string& axis) {
  return gather_batch(b, kName, p, in, size, axis);
}
Traffic Def<Prim::kAllGatherInvariant>::traffic(const Params&, const std::vector<Aval>& in, int n, bool shared_out) {
  return all_gather_traffic(one_operand(kName, in)[0].shape, in[0].dtype, n, shared_out);
}
std::vector<Batched> Def<Prim::kAllGatherInvariant>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                                          int64_t size) {
  return batched_gather(Prim::kAllGatherInvariant, kName, b, p, in, size);
}
Sample Def<Prim::kAllGatherInvariant>::sample() {
  return gather_sample();
}

// reduce_scatter

std::vector<Aval> Def<Prim::kReduceScatter>::shape(const Params& p, const std::vector<Aval>& in) {
  one_operand(kName, in);
  return {Aval{in[0].dtype,
               reduce_scatter_shape(in[0].shape, int_param(p, "axis_size", kName),
                                    int_param(p, "scatter_dimension", kName), param<bool>(p, "tiled", kName)),
               in[0].vma}};
}
void Def<Prim::kReduceScatter>::eval_on_device(const DeviceContext& ctx, const Params& p,
                                               const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  ctx.collectives->reduce_scatter(ctx.device, group_of(ctx, axis_name_of(p, kName), kName), in[0]->aval.dtype,
                                  in[0]->data, out[0]->data, in[0]->aval.shape,
                                  int_param(p, "scatter_dimension", kName), param<bool>(p, "tiled", kName));
}
std::vector<MaybeAtom> Def<Prim::kReduceScatter>::jvp(Builder& b, const Params& p, const std::vector<Atom>&,
                                                      const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return linear_jvp(b, Prim::kReduceScatter, p, t[0]);
}
std::vector<MaybeAtom> Def<Prim::kReduceScatter>::transpose(Builder& b, const Params& p,
                                                            const std::vector<MaybeAtom>& cts, const std::vector<Atom>&,
                                                            const std::vector<bool>& linear) {
  if (!linear[0] || !cts[0]) return {std::nullopt};
  return {b.emit1(Prim::kAllGather,
                  {{"all_gather_dimension", param<int64_t>(p, "scatter_dimension", kName)},
                   {"axis_name", axis_name_of(p, kName)},
                   {"axis_size", param<int64_t>(p, "axis_size", kName)},
                   {"tiled", param<bool>(p, "tiled", kName)}},
                  {*cts[0]})};
}

std::vector<Atom> Def<Prim::kReduceScatter>::bind(Builder& b, const Params& args, const std::vector<Atom>& xs) {
  const Names& axes = axis_name_arg(args, kLaxName);
  const BoundAxes g = bound(b, axes, kLaxName);
  const Params params{{"axis_name", axes},
                      {"axis_size", int64_t{g.size}},
                      {"scatter_dimension", param<int64_t>(args, "scatter_dimension", kLaxName)},
                      {"tiled", param<bool>(args, "tiled", kLaxName)}};
  return each(xs, [&](const Atom& x) { return b.emit1(Prim::kReduceScatter, params, {vary_along(b, x, axes)}); });
}
const Names& Def<Prim::kReduceScatter>::axis_names(const Params& p) { return axis_name_of(p, kName); }
std::vector<Batched> Def<Prim::kReduceScatter>::batch_over_axis(Builder&, const Params&, const std::vector<Batched>&, int64_t,
                                                   const std::string& axis) {
  fail(ErrorKind::kValue, "psum_scatter over jax.vmap's axis_name '", axis, "' is not supported by ShardLab (psum, pmax, ",
       "pmin, pmean, all_gather, ppermute and axis_index are); run it over a shard_map's mesh axis");
}
Traffic Def<Prim::kReduceScatter>::traffic(const Params&, const std::vector<Aval>& in, int n, bool) {
  return reduce_scatter_traffic(one_operand(kName, in)[0].shape, in[0].dtype, n);
}

// The batch dimension first; the scattered dimension one further.
std::vector<Batched> Def<Prim::kReduceScatter>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                                     int64_t size) {
  const int64_t dim = param<int64_t>(p, "scatter_dimension", kName) + 1;
  return {Batched{b.emit1(Prim::kReduceScatter, with_param(p, "scatter_dimension", dim), {move_batch_dim(b, in[0], 0, size)}), 0}};
}
Sample Def<Prim::kReduceScatter>::sample() {
  return {{samples::f32({8, 3}, {"i"})},
          {{"axis_name", Names{"i"}}, {"axis_size", int64_t{8}}, {"scatter_dimension", int64_t{0}}, {"tiled", false}}};
}

// ppermute

std::vector<Aval> Def<Prim::kPpermute>::shape(const Params&, const std::vector<Aval>& in) {
  return one_operand(kName, in);
}
void Def<Prim::kPpermute>::eval_on_device(const DeviceContext& ctx, const Params& p,
                                          const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  ctx.collectives->ppermute(ctx.device, group_of(ctx, axis_name_of(p, kName), kName), in[0]->data, out[0]->data,
                            num_elements(in[0]->aval.shape), permutation_of(p));
}
std::vector<MaybeAtom> Def<Prim::kPpermute>::jvp(Builder& b, const Params& p, const std::vector<Atom>&,
                                                 const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return linear_jvp(b, Prim::kPpermute, p, t[0]);
}
std::vector<MaybeAtom> Def<Prim::kPpermute>::transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                                       const std::vector<Atom>&, const std::vector<bool>& linear) {
  if (!linear[0] || !cts[0]) return {std::nullopt};
  IntLists inverse;
  for (const auto& pair : param<IntLists>(p, "perm", kName)) inverse.push_back({pair.at(1), pair.at(0)});
  return {b.emit1(Prim::kPpermute, {{"axis_name", axis_name_of(p, kName)}, {"perm", inverse}}, {*cts[0]})};
}

std::vector<Atom> Def<Prim::kPpermute>::bind(Builder& b, const Params& args, const std::vector<Atom>& xs) {
  const Names& axes = axis_name_arg(args, kLaxName);
  const BoundAxes g = bound(b, axes, kLaxName);
  const IntLists& pairs = param<IntLists>(args, "perm", kLaxName);
  Permutation perm;
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (pairs[i].size() != 2)
      fail(ErrorKind::kValue, "ppermute: perm[", i, "] has ", pairs[i].size(),
           " entries; each entry is a (source, destination) pair");
    // Positions past int's range stay out of range as ints, for check_permutation to name.
    const auto position = [](int64_t v) { return static_cast<int>(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX)); };
    perm.emplace_back(position(pairs[i][0]), position(pairs[i][1]));
  }
  check_permutation(perm, g.size, g.label);
  const Params params{{"axis_name", axes}, {"perm", pairs}};
  return each(xs, [&](const Atom& x) { return b.emit1(Prim::kPpermute, params, {vary_along(b, x, axes)}); });
}
const Names& Def<Prim::kPpermute>::axis_names(const Params& p) { return axis_name_of(p, kName); }
// Over a jax.vmap's own axis_name: example d gets example s's value for each
// (s, d) of perm, and zeros where no example sends to it.
std::vector<Batched> Def<Prim::kPpermute>::batch_over_axis(Builder& b, const Params& p, const std::vector<Batched>& in,
                                                          int64_t size, const std::string& axis) {
  only_axis(axis_name_of(p, kName), axis, kName);
  const Atom x = move_batch_dim(b, in[0], 0, size);
  Shape one = x.aval.shape;
  one[0] = 1;
  std::vector<int64_t> from(static_cast<size_t>(size), -1);
  for (const auto& [s, d] : permutation_of(p)) from[static_cast<size_t>(d)] = s;
  std::vector<Atom> rows;
  for (int64_t s : from) {
    if (s < 0) {
      rows.push_back(zeros_like(b, Aval{x.aval.dtype, one, x.aval.vma}));
      continue;
    }
    std::vector<int64_t> start(one.size(), 0), limit = x.aval.shape;
    start[0] = s;
    limit[0] = s + 1;
    rows.push_back(slice(b, x, start, limit));
  }
  return {Batched{concatenate(b, rows, 0), 0}};
}
Traffic Def<Prim::kPpermute>::traffic(const Params& p, const std::vector<Aval>& in, int n, bool) {
  return ppermute_traffic(num_elements(one_operand(kName, in)[0].shape), in[0].dtype, n, permutation_of(p));
}

Sample Def<Prim::kPpermute>::sample() {
  IntLists ring;
  for (int64_t k = 0; k < 8; ++k) ring.push_back({k, (k + 1) % 8});
  return {{samples::f32({2, 3}, {"i"})}, {{"axis_name", Names{"i"}}, {"perm", ring}}};
}

// all_to_all

std::vector<Aval> Def<Prim::kAllToAll>::shape(const Params& p, const std::vector<Aval>& in) {
  one_operand(kName, in);
  return {Aval{in[0].dtype,
               all_to_all_shape(in[0].shape, int_param(p, "axis_size", kName), int_param(p, "split_axis", kName),
                                int_param(p, "concat_axis", kName), param<bool>(p, "tiled", kName)),
               in[0].vma}};
}
void Def<Prim::kAllToAll>::eval_on_device(const DeviceContext& ctx, const Params& p,
                                          const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  ctx.collectives->all_to_all(ctx.device, group_of(ctx, axis_name_of(p, kName), kName), in[0]->data, out[0]->data,
                              in[0]->aval.shape, int_param(p, "split_axis", kName), int_param(p, "concat_axis", kName),
                              param<bool>(p, "tiled", kName));
}
std::vector<MaybeAtom> Def<Prim::kAllToAll>::jvp(Builder& b, const Params& p, const std::vector<Atom>&,
                                                 const std::vector<Atom>&, const std::vector<MaybeAtom>& t) {
  return linear_jvp(b, Prim::kAllToAll, p, t[0]);
}
std::vector<MaybeAtom> Def<Prim::kAllToAll>::transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                                       const std::vector<Atom>&, const std::vector<bool>& linear) {
  if (!linear[0] || !cts[0]) return {std::nullopt};
  return {b.emit1(Prim::kAllToAll,
                  {{"axis_name", axis_name_of(p, kName)},
                   {"axis_size", param<int64_t>(p, "axis_size", kName)},
                   {"concat_axis", param<int64_t>(p, "split_axis", kName)},
                   {"split_axis", param<int64_t>(p, "concat_axis", kName)},
                   {"tiled", param<bool>(p, "tiled", kName)}},
                  {*cts[0]})};
}

std::vector<Atom> Def<Prim::kAllToAll>::bind(Builder& b, const Params& args, const std::vector<Atom>& xs) {
  const Names& axes = axis_name_arg(args, kLaxName);
  const BoundAxes g = bound(b, axes, kLaxName);
  const Params params{{"axis_name", axes},
                      {"axis_size", int64_t{g.size}},
                      {"concat_axis", param<int64_t>(args, "concat_axis", kLaxName)},
                      {"split_axis", param<int64_t>(args, "split_axis", kLaxName)},
                      {"tiled", param<bool>(args, "tiled", kLaxName)}};
  return each(xs, [&](const Atom& x) { return b.emit1(Prim::kAllToAll, params, {vary_along(b, x, axes)}); });
}
const Names& Def<Prim::kAllToAll>::axis_names(const Params& p) { return axis_name_of(p, kName); }
std::vector<Batched> Def<Prim::kAllToAll>::batch_over_axis(Builder&, const Params&, const std::vector<Batched>&, int64_t,
                                                   const std::string& axis) {
  fail(ErrorKind::kValue, "all_to_all over jax.vmap's axis_name '", axis, "' is not supported by ShardLab (psum, pmax, ",
       "pmin, pmean, all_gather, ppermute and axis_index are); run it over a shard_map's mesh axis");
}
Traffic Def<Prim::kAllToAll>::traffic(const Params&, const std::vector<Aval>& in, int n, bool) {
  return all_to_all_traffic(one_operand(kName, in)[0].shape, in[0].dtype, n);
}

// The batch dimension first; the split and concatenated dimensions one further.
std::vector<Batched> Def<Prim::kAllToAll>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                                int64_t size) {
  Params moved = with_param(p, "split_axis", param<int64_t>(p, "split_axis", kName) + 1);
  moved = with_param(moved, "concat_axis", param<int64_t>(p, "concat_axis", kName) + 1);
  return {Batched{b.emit1(Prim::kAllToAll, moved, {move_batch_dim(b, in[0], 0, size)}), 0}};
}
Sample Def<Prim::kAllToAll>::sample() {
  return {{samples::f32({8, 3}, {"i"})},
          {{"axis_name", Names{"i"}}, {"axis_size", int64_t{8}}, {"concat_axis", int64_t{1}}, {"split_axis", int64_t{0}}, {"tiled", true}}};
}

// axis_index

std::vector<Aval> Def<Prim::kAxisIndex>::shape(const Params& p, const std::vector<Aval>& in) {
  if (!in.empty()) fail(ErrorKind::kValue, kName, ": takes no operands, got ", in.size());
  Names axes = axis_name_of(p, kName);
  std::sort(axes.begin(), axes.end());
  return {Aval{DType::kInt32, {}, axes}};
}
void Def<Prim::kAxisIndex>::eval_on_device(const DeviceContext& ctx, const Params& p, const std::vector<const Tensor*>&,
                                           const std::vector<Tensor*>& out) {
  const int32_t i = ctx.collectives->mesh().position(ctx.device, group_of(ctx, axis_name_of(p, kName), kName));
  std::memcpy(out[0]->data, &i, sizeof i);
}
std::vector<MaybeAtom> Def<Prim::kAxisIndex>::jvp(Builder&, const Params&, const std::vector<Atom>&,
                                                  const std::vector<Atom>&, const std::vector<MaybeAtom>&) {
  return {std::nullopt};
}
std::vector<MaybeAtom> Def<Prim::kAxisIndex>::transpose(Builder&, const Params&, const std::vector<MaybeAtom>&,
                                                        const std::vector<Atom>&, const std::vector<bool>&) {
  return {};
}

std::vector<Atom> Def<Prim::kAxisIndex>::bind(Builder& b, const Params& args, const std::vector<Atom>& xs) {
  if (!xs.empty()) fail(ErrorKind::kValue, kLaxName, ": takes no operands, got ", xs.size());
  const Names& axes = axis_name_arg(args, kLaxName);
  bound(b, axes, kLaxName);
  return {b.emit1(Prim::kAxisIndex, {{"axis_name", axes}}, {})};
}

const Names& Def<Prim::kAxisIndex>::axis_names(const Params& p) { return axis_name_of(p, kName); }
// Over a jax.vmap's own axis_name: each example's position in the batch.
std::vector<Batched> Def<Prim::kAxisIndex>::batch_over_axis(Builder& b, const Params& p, const std::vector<Batched>&,
                                                           int64_t size, const std::string& axis) {
  only_axis(axis_name_of(p, kName), axis, kName);
  return {Batched{iota(b, DType::kInt32, {size}, 0), 0}};
}

Sample Def<Prim::kAxisIndex>::sample() { return {{}, {{"axis_name", Names{"i"}}}}; }

}  // namespace shardlab::ir
