#include "ir/transforms/partition.h"

#include <algorithm>
#include <memory>
#include <variant>

#include "ir/core/primitive.h"
#include "ir/tracing/ops.h"
#include "ir/transforms/dce.h"
#include "ir/tracing/parallel_ops.h"
#include "runtime/errors.h"
#include "runtime/mesh.h"

namespace shardlab::ir {

namespace {

// What not_partitioned throws: partition() catches it and leaves the program whole.
struct NotPartitioned : Error {
  using Error::Error;
};

using Axes = std::vector<std::string>;

bool contains(const Axes& axes, const std::string& a) { return std::find(axes.begin(), axes.end(), a) != axes.end(); }

bool starts_with(const Axes& a, const Axes& prefix) {
  return prefix.size() <= a.size() && std::equal(prefix.begin(), prefix.end(), a.begin());
}

bool same_set(Axes a, Axes b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}

// jax.lax function `name` with keyword arguments `args` on x, its one result.
Atom lax1(Builder& b, const char* name, Params args, const Atom& x) { return lax_function(name).call(b, args, {x})[0]; }

// This device's position along `axes` (major first), as an int32 scalar.
Atom position(Builder& b, const Axes& axes) { return lax_function("axis_index").call(b, {{"axis_name", axes}}, {})[0]; }

// The sharding's per-dimension axes for `rank` dimensions.
std::vector<Axes> dims_of(const Sharding& s, size_t rank) {
  std::vector<Axes> d(rank);
  for (size_t k = 0; k < rank; ++k) d[k] = s.dim(k);
  return d;
}

// Whether a program (or one it holds) has equations partitioning must leave
// as written: a shard_map (Manual axes) or an effect (a debug callback, which
// prints whole values once).
bool holds_manual(const Program& p) {
  for (const Eqn& e : p.eqns) {
    if (e.prim == Prim::kShardMap || primitive(e.prim).effect) return true;
    for (const Program* q : subprograms(e))
      if (holds_manual(*q)) return true;
  }
  return false;
}

// The mesh the program's sharded types share (a ShardingError if two differ), empty if none.
std::vector<MeshAxis> types_mesh(const Program& p) {
  const std::vector<MeshAxis>* mesh = nullptr;
  for (const Aval& a : p.avals) {
    if (a.sharding.mesh.empty()) continue;
    if (mesh && *mesh != a.sharding.mesh)
      fail(ErrorKind::kShardingType, "jit: values are sharded over meshes of different axes; a program runs on one mesh");
    mesh = &a.sharding.mesh;
  }
  return mesh ? *mesh : std::vector<MeshAxis>{};
}

// `p` with every type unsharded, a given out_sharding or reshard's
// dst_sharding replicated (P() on its mesh): the same values computed whole,
// as the executors compute a program left unpartitioned (lowering re-types
// what it emits, and would refuse a scan's slice of a sharded dimension).
Program unsharded(const Program& p) {
  Program q = p;
  for (Aval& a : q.avals) a.sharding = {};
  for (Atom& a : q.outvars) a.aval.sharding = {};
  for (Eqn& e : q.eqns) {
    for (Atom& a : e.inputs) a.aval.sharding = {};
    for (Param& prm : e.params) {
      if (auto* s = std::get_if<Sharding>(&prm.value)) *s = Sharding{s->mesh, {}, {}, {}};
      if (auto* one = std::get_if<ProgramRef>(&prm.value)) *one = std::make_shared<const Program>(unsharded(**one));
      if (auto* many = std::get_if<Programs>(&prm.value))
        for (ProgramRef& r : *many) r = std::make_shared<const Program>(unsharded(*r));
    }
  }
  return q;
}

// The spec of a sharded type, an entry per dimension as JAX's type's spec has (P('X', None)); P() unsharded.
PartitionSpec spec_of(const Sharding& s, size_t rank) {
  PartitionSpec spec;
  if (!s.dims.empty())
    for (size_t d = 0; d < rank; ++d) spec.entries.push_back(s.dim(d));
  return spec;
}

}  // namespace

Shape block_shape(const Aval& global) {
  Shape s = global.shape;
  for (size_t d = 0; d < s.size(); ++d) s[d] /= global.sharding.size_of(global.sharding.dim(d));
  return s;
}

bool sharded_dims_kept(const PartEqn& e) {
  for (size_t d = 0; d < e.in[0].shape.size(); ++d)
    if (!e.in[0].sharding.dim(d).empty() && e.in[0].shape[d] != e.out[0].shape[d]) return false;
  return true;
}

void not_partitioned(const char* name, const std::string& why) {
  throw NotPartitioned(ErrorKind::kShardingType, std::string("jit: ShardLab's partitioner does not partition `") + name + "` " + why);
}

const char* combine_of(Prim prim) {
  switch (prim) {
    case Prim::kReduceSum: return "psum";
    case Prim::kReduceMax: return "pmax";
    case Prim::kReduceMin: return "pmin";
    default: return nullptr;
  }
}

int64_t Partitioner::devices(const Axes& axes) const {
  int64_t n = 1;
  for (const MeshAxis& m : mesh)
    if (contains(axes, m.name)) n *= m.size;
  return n;
}

Atom Partitioner::reshard(const Atom& x, const Aval& global, const Sharding& to) {
  const Sharding& from = global.sharding;
  const size_t rank = global.shape.size();
  std::vector<Axes> f = dims_of(from, rank);
  const std::vector<Axes> t = dims_of(to, rank);
  Atom y = x;
  // Unreduced axes `to` drops: the partial sums summed, straight onto a
  // dimension `to` splits over exactly them when one is unsplit yet.
  Axes pending;
  for (const std::string& u : from.unreduced)
    if (!contains(to.unreduced, u)) pending.push_back(u);
  if (!pending.empty()) {
    size_t onto = rank;
    for (size_t d = 0; d < rank && onto == rank; ++d)
      if (f[d].empty() && !t[d].empty() && same_set(t[d], pending)) onto = d;
    if (onto < rank) {
      y = lax1(b, "psum_scatter", {{"axis_name", t[onto]}, {"scatter_dimension", static_cast<int64_t>(onto)}, {"tiled", true}}, y);
      f[onto] = t[onto];
    } else {
      y = lax1(b, "psum", {{"axis_name", pending}}, y);
    }
  }
  // Axes `to` adds to unreduced: the value kept on the first device along them, zeros elsewhere (their sum is the value).
  Axes added;
  for (const std::string& u : to.unreduced)
    if (!contains(from.unreduced, u)) added.push_back(u);
  if (!added.empty()) {
    const Atom first = compare(b, Prim::kEq, position(b, added), Atom::constant(0, DType::kInt32));
    const Atom keep = broadcast_in_dim(b, first, y.aval.shape, {});
    y = select_n(b, keep, {zeros_like(b, y.aval), y});
  }
  // An axis group leaving a dimension for an unsplit one: one all_to_all.
  for (size_t i = 0; i < rank; ++i) {
    if (f[i].empty() || starts_with(t[i], f[i])) continue;
    for (size_t j = 0; j < rank; ++j) {
      if (j == i || !f[j].empty() || t[j] != f[i]) continue;
      y = lax1(b, "all_to_all",
               {{"axis_name", f[i]}, {"split_axis", static_cast<int64_t>(j)}, {"concat_axis", static_cast<int64_t>(i)}, {"tiled", true}}, y);
      f[j] = f[i];
      f[i].clear();
      break;
    }
  }
  // Axes a dimension keeps only in `from` (past its common prefix with `to`): gathered.
  for (size_t d = 0; d < rank; ++d) {
    size_t k = 0;
    while (k < f[d].size() && k < t[d].size() && f[d][k] == t[d][k]) ++k;
    if (k == f[d].size()) continue;
    y = lax1(b, "all_gather", {{"axis_name", Axes(f[d].begin() + static_cast<long>(k), f[d].end())}, {"axis", static_cast<int64_t>(d)}, {"tiled", true}}, y);
    f[d].resize(k);
  }
  // Axes `to` adds to a dimension: this device's slice of it, no traffic.
  for (size_t d = 0; d < rank; ++d) {
    if (t[d].size() == f[d].size()) continue;
    const Axes more(t[d].begin() + static_cast<long>(f[d].size()), t[d].end());
    Shape sizes = y.aval.shape;
    sizes[d] /= devices(more);
    std::vector<Atom> starts(rank, Atom::constant(0, DType::kInt32));
    starts[d] = mul(b, position(b, more), Atom::constant(static_cast<double>(sizes[d]), DType::kInt32));
    y = dynamic_slice(b, y, starts, sizes);
    f[d] = t[d];
  }
  return y;
}

std::vector<Atom> Partitioner::gathered(const PartEqn& e) {
  std::vector<Atom> whole;
  for (size_t i = 0; i < e.blocks.size(); ++i) whole.push_back(reshard(e.blocks[i], e.in[i], Sharding{}));
  std::vector<Atom> ys = b.emit(e.prim, e.params, whole);
  for (size_t j = 0; j < ys.size(); ++j) {
    Aval replicated = e.out[j];
    replicated.sharding = Sharding{};
    ys[j] = reshard(ys[j], replicated, e.out[j].sharding);
  }
  return ys;
}

std::vector<Atom> Partitioner::local(const PartEqn& e) {
  const Aval& out = e.out.at(0);
  std::vector<Atom> blocks = e.blocks;
  for (size_t i = 0; i < blocks.size(); ++i) {
    const Aval& a = e.in[i];
    if (a.shape.empty() || a.ndim() != out.ndim()) continue;
    std::vector<Axes> dims(a.shape.size());
    for (size_t d = 0; d < dims.size(); ++d)
      if (a.shape[d] == out.shape[d]) dims[d] = out.sharding.dim(d);
    blocks[i] = reshard(blocks[i], a, a.sharding.with_dims(dims));
  }
  return b.emit(e.prim, e.params, blocks);
}

std::vector<Atom> Partitioner::as_is(const PartEqn& e, const Params& params) { return b.emit(e.prim, params, e.blocks); }

std::vector<Atom> Partitioner::reduction(const PartEqn& e, const char* combine) {
  const char* name = primitive(e.prim).name;
  Axes over;
  for (int64_t a : param<std::vector<int64_t>>(e.params, "axes", name))
    for (const std::string& x : e.in.at(0).sharding.dim(static_cast<size_t>(a))) over.push_back(x);
  if (over.empty()) return as_is(e, e.params);
  if (!combine) return gathered(e);
  std::vector<Atom> ys = as_is(e, e.params);
  for (Atom& y : ys) y = lax1(b, combine, {{"axis_name", over}}, y);
  return ys;
}

std::vector<Atom> Partitioner::unsharded_only(const PartEqn& e) {
  for (const auto* avals : {&e.in, &e.out})
    for (const Aval& a : *avals)
      if (!a.sharding.empty()) not_partitioned(primitive(e.prim).name, "over values of sharded types (" + a.str() + ")");
  return as_is(e, e.params);
}

std::vector<Atom> Partitioner::equation(const PartEqn& e) {
  const PrimitiveDef& def = primitive(e.prim);
  std::vector<Atom> ys = def.partition(*this, e);
  for (size_t j = 0; j < ys.size(); ++j)
    if (ys[j].aval.shape != block_shape(e.out[j]))
      fail(ErrorKind::kShape, "jit: partitioning `", def.name, "` gave blocks ", ys[j].aval.str(), " for result ", j, " of type ",
           e.out[j].str(), " (a bug in its partition rule)");
  return ys;
}

std::vector<Atom> Partitioner::program(const Program& p, const std::vector<Atom>& blocks) {
  std::vector<Atom> env(p.avals.size());
  for (size_t i = 0; i < blocks.size(); ++i) env[p.invars[i]] = blocks[i];
  auto value = [&](const Atom& a) { return a.is_literal() ? a : env[a.var]; };
  for (const Eqn& e : p.eqns) {
    std::vector<Aval> in, out;
    std::vector<Atom> xs;
    for (const Atom& a : e.inputs) {
      in.push_back(a.aval);
      xs.push_back(value(a));
    }
    for (VarId v : e.outputs) out.push_back(p.avals[v]);
    const std::vector<Atom> ys = equation(PartEqn{e.prim, e.params, in, out, std::move(xs)});
    for (size_t j = 0; j < ys.size(); ++j) env[e.outputs[j]] = ys[j];
  }
  std::vector<Atom> outs;
  for (const Atom& o : p.outvars) outs.push_back(value(o));
  return outs;
}

ProgramRef Partitioner::local_program(const Program& q) {
  Builder inner(b.scope(), &b);
  std::vector<Atom> blocks;
  for (VarId v : q.invars) {
    Aval block = q.avals[v];
    block.shape = block_shape(block);
    block.sharding = Sharding{};
    blocks.push_back(inner.input(block));
  }
  Partitioner nested(inner, mesh);
  return std::make_shared<const Program>(inner.build(nested.program(q, blocks)));
}

std::vector<Atom> Partitioner::with_programs(const PartEqn& e) {
  const PrimitiveDef& def = primitive(e.prim);
  if (def.call_program) return program(dce(*param<ProgramRef>(e.params, def.call_program, def.name)), e.blocks);
  Params params = e.params;
  for (Param& q : params) {
    if (auto* one = std::get_if<ProgramRef>(&q.value)) *one = local_program(**one);
    if (auto* many = std::get_if<Programs>(&q.value))
      for (ProgramRef& r : *many) r = local_program(*r);
  }
  return as_is(e, params);
}

ProgramRef partition(const ProgramRef& p) {
  const std::vector<MeshAxis> axes = types_mesh(*p);
  if (p->scope.mesh || axes.empty()) return p;
  if (holds_manual(*p)) return std::make_shared<const Program>(unsharded(*p));
  // Dead values first (a gradient's program still computes the loss): their collectives would run for nothing.
  const Program live = dce(*p);
  std::vector<int> sizes;
  std::vector<std::string> names;
  for (const MeshAxis& a : axes) {
    sizes.push_back(a.size);
    names.push_back(a.name);
  }
  const MeshRef mesh = std::make_shared<const Mesh>(sizes, names);
  Builder top;
  std::vector<Atom> args;
  Specs in_specs, out_specs;
  for (VarId v : live.invars) {
    const Aval& a = live.avals[v];
    if (!a.sharding.unreduced.empty()) not_partitioned("jit", "with an unreduced input (" + a.str() + ")");
    args.push_back(top.input(a));
    in_specs.push_back(spec_of(a.sharding, a.ndim()));
  }
  for (const Atom& o : live.outvars) out_specs.push_back(spec_of(o.aval.sharding, o.aval.ndim()));
  std::vector<Atom> outs;
  try {
    outs = shard_map(top, mesh, in_specs, out_specs, false, args, [&](Builder& body, const std::vector<Atom>& blocks) {
        Partitioner pt(body, axes);
        const std::vector<Atom> ys = pt.program(live, blocks);
        // An unreduced output is summed: an array leaves jit reduced.
        std::vector<Atom> results;
        for (const Atom& o : live.outvars) {
          Sharding settled = o.aval.sharding;
          settled.unreduced.clear();
          results.push_back(o.is_literal() ? o : pt.reshard(ys[results.size()], o.aval, settled));
        }
        return results;
      });
  } catch (const NotPartitioned&) {
    return std::make_shared<const Program>(unsharded(*p));  // its results laid out afterwards
  }
  return std::make_shared<const Program>(top.build(outs));
}

}  // namespace shardlab::ir
