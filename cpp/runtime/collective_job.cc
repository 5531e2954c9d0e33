#include "runtime/collective_job.h"

#include <cstring>

#include "runtime/errors.h"

namespace shardlab {

namespace {

struct KindName {
  CollectiveKind kind;
  const char* name;
};
constexpr KindName kKinds[] = {
    {CollectiveKind::kPsum, "psum"},
    {CollectiveKind::kPmean, "pmean"},
    {CollectiveKind::kPmax, "pmax"},
    {CollectiveKind::kPmin, "pmin"},
    {CollectiveKind::kAllGather, "all_gather"},
    {CollectiveKind::kPsumScatter, "psum_scatter"},
    {CollectiveKind::kPpermute, "ppermute"},
    {CollectiveKind::kAllToAll, "all_to_all"},
    {CollectiveKind::kAxisIndex, "axis_index"},
};

ReduceOp reduce_op_of(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::kPmean:
      return ReduceOp::kMean;
    case CollectiveKind::kPmax:
      return ReduceOp::kMax;
    case CollectiveKind::kPmin:
      return ReduceOp::kMin;
    default:
      return ReduceOp::kSum;
  }
}

}  // namespace

CollectiveKind collective_kind_from_name(const std::string& name) {
  std::string valid;
  for (const auto& k : kKinds) {
    if (name == k.name) return k.kind;
    valid += valid.empty() ? k.name : std::string(", ") + k.name;
  }
  fail(ErrorKind::kValue, "collective: unknown collective '", name, "'; valid names are ", valid);
}

const char* collective_kind_name(CollectiveKind kind) {
  for (const auto& k : kKinds)
    if (k.kind == kind) return k.name;
  return "?";
}

Shape collective_block_shape(const Mesh& mesh, const CollectiveSpec& spec, const Shape& in_block) {
  const AxisGroup g = mesh.axis_group(spec.axis_name, collective_kind_name(spec.kind));
  switch (spec.kind) {
    case CollectiveKind::kAllGather:
      return all_gather_shape(in_block, g.size, spec.axis, spec.tiled);
    case CollectiveKind::kPsumScatter:
      return reduce_scatter_shape(in_block, g.size, spec.scatter_dimension, spec.tiled);
    case CollectiveKind::kAllToAll:
      return all_to_all_shape(in_block, g.size, spec.split_axis, spec.concat_axis, spec.tiled);
    case CollectiveKind::kAxisIndex:
      return {1};
    case CollectiveKind::kPpermute:
      check_permutation(spec.perm, g.size, g.label());
      return in_block;
    default:
      return in_block;
  }
}

uint32_t collective_varying_axes(const Mesh& mesh, const CollectiveSpec& spec, uint32_t in_varying) {
  const uint32_t axes = mesh.axis_group(spec.axis_name, collective_kind_name(spec.kind)).mask;
  switch (spec.kind) {
    case CollectiveKind::kPsumScatter:
    case CollectiveKind::kPpermute:
    case CollectiveKind::kAllToAll:
      return in_varying | axes;
    case CollectiveKind::kAxisIndex:
      return axes;
    default:
      return in_varying & ~axes;
  }
}

