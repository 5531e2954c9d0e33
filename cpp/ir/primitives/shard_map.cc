#include "ir/primitives/shard_map.h"

#include <algorithm>

#include "ir/transforms/dce.h"
#include "ir/transforms/partition.h"
#include "ir/transforms/jvp.h"
#include "ir/transforms/batching.h"
#include "ir/tracing/ops.h"
#include "ir/transforms/vjp.h"
#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

struct ShardMapParams {
  const ProgramRef& body;
  const MeshRef& mesh;
  const Specs& in_specs;
  const Specs& out_specs;
  bool check_vma;
};

ShardMapParams params_of(const Params& p) {
  const char* n = Def<Prim::kShardMap>::kName;
  return {param<ProgramRef>(p, "jaxpr", n), param<MeshRef>(p, "mesh", n), param<Specs>(p, "in_specs", n),
          param<Specs>(p, "out_specs", n), param<bool>(p, "check_vma", n)};
}

Params make_params(const ShardMapParams& s, ProgramRef body, Specs in_specs, Specs out_specs) {
  return {{"jaxpr", std::move(body)},
          {"mesh", s.mesh},
          {"in_specs", std::move(in_specs)},
          {"out_specs", std::move(out_specs)},
          {"check_vma", s.check_vma}};
}

std::string indexed(const char* what, size_t i) { return std::string(what) + "[" + std::to_string(i) + "]"; }

}  // namespace

std::vector<std::string> spec_axes(const PartitionSpec& spec) {
  std::vector<std::string> axes;
  for (const auto& entry : spec.entries) axes.insert(axes.end(), entry.begin(), entry.end());
  std::sort(axes.begin(), axes.end());
  return axes;
}

Aval block_aval(const Mesh& mesh, const Aval& global, const PartitionSpec& spec, bool check_vma,
                const std::string& what) {
  const Layout layout = make_layout(mesh, global.shape, spec, what);
  return Aval{global.dtype, layout.block, check_vma ? spec_axes(spec) : std::vector<std::string>{}, global.weak};
}

std::optional<AxisGroup> shared_output_group(const Eqn& e, size_t j) {
  const ShardMapParams s = params_of(e.params);
  const Program& body = *s.body;
  const Atom& a = body.outvars.at(j);
  if (!s.check_vma || a.is_literal()) return std::nullopt;
  for (size_t k = 0; k < j; ++k)
    if (!body.outvars[k].is_literal() && body.outvars[k].var == a.var) return std::nullopt;  // a repeat is copied
  for (const Eqn& q : body.eqns) {
    const PrimitiveDef& def = primitive(q.prim);
    if (!def.collective || std::find(q.outputs.begin(), q.outputs.end(), a.var) == q.outputs.end()) continue;
    const AxisGroup g = s.mesh->axis_group(def.group_axes(q.params), def.name);
    const uint32_t split = s.mesh->axis_group(spec_axes(s.out_specs.at(j)), "shard_map out_specs").mask;
    const Aval& out = body.avals[a.var];
    if (q.outputs.size() == 1 && (split & g.mask) == 0 && !staged(lane_bytes(num_elements(out.shape))))
      return g;
    return std::nullopt;
  }
  return std::nullopt;
}

