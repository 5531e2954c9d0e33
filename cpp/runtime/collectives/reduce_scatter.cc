// psum_scatter (the reduce_scatter primitive): its shape rule, the threaded
// algorithm and its serial counterpart.
#include "runtime/collectives/exchange.h"
#include "runtime/collectives/lockstep_collectives.h"

namespace shardlab {

using collectives_detail::overlaps;
using collectives_detail::product;
using collectives_detail::reduce_peers;
using collectives_detail::Tag;

Shape reduce_scatter_shape(const Shape& in, int n, int dim, bool tiled) {
  const int rank = static_cast<int>(in.size());
  if (rank == 0) fail(ErrorKind::kShape, "psum_scatter: needs an array of rank >= 1, got a scalar");
  const int d = normalize_axis(dim, rank, "psum_scatter", "scatter_dimension");
  Shape out = in;
  if (tiled) {
    if (in[d] % n != 0)
      fail(ErrorKind::kShape, "psum_scatter: dimension ", d, " of shape ", shape_str(in), " has size ", in[d],
           ", which is not divisible by the axis size ", n, " (tiled=true)");
    out[d] /= n;
  } else {
    if (in[d] != n)
      fail(ErrorKind::kShape, "psum_scatter: with tiled=false dimension ", d, " of shape ", shape_str(in),
           " must equal the axis size ", n, ", got ", in[d], " (use tiled=true to split it into chunks)");
    out.erase(out.begin() + d);
  }
  return out;
}

// Each peer reads its chunk of a device's block: (n - 1) * b / n.
Traffic reduce_scatter_traffic(const Shape& in_shape, DType dtype, int n) {
  const int64_t bytes = element_bytes(dtype, num_elements(in_shape));
  Traffic t;
  t.algorithm = "each device sums its chunk of every peer's block, " + exchange_path(lane_bytes(num_elements(in_shape)), false);
  t.sent.assign(static_cast<size_t>(n), (n - 1) * (bytes / n));
  t.computes = "device i ends with chunk i of the sum of the blocks";
  t.combine = "+";
  t.links = all_pairs(n);
  return t;
}

// Threaded: the input is [pre, n, L]; each device sums the [pre, L] slab at
// its position over all peers, in ascending device order.
void Communicator::reduce_scatter(int device, const AxisGroup& g, DType dtype, const void* in, void* out,
                                  const Shape& in_shape, int dim, bool tiled) {
  const Shape out_shape = reduce_scatter_shape(in_shape, g.size, dim, tiled);
  const int d = normalize_axis(dim, static_cast<int>(in_shape.size()), "psum_scatter", "scatter_dimension");
  const int64_t bytes = num_elements(in_shape) * static_cast<int64_t>(kElemBytes);
  if (overlaps(in, out, bytes, num_elements(out_shape) * static_cast<int64_t>(kElemBytes)))
    fail(ErrorKind::kValue, "psum_scatter: the output buffer overlaps the input buffer");
  const int64_t pre = product(in_shape, 0, d);
  const int64_t len = in_shape[d] / g.size * product(in_shape, d + 1, in_shape.size());
  const uint64_t tag = Tag{}.add_all(in_shape).add(d).add(tiled).add(static_cast<int64_t>(dtype)).add_all(g.axes).h;
  auto run = [&](auto zero) {
    using T = decltype(zero);
    exchange(device, g, "psum_scatter", tag, bytes, in, out, bytes / g.size, false, [&](const Peers& p, bool) {
      auto* dst = static_cast<T*>(out);
      for (int64_t r = 0; r < pre; ++r) {
        reduce_peers<T>(ReduceOp::kSum, dst + r * len, len, p.n, [&](int i) {
          return static_cast<const T*>(p.desc[p.by_device[i]]->in) + (r * p.n + p.me) * len;
        });
        narrow_words(reinterpret_cast<uint32_t*>(dst + r * len), len, dtype);
      }
    });
  };
  if (is_float(dtype)) {
    run(0.0f);
  } else {
    run(int32_t{0});
  }
}

// Serial: reduce every device's whole input, then keep the chunk at its position.
void LockstepCollectives::reduce_scatter(int device, const AxisGroup& g, DType dtype, const void* in, void* out,
                                         const Shape& in_shape, int dim, bool tiled) {
  if (!record(device, in, out)) return;
  const int k = normalize_axis(dim, static_cast<int>(in_shape.size()), "psum_scatter", "scatter_dimension");
  reduce_scatter_shape(in_shape, g.size, k, tiled);  // checks the sizes
  const int64_t pre = product(in_shape, 0, k), chunk = num_elements(in_shape) / std::max<int64_t>(pre, 1) / g.size;
  const int64_t count = num_elements(in_shape);
  std::vector<std::vector<uint32_t>> sums(mesh_->size(), std::vector<uint32_t>(static_cast<size_t>(count)));
  std::vector<void*> outs = out_;
  for (int d = 0; d < mesh_->size(); ++d) out_[d] = sums[d].data();
  reduce_all(g, ReduceOp::kSum, dtype, count);
  for (int d = 0; d < mesh_->size(); ++d) {
    const int p = mesh_->position(d, g);
    auto dst = static_cast<uint32_t*>(outs[d]);
    for (int64_t r = 0; r < pre; ++r)
      std::memcpy(dst + r * chunk, sums[d].data() + (r * g.size + p) * chunk, static_cast<size_t>(chunk) * kElemBytes);
  }
}

}  // namespace shardlab