CollectiveJob prepare_collective(Communicator& comm, const ShardedArray& in, const CollectiveSpec& spec,
                                 const PartitionSpec& out_spec, int reps, bool check_vma) {
  if (&comm.mesh() != &in.mesh())
    fail(ErrorKind::kValue, "collective: the array lives on ", in.mesh().str(),
         " but the communicator belongs to another mesh object");
  if (reps < 1) fail(ErrorKind::kValue, "collective: reps=", reps, " must be >= 1");
  const Mesh& mesh = in.mesh();
  const AxisGroup g = mesh.axis_group(spec.axis_name, collective_kind_name(spec.kind));
  const Shape out_block = collective_block_shape(mesh, spec, in.block_shape());
  // The output's global shape: each out_spec entry multiplies its dimension by its axes' size.
  Shape global = out_block;
  const std::string where = std::string(collective_kind_name(spec.kind)) + " out_spec " + out_spec.str();
  for (size_t i = 0; i < out_spec.entries.size() && i < global.size(); ++i)
    global[i] *= mesh.axis_group(out_spec.entries[i], where).size;
  const DType out_dtype = spec.kind == CollectiveKind::kAxisIndex ? DType::kInt32 : in.dtype();
  if (spec.kind == CollectiveKind::kPmean && in.dtype() != DType::kFloat32)
    fail(ErrorKind::kValue, "pmean: needs a float32 array, got ", dtype_name(in.dtype()), "; use psum for integers");

  // The input's blocks vary along the axes its spec splits over (replicas agree).
  const uint32_t varying = collective_varying_axes(mesh, spec, in.layout().split_mask);
  const uint32_t out_axes = make_layout(mesh, global, out_spec, where).split_mask;
  if (check_vma && (varying & ~out_axes)) {
    int a = 0;
    while (!((varying & ~out_axes) >> a & 1)) ++a;
    fail(ErrorKind::kSharding, collective_kind_name(spec.kind), ": out_spec ", out_spec.str(), " omits mesh axis '",
         mesh.axis_names()[a], "', along which the result varies; mention it in out_spec, or pass check_vma=false");
  }
  // A result invariant over the collective's group, with one block for the
  // whole group, is stored once per group when it is large (each device
  // writes its share); small ones keep a copy per device so the collective
  // needs a single barrier.
  const bool replicated_in_group = (varying & g.mask) == 0 && (out_axes & g.mask) == 0;
  const bool share =
      check_vma && replicated_in_group &&
      num_elements(out_block) * static_cast<int64_t>(kElemBytes) > static_cast<int64_t>(Communicator::kStagingBytes);
  CollectiveJob job{ShardedArray(in.mesh_ptr(), out_dtype, global, out_spec, share ? g.mask : 0), {}};
  ShardedArray src = in, dst = job.out;  // the job's copies keep the blocks alive
  const int64_t count = in.block_elements();
  const Shape in_block = in.block_shape();
  job.fn = [&comm, src, dst, spec, g, count, in_block, reps](int d) mutable {
    const void* x = src.block(d);
    void* y = dst.block(d);
    for (int r = 0; r < reps; ++r) {
      switch (spec.kind) {
        case CollectiveKind::kPsum:
        case CollectiveKind::kPmean:
        case CollectiveKind::kPmax:
        case CollectiveKind::kPmin:
          comm.all_reduce(d, g, reduce_op_of(spec.kind), src.dtype(), x, y, count);
          break;
        case CollectiveKind::kAllGather:
          comm.all_gather(d, g, x, y, in_block, spec.axis, spec.tiled);
          break;
        case CollectiveKind::kPsumScatter:
          comm.reduce_scatter(d, g, src.dtype(), x, y, in_block, spec.scatter_dimension, spec.tiled);
          break;
        case CollectiveKind::kPpermute:
          comm.ppermute(d, g, x, y, count, spec.perm);
          break;
        case CollectiveKind::kAllToAll:
          comm.all_to_all(d, g, x, y, in_block, spec.split_axis, spec.concat_axis, spec.tiled);
          break;
        case CollectiveKind::kAxisIndex: {
          const int32_t i = comm.mesh().position(d, g);
          std::memcpy(y, &i, sizeof i);
          break;
        }
      }
    }
  };
  return job;
}

ShardedArray run_collective(DevicePool& pool, Communicator& comm, const ShardedArray& in, const CollectiveSpec& spec,
                            const PartitionSpec& out_spec, int reps, bool check_vma) {
  CollectiveJob job = prepare_collective(comm, in, spec, out_spec, reps, check_vma);
  const JobResult r = pool.run(in.mesh().size(), job.fn, &comm);
  if (!r.ok) throw Error(r.kind, r.message);
  return job.out;
}

}  // namespace shardlab