std::vector<Aval> Def<Prim::kShardMap>::shape(const Params& p, const std::vector<Aval>& in) {
  const ShardMapParams s = params_of(p);
  const Program& body = *s.body;
  if (in.size() != s.in_specs.size() || in.size() != body.invars.size())
    fail(ErrorKind::kValue, kName, ": got ", in.size(), " operands, ", s.in_specs.size(), " in_specs and a body of ",
         body.invars.size(), " inputs; they must agree");
  if (s.out_specs.size() != body.outvars.size())
    fail(ErrorKind::kValue, kName, ": got ", s.out_specs.size(), " out_specs for a body of ", body.outvars.size(),
         " outputs; give one spec per output");
  for (size_t i = 0; i < in.size(); ++i) {
    const Aval want =
        block_aval(*s.mesh, in[i], s.in_specs[i], s.check_vma, std::string(kName) + " " + indexed("in_specs", i));
    const Aval& got = body.avals[body.invars[i]];
    if (want != got)
      fail(ErrorKind::kShape, kName, ": argument ", i, " is ", in[i].str(), ", which ", s.in_specs[i].str(),
           " splits into blocks ", want.str(), ", but the body's input ", i, " is ", got.str());
  }
  std::vector<Aval> out;
  for (size_t j = 0; j < body.outvars.size(); ++j) {
    const Aval& block = body.outvars[j].aval;
    const PartitionSpec& spec = s.out_specs[j];
    const std::string where = std::string(kName) + " " + indexed("out_specs", j);
    if (spec.entries.size() > block.shape.size())
      fail(ErrorKind::kValue, where, ": ", spec.str(), " has ", spec.entries.size(), " entries but output ", j,
           " of the body is ", block.str(), " (rank ", block.ndim(), ")");
    if (s.check_vma) {
      const auto axes = spec_axes(spec);
      for (const std::string& v : block.vma)
        if (!std::binary_search(axes.begin(), axes.end(), v))
          fail(ErrorKind::kVma, kName, ": ", indexed("out_specs", j), " is ", spec.str(), " but output ", j, " (",
               block.str(), ") varies along mesh axis '", v, "'; mention '", v, "' in ", indexed("out_specs", j),
               ", make the value invariant along it first (psum or pmean over '", v, "'), or pass check_vma=False");
    }
    Shape global = block.shape;
    for (size_t d = 0; d < spec.entries.size(); ++d) global[d] *= s.mesh->axis_group(spec.entries[d], where).size;
    make_layout(*s.mesh, global, spec, where);  // an axis used twice is an error
    out.push_back(Aval{block.dtype, global, {}, block.weak});
  }
  return out;
}

std::vector<MaybeAtom> Def<Prim::kShardMap>::jvp(Builder& b, const Params& p, const std::vector<Atom>& primals,
                                                 const std::vector<Atom>& outputs,
                                                 const std::vector<MaybeAtom>& tangents) {
  const ShardMapParams s = params_of(p);
  // Only the operands with a tangent get one in the body.
  std::vector<bool> wrt;
  std::vector<Atom> operands = primals;
  Specs in_specs = s.in_specs, out_specs = s.out_specs;
  for (size_t i = 0; i < primals.size(); ++i) {
    wrt.push_back(tangents[i].has_value());
    if (!tangents[i]) continue;
    operands.push_back(*tangents[i]);
    in_specs.push_back(s.in_specs[i]);
  }
  if (std::find(wrt.begin(), wrt.end(), true) == wrt.end()) return std::vector<MaybeAtom>(outputs.size());
  out_specs.insert(out_specs.end(), s.out_specs.begin(), s.out_specs.end());
  auto body = std::make_shared<const Program>(dce(ir::jvp(*s.body, wrt), Effects::kDrop));  // prints ran in the primal
  const auto outs = b.emit(Prim::kShardMap, make_params(s, body, in_specs, out_specs), operands);
  return std::vector<MaybeAtom>(outs.begin() + static_cast<long>(outputs.size()), outs.end());
}

std::vector<MaybeAtom> Def<Prim::kShardMap>::transpose(Builder& b, const Params& p, const std::vector<MaybeAtom>& cts,
                                                       const std::vector<Atom>& inputs,
                                                       const std::vector<bool>& linear) {
  const ShardMapParams s = params_of(p);
  const Program& body = *s.body;
  const std::vector<bool> linear_out = linear_outputs(body, linear);
  std::vector<Aval> in_avals;
  for (const Atom& a : inputs) in_avals.push_back(a.aval);
  const std::vector<Aval> out_avals = shape(p, in_avals);
  // The transposed body: (non-linear inputs, cotangents of the linear
  // outputs) -> cotangents of the linear inputs.
  Builder tb(body.scope, nullptr);
  std::vector<Atom> args(body.invars.size());
  std::vector<Atom> operands;
  Specs in_specs, out_specs;
  for (size_t i = 0; i < body.invars.size(); ++i) {
    if (linear[i]) continue;
    args[i] = tb.input(body.avals[body.invars[i]]);
    operands.push_back(inputs[i]);
    in_specs.push_back(s.in_specs[i]);
  }
  std::vector<MaybeAtom> body_cts(body.outvars.size());
  for (size_t j = 0; j < body.outvars.size(); ++j) {
    if (!linear_out[j]) continue;
    body_cts[j] = tb.input(body.outvars[j].aval);
    operands.push_back(cts[j] ? *cts[j] : zeros_like(b, out_avals[j]));
    in_specs.push_back(s.out_specs[j]);
  }
  const Transposed t = emit_transpose(tb, body, linear, args, body_cts);
  std::vector<Atom> results;
  std::vector<size_t> which;
  for (size_t i = 0; i < body.invars.size(); ++i) {
    if (!linear[i]) continue;
    const Aval& aval = body.avals[body.invars[i]];
    results.push_back(t.cts[i] ? *t.cts[i] : zeros_like(tb, aval));
    out_specs.push_back(s.in_specs[i]);
    which.push_back(i);
  }
  auto tbody = std::make_shared<const Program>(dce(tb.build(results)));
  const auto outs = b.emit(Prim::kShardMap, make_params(s, tbody, in_specs, out_specs), operands);
  std::vector<MaybeAtom> input_cts(inputs.size());
  for (size_t k = 0; k < which.size(); ++k) input_cts[which[k]] = outs[k];
  return input_cts;
}

