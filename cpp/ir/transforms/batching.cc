#include "ir/transforms/batching.h"

#include <algorithm>

#include "ir/tracing/ops.h"
#include "runtime/errors.h"

namespace shardlab::ir {

Atom move_batch_dim(Builder& b, const Batched& x, int to, int64_t size) {
  const Shape& shape = x.value.aval.shape;
  if (!x.batched()) {
    // Repeated along a new dimension `to`: the example's dimensions go around it.
    Shape out = shape;
    out.insert(out.begin() + to, size);
    std::vector<int64_t> dims;
    for (int64_t i = 0; i < static_cast<int64_t>(shape.size()); ++i) dims.push_back(i < to ? i : i + 1);
    return broadcast_in_dim(b, x.value, out, dims);
  }
  if (x.dim == to) return x.value;
  // Output dimension i reads input dimension perm[i]: the batch one at `to`, the others in order.
  std::vector<int64_t> perm;
  for (int64_t i = 0; i < static_cast<int64_t>(shape.size()); ++i)
    if (i != x.dim) perm.push_back(i);
  perm.insert(perm.begin() + to, x.dim);
  return transpose(b, x.value, perm);
}

std::vector<Atom> batch_dims_first(Builder& b, const std::vector<Batched>& in, int64_t size) {
  std::vector<Atom> out;
  for (const Batched& x : in) out.push_back(move_batch_dim(b, x, 0, size));
  return out;
}

std::vector<Batched> batched_at(const std::vector<Atom>& outs, int dim) {
  std::vector<Batched> r;
  for (const Atom& a : outs) r.push_back(Batched{a, dim});
  return r;
}

std::vector<int64_t> skip_batch_dim(const std::vector<int64_t>& dims, int batch_dim) {
  std::vector<int64_t> out;
  for (int64_t d : dims) out.push_back(d >= batch_dim ? d + 1 : d);
  return out;
}

std::vector<Batched> batch_elementwise(Builder& b, Prim prim, const Params& params, const std::vector<Batched>& in,
                                       int64_t size, size_t scalars_kept) {
  int rank = 0;
  for (const Batched& x : in) rank = std::max(rank, x.example_rank());
  // The result's batched shape: a batched operand of its rank gives it; when
  // the batched operands are all scalars under a larger result, an operand of
  // the result's rank with the batch dimension put first.
  int dim = 0;
  Shape shape;
  for (const Batched& x : in)
    if (x.batched() && x.example_rank() == rank) {
      dim = x.dim;
      shape = x.value.aval.shape;
      break;
    }
  if (shape.empty()) {
    for (const Batched& x : in)
      if (x.example_rank() == rank) shape = x.value.aval.shape;
    shape.insert(shape.begin(), size);
  }
  std::vector<Atom> values;
  for (size_t i = 0; i < in.size(); ++i) {
    const Batched& x = in[i];
    if (!x.batched() && x.example_rank() == 0 && i < scalars_kept)
      values.push_back(x.value);
    else if (x.example_rank() == rank)
      values.push_back(move_batch_dim(b, x, dim, size));
    else  // a scalar under a larger result: repeated over the example's dimensions
      values.push_back(broadcast_in_dim(b, x.value, shape, x.batched() ? std::vector<int64_t>{dim} : std::vector<int64_t>{}));
  }
  return batched_at(b.emit(prim, params, values), dim);
}

namespace {

// The axis_name of the jax.vmap being batched (null when it has none): set
// for the whole of its batching, so the bodies its rules batch (a jit's, a
// loop's) see it too.
thread_local const std::string* current_axis = nullptr;

// Whether equation e, or a program nested in it, names vmap axis `axis`.
bool names_axis(const Eqn& e, const std::string& axis) {
  const PrimitiveDef& def = primitive(e.prim);
  if (def.axis_names) {
    const std::vector<std::string>& names = def.axis_names(e.params);
    if (std::find(names.begin(), names.end(), axis) != names.end()) return true;
  }
  for (const Program* sub : subprograms(e))
    for (const Eqn& q : sub->eqns)
      if (names_axis(q, axis)) return true;
  return false;
}

}  // namespace

VmapAxisName::VmapAxisName(const std::optional<std::string>& name) : saved_(current_axis) {
  if (name) current_axis = &*name;
}
VmapAxisName::~VmapAxisName() { current_axis = saved_; }

std::vector<Batched> batch_program(Builder& b, const Program& p, const std::vector<Batched>& inputs, int64_t size) {
  if (inputs.size() != p.invars.size())
    fail(ErrorKind::kValue, "vmap: the program takes ", p.invars.size(), " inputs, got ", inputs.size());
  std::vector<Batched> env(p.avals.size());
  for (size_t i = 0; i < inputs.size(); ++i) env[p.invars[i]] = inputs[i];
  auto read = [&](const Atom& a) { return a.is_literal() ? Batched{a, kNotBatched} : env[a.var]; };
  for (const Eqn& e : p.eqns) {
    std::vector<Batched> in;
    bool any = false;
    for (const Atom& a : e.inputs) {
      in.push_back(read(a));
      any = any || in.back().batched();
    }
    const PrimitiveDef& def = primitive(e.prim);
    const bool names = current_axis && names_axis(e, *current_axis);
    std::vector<Batched> outs;
    if (names && def.batch_over_axis) {
      const std::vector<std::string>& axes = def.axis_names(e.params);
      if (std::find(axes.begin(), axes.end(), *current_axis) != axes.end()) {
        outs = def.batch_over_axis(b, e.params, in, size, *current_axis);
      } else {
        outs = def.batch(b, e.params, in, size);
      }
    } else if (any || names) {  // a body naming the axis is batched even when its operands are not
      outs = def.batch(b, e.params, in, size);
    } else {
      std::vector<Atom> values;
      for (const Batched& x : in) values.push_back(x.value);
      outs = batched_at(b.emit(e.prim, e.params, values), kNotBatched);
    }
    if (outs.size() != e.outputs.size())
      fail(ErrorKind::kValue, "vmap: the batching rule of ", def.name, " gave ", outs.size(),
           " outputs for ", e.outputs.size());
    for (size_t i = 0; i < outs.size(); ++i) env[e.outputs[i]] = outs[i];
  }
  std::vector<Batched> out;
  for (const Atom& a : p.outvars) out.push_back(read(a));
  return out;
}

std::vector<Batched> batch_dims_leading(Builder& b, const std::vector<Batched>& in, int64_t size) {
  std::vector<Batched> out;
  for (const Batched& x : in) out.push_back(x.batched() ? Batched{move_batch_dim(b, x, 0, size), 0} : x);
  return out;
}

std::vector<Atom> values_of(const std::vector<Batched>& in) {
  std::vector<Atom> out;
  for (const Batched& x : in) out.push_back(x.value);
  return out;
}

ProgramRef batched_body(const Scope& scope, const Program& p, const std::vector<Batched>& in, int64_t size) {
  Builder b(scope, nullptr);
  std::vector<Batched> ins;
  for (const Batched& x : in) ins.push_back(Batched{b.input(x.value.aval), x.dim});
  std::vector<Atom> outs;
  for (const Batched& o : batch_program(b, p, ins, size)) outs.push_back(move_batch_dim(b, o, 0, size));
  return std::make_shared<const Program>(b.build(outs));
}

}  // namespace shardlab::ir
