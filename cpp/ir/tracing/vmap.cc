#include "ir/tracing/vmap.h"

#include <string>

#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

// axis as a dimension of a value of rank `rank` (negative ones from the end), or -1 if out of range.
int normalized(int axis, int rank) {
  const int d = axis < 0 ? axis + rank : axis;
  return d >= 0 && d < rank ? d : -1;
}

std::string shape_text(const Shape& s) {
  std::string t = "(";
  for (size_t i = 0; i < s.size(); ++i) t += std::to_string(s[i]) + (s.size() == 1 ? "," : i + 1 < s.size() ? ", " : "");
  return t + ")";
}

}  // namespace

VmapTrace::VmapTrace(Builder& outer, std::vector<Atom> args, const std::vector<MapAxis>& in_axes,
                     std::optional<int64_t> axis_size, std::optional<std::string> axis_name)
    : outer_(outer), axis_name_(std::move(axis_name)), inner_(outer.scope(), &outer) {
  if (in_axes.size() != args.size())
    fail(ErrorKind::kValue, "vmap: in_axes has ", in_axes.size(), " entries for ", args.size(), " arguments");
  if (axis_size && *axis_size < 0) fail(ErrorKind::kValue, "vmap: axis_size must be >= 0, got ", *axis_size);
  std::optional<int64_t> size = axis_size;
  std::string sizes;  // every mapped axis, for the message when they disagree
  bool agree = true;
  for (size_t i = 0; i < args.size(); ++i) {
    const Atom a = outer_.local(args[i]);
    if (!in_axes[i]) {
      args_.push_back(Batched{a, kNotBatched});
      continue;
    }
    const int rank = a.aval.ndim();
    const int d = normalized(*in_axes[i], rank);
    if (d < 0)
      fail(ErrorKind::kValue, "vmap was requested to map its argument along axis ", *in_axes[i],
           ", which implies that its rank should be at least ", (*in_axes[i] < 0 ? -*in_axes[i] : *in_axes[i] + 1),
           ", but is only ", rank, " (its shape is ", shape_text(a.aval.shape), ")");
    const int64_t n = a.aval.shape[d];
    sizes += "\n  * one axis had size " + std::to_string(n) + ": axis " + std::to_string(d) + " of argument " +
             std::to_string(i) + " of type " + a.aval.str() + ";";
    if (size && *size != n) agree = false;
    if (!size) size = n;
    args_.push_back(Batched{a, d});
  }
  if (!agree)
    fail(ErrorKind::kValue, "vmap got inconsistent sizes for array axes to be mapped:",
         axis_size ? "\n  * axis_size is " + std::to_string(*axis_size) + ";" : std::string(), sizes);
  if (!size)
    fail(ErrorKind::kValue,
         "vmap must have at least one non-None value in in_axes (or be given axis_size), to know the batch size");
  size_ = *size;
  if (axis_name_) inner_.bind_vmap_axis(*axis_name_, size_);
  for (const Batched& a : args_) {
    Aval example = a.value.aval;
    if (a.batched()) example.shape.erase(example.shape.begin() + a.dim);
    inputs_.push_back(inner_.input(example));
  }
}

std::vector<Atom> VmapTrace::finish(std::vector<Atom> outs, const std::vector<MapAxis>& out_axes) {
  if (out_axes.size() != outs.size())
    fail(ErrorKind::kValue, "vmap: out_axes has ", out_axes.size(), " entries for ", outs.size(), " outputs");
  for (Atom& o : outs) o = inner_.local(o);
  const Program p = inner_.build(outs);
  // The program's inputs: the captured values (the same for every example), then the arguments.
  std::vector<Batched> ins;
  for (const Atom& c : inner_.captured()) ins.push_back(Batched{c, kNotBatched});
  ins.insert(ins.end(), args_.begin(), args_.end());
  const VmapAxisName named(axis_name_);
  const std::vector<Batched> batched = batch_program(outer_, p, ins, size_);
  std::vector<Atom> r;
  for (size_t j = 0; j < batched.size(); ++j) {
    const Batched& o = batched[j];
    if (!out_axes[j]) {
      if (o.batched())
        fail(ErrorKind::kValue, "at vmap out_axes (output ", j, "), got axis spec None but output was batched on axis ",
             o.dim, " (", outs[j].aval.str(), " per example, differs across the batch)");
      r.push_back(o.value);
      continue;
    }
    const int rank = o.example_rank() + 1;
    const int d = normalized(*out_axes[j], rank);
    if (d < 0)
      fail(ErrorKind::kValue, "vmap: out_axes ", *out_axes[j], " is out of range for output ", j, ", ",
           outs[j].aval.str(), " per example (rank ", rank, " with the batch dimension)");
    r.push_back(move_batch_dim(outer_, o, d, size_));
  }
  return r;
}

std::vector<Atom> vmap_at(Builder& b, const TracedFn& f, const std::vector<Atom>& args,
                          const std::vector<MapAxis>& in_axes, const std::vector<MapAxis>& out_axes,
                          std::optional<int64_t> axis_size, std::optional<std::string> axis_name) {
  VmapTrace t(b, args, in_axes, axis_size, std::move(axis_name));
  return t.finish(f(t.builder(), t.inputs()), out_axes);
}

}  // namespace shardlab::ir