// A batched operand has its batch dimension first and not split (a leading
// None in its in_spec), so every block holds the whole batch; the body is
// batched with the batch dimension first in those blocks, and its batched
// outputs keep it first (a leading None in their out_specs).
std::vector<Batched> Def<Prim::kShardMap>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                                int64_t size) {
  const ShardMapParams s = params_of(p);
  const Program& body = *s.body;
  Builder inner(body.scope, nullptr);
  std::vector<Atom> operands;
  std::vector<Batched> blocks;
  Specs in_specs = s.in_specs, out_specs = s.out_specs;
  for (size_t i = 0; i < in.size(); ++i) {
    Aval block = body.avals[body.invars[i]];
    if (in[i].batched()) {
      in_specs[i].entries.insert(in_specs[i].entries.begin(), std::vector<std::string>{});
      block.shape.insert(block.shape.begin(), size);
    }
    operands.push_back(in[i].batched() ? move_batch_dim(b, in[i], 0, size) : in[i].value);
    blocks.push_back(Batched{inner.input(block), in[i].batched() ? 0 : kNotBatched});
  }
  std::vector<Atom> outs;
  std::vector<int> dims;
  const std::vector<Batched> batched = batch_program(inner, body, blocks, size);
  for (size_t j = 0; j < batched.size(); ++j) {
    outs.push_back(batched[j].batched() ? move_batch_dim(inner, batched[j], 0, size) : batched[j].value);
    dims.push_back(batched[j].batched() ? 0 : kNotBatched);
    if (batched[j].batched()) out_specs[j].entries.insert(out_specs[j].entries.begin(), std::vector<std::string>{});
  }
  auto batched_body = std::make_shared<const Program>(inner.build(outs));
  const auto results = b.emit(Prim::kShardMap, make_params(s, batched_body, in_specs, out_specs), operands);
  std::vector<Batched> r;
  for (size_t j = 0; j < results.size(); ++j) r.push_back(Batched{results[j], dims[j]});
  return r;
}

// x * 2 on blocks of f32[8, 3] split along 'i'.
Sample Def<Prim::kShardMap>::sample() {
  auto mesh = std::make_shared<const Mesh>(std::vector<int>{8}, std::vector<std::string>{"i"});
  const Specs specs{PartitionSpec{{{"i"}}}};
  Builder body(Scope{mesh, true}, nullptr);
  const Atom x = body.input(samples::f32({1, 3}, {"i"}));
  const ProgramRef program = std::make_shared<const Program>(body.build({mul(body, x, f32_scalar(2.0))}));
  return {{samples::f32({8, 3})},
          {{"jaxpr", program}, {"mesh", MeshRef(mesh)}, {"in_specs", specs}, {"out_specs", specs}, {"check_vma", true}}};
}

// Its results' types over Explicit axes would follow out_specs (JAX's
// shard_map outputs are typed by them); the core's meshes do not know their
// axis types yet, so they are unsharded in type (their arrays keep out_specs'
// layout, which the JS API's outSpecs reads).
std::vector<Sharding> Def<Prim::kShardMap>::sharding(const Params&, const std::vector<Aval>&,
                                                     const std::vector<Aval>& out) {
  return std::vector<Sharding>(out.size());
}

// A program holding a shard_map is not partitioned (its axes are Manual:
// it runs as written), so this runs only on unsharded values.
std::vector<Atom> Def<Prim::kShardMap>::partition(Partitioner& pt, const PartEqn& e) { return pt.unsharded_only(e); }

}  // namespace shardlab::ir
