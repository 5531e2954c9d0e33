#include "exec/lockstep.h"

#include <algorithm>
#include <cstring>

#include "exec/eval_eqn.h"
#include "ir/primitives/shard_map.h"
#include "runtime/errors.h"
#include "runtime/sharded_array.h"
#include "runtime/strided_copy.h"

namespace shardlab::exec {

namespace {

using Words = const uint32_t*;

// Elements of `shape` before dimension `dim` (the outer count of a chunked copy).
int64_t outer_of(const Shape& shape, int dim) {
  int64_t n = 1;
  for (int d = 0; d < dim; ++d) n *= shape[d];
  return n;
}

}  // namespace

LockstepCollectives::LockstepCollectives(std::shared_ptr<const Mesh> mesh)
    : mesh_(std::move(mesh)),
      in_(mesh_->size()),
      out_(mesh_->size()),
      packed_in_(mesh_->size()),
      packed_out_(mesh_->size()),
      bufs_(mesh_->size()) {}

bool LockstepCollectives::record(int device, const void* in, void* out) {
  in_[device] = in;
  out_[device] = out;
  if (++calls_ < mesh_->size()) return false;
  calls_ = 0;
  return true;
}

template <class T>
void LockstepCollectives::reduce_all(const AxisGroup& g, ReduceOp op, int64_t count) {
  std::vector<const T*> srcs(g.size);
  for (int d = 0; d < mesh_->size(); ++d) {
    // Peers in ascending device order, as the Communicator folds them.
    for (int p = 0, k = 0; p < mesh_->size(); ++p)
      if (mesh_->group_devices(d, g.mask) >> p & 1) srcs[k++] = static_cast<const T*>(in_[p]);
    reduce_arrays(op, static_cast<T*>(out_[d]), srcs.data(), g.size, count);
  }
}

void LockstepCollectives::all_reduce(int device, const AxisGroup& g, ReduceOp op, DType dtype, const void* in,
                                     void* out, int64_t count) {
  if (!record(device, in, out)) return;
  if (dtype == DType::kFloat32) {
    reduce_all<float>(g, op, count);
  } else {
    reduce_all<int32_t>(g, op, count);
  }
}

void LockstepCollectives::all_reduce_many(int device, const AxisGroup& g, ReduceOp op,
                                          const std::vector<ReduceBuffer>& bufs) {
  bufs_[device] = bufs;
  if (++calls_ < mesh_->size()) return;
  calls_ = 0;
  // As the Communicator does: per dtype, every device's operands packed end
  // to end and reduced as one array, then unpacked into each device's outputs.
  for (DType dtype : {DType::kFloat32, DType::kInt32}) {
    int64_t n = 0;
    for (int d = 0; d < mesh_->size(); ++d) {
      n = pack_inputs(bufs_[d], dtype, packed_in_[d]);
      packed_out_[d].resize(static_cast<size_t>(n));
      in_[d] = packed_in_[d].data();
      out_[d] = packed_out_[d].data();
    }
    if (n == 0) continue;
    if (dtype == DType::kFloat32) {
      reduce_all<float>(g, op, n);
    } else {
      reduce_all<int32_t>(g, op, n);
    }
    for (int d = 0; d < mesh_->size(); ++d) unpack_outputs(packed_out_[d].data(), bufs_[d], dtype);
  }
}

void LockstepCollectives::all_gather(int device, const AxisGroup& g, const void* in, void* out, const Shape& in_shape,
                                     int axis, bool tiled) {
  if (!record(device, in, out)) return;
  // Block p of the result lands at chunk p of dimension `axis` (stacked or tiled alike).
  const int a = tiled ? normalize_axis(axis, static_cast<int>(in_shape.size()), "all_gather", "axis")
                      : normalize_axis(axis, static_cast<int>(in_shape.size()) + 1, "all_gather", "axis");
  const int64_t outer = outer_of(in_shape, a), inner = num_elements(in_shape) / std::max<int64_t>(outer, 1);
  for (int d = 0; d < mesh_->size(); ++d)
    for (int p = 0; p < g.size; ++p) {
      auto src = static_cast<Words>(in_[mesh_->member(d, g, p)]);
      auto dst = static_cast<uint32_t*>(out_[d]);
      for (int64_t o = 0; o < outer; ++o)
        std::memcpy(dst + (o * g.size + p) * inner, src + o * inner, static_cast<size_t>(inner) * kElemBytes);
    }
}

void LockstepCollectives::reduce_scatter(int device, const AxisGroup& g, DType dtype, const void* in, void* out,
                                         const Shape& in_shape, int dim, bool tiled) {
  if (!record(device, in, out)) return;
  const int k = normalize_axis(dim, static_cast<int>(in_shape.size()), "psum_scatter", "scatter_dimension");
  reduce_scatter_shape(in_shape, g.size, k, tiled);  // checks the sizes
  const int64_t outer = outer_of(in_shape, k), chunk = num_elements(in_shape) / std::max<int64_t>(outer, 1) / g.size;
  // Reduce every device's whole input, then keep the chunk at its position.
  const int64_t count = num_elements(in_shape);
  std::vector<std::vector<uint32_t>> sums(mesh_->size(), std::vector<uint32_t>(static_cast<size_t>(count)));
  std::vector<void*> outs = out_;
  for (int d = 0; d < mesh_->size(); ++d) out_[d] = sums[d].data();
  if (dtype == DType::kFloat32) {
    reduce_all<float>(g, ReduceOp::kSum, count);
  } else {
    reduce_all<int32_t>(g, ReduceOp::kSum, count);
  }
  for (int d = 0; d < mesh_->size(); ++d) {
    const int p = mesh_->position(d, g);
    auto dst = static_cast<uint32_t*>(outs[d]);
    for (int64_t o = 0; o < outer; ++o)
      std::memcpy(dst + o * chunk, sums[d].data() + (o * g.size + p) * chunk, static_cast<size_t>(chunk) * kElemBytes);
  }
}

void LockstepCollectives::ppermute(int device, const AxisGroup& g, const void* in, void* out, int64_t count,
                                   const Permutation& perm) {
  if (!record(device, in, out)) return;
  check_permutation(perm, g.size, g.label());
  const size_t bytes = static_cast<size_t>(count) * kElemBytes;
  for (int d = 0; d < mesh_->size(); ++d) {
    std::memset(out_[d], 0, bytes);
    for (const auto& [src, dst] : perm)
      if (dst == mesh_->position(d, g)) std::memcpy(out_[d], in_[mesh_->member(d, g, src)], bytes);
  }
}

void LockstepCollectives::all_to_all(int device, const AxisGroup& g, const void* in, void* out, const Shape& in_shape,
                                     int split_axis, int concat_axis, bool tiled) {
  if (!record(device, in, out)) return;
  const int rank = static_cast<int>(in_shape.size());
  const Shape out_shape = all_to_all_shape(in_shape, g.size, split_axis, concat_axis, tiled);
  const int s = normalize_axis(split_axis, rank, "all_to_all", "split_axis");
  const int c = normalize_axis(concat_axis, rank, "all_to_all", "concat_axis");
  const auto in_strides = strides_of(in_shape), out_strides = strides_of(out_shape);
  // The chunk a source sends to one destination: split_axis cut to 1/n.
  Shape extent = in_shape;
  extent[s] /= g.size;
  // Where each of the chunk's dimensions lands in the output (tiled: the same
  // dimension; untiled: split_axis disappears and a new concat_axis appears).
  std::vector<int64_t> dst_strides(rank, 0);
  for (int k = 0, o = 0; k < rank; ++k) {
    if (!tiled && k == s) continue;
    if (!tiled && o == c) ++o;
    dst_strides[k] = out_strides[tiled ? k : o++];
  }
  const int64_t chunk_step = tiled ? extent[c] * out_strides[c] : out_strides[c];
  for (int d = 0; d < mesh_->size(); ++d) {
    const int me = mesh_->position(d, g);
    for (int j = 0; j < g.size; ++j) {
      const StridedView src{in_strides, me * extent[s] * in_strides[s]};
      const StridedView dst{dst_strides, j * chunk_step};
      strided_copy(extent, in_[mesh_->member(d, g, j)], src, out_[d], dst);
    }
  }
}

std::vector<HostArray> run_shard_map_lockstep(const ir::Eqn& e, const std::vector<HostArray>& operands) {
  const auto& body = *ir::param<ir::ProgramRef>(e.params, "jaxpr", "shard_map");
  const auto& mesh = ir::param<ir::MeshRef>(e.params, "mesh", "shard_map");
  const auto& in_specs = ir::param<ir::Specs>(e.params, "in_specs", "shard_map");
  const auto& out_specs = ir::param<ir::Specs>(e.params, "out_specs", "shard_map");
  const int n = mesh->size();
  LockstepCollectives collectives(mesh);
  std::vector<std::vector<HostArray>> envs(n, make_env(body));
  for (size_t i = 0; i < operands.size(); ++i) {
    const Layout layout = make_layout(*mesh, operands[i].aval.shape, in_specs[i], "shard_map");
    for (int d = 0; d < n; ++d) {
      HostArray& h = envs[d][body.invars[i]];
      h.words.resize(static_cast<size_t>(num_elements(layout.block)));
      read_block(*mesh, layout, d, operands[i].words.data(), h.words.data());
    }
  }
  for (const ir::Eqn& eq : body.eqns)
    for (int d = 0; d < n; ++d) {
      const ir::DeviceContext ctx{d, &collectives};
      eval_eqn(eq, envs[d], &ctx);
    }
  // Each output block goes to its place from the device that owns it
  // (Layout::owner, the lowest-numbered holder, as the threaded executor):
  // its replicas agree when check_vma holds; otherwise JAX also takes one copy.
  std::vector<HostArray> outs;
  const auto out_avals = ir::primitive(e.prim).shape(e.params, [&] {
    std::vector<ir::Aval> in;
    for (const auto& o : operands) in.push_back(o.aval);
    return in;
  }());
  for (size_t j = 0; j < body.outvars.size(); ++j) {
    HostArray g{out_avals[j], std::vector<uint32_t>(static_cast<size_t>(num_elements(out_avals[j].shape)))};
    const Layout layout = make_layout(*mesh, g.aval.shape, out_specs[j], "shard_map");
    for (int d = 0; d < n; ++d) {
      if (layout.owner(*mesh, d) != d) continue;
      const HostArray block = value_of(body.outvars[j], envs[d]);
      write_block(*mesh, layout, d, block.words.data(), g.words.data());
    }
    outs.push_back(std::move(g));
  }
  return outs;
}

}  // namespace shardlab::exec
