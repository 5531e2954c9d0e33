// all_gather: its shape rule, the threaded algorithm and its serial counterpart.
#include "runtime/collectives/exchange.h"
#include "runtime/collectives/lockstep_collectives.h"

namespace shardlab {

using collectives_detail::overlaps;
using collectives_detail::product;
using collectives_detail::Tag;

Shape all_gather_shape(const Shape& in, int n, int axis, bool tiled) {
  const int rank = static_cast<int>(in.size());
  Shape out = in;
  if (tiled) {
    if (rank == 0) fail(ErrorKind::kShape, "all_gather: tiled=true needs an array of rank >= 1, got a scalar");
    const int a = normalize_axis(axis, rank, "all_gather", "axis");
    out[a] *= n;
  } else {
    const int a = normalize_axis(axis, rank + 1, "all_gather", "axis");
    out.insert(out.begin() + a, n);
  }
  return out;
}

namespace {

// The gathered axis in the output: both forms lay the output out as [pre, n,
// L]: the n blocks' rows of length L = prod(in_shape[a:]) interleaved along
// the pre = prod(in_shape[:a]) rows.
int gathered_axis(const Shape& in_shape, int axis, bool tiled) {
  const int rank = static_cast<int>(in_shape.size());
  return normalize_axis(axis, tiled ? rank : rank + 1, "all_gather", "axis");
}

}  // namespace

// Each peer reads a device's block, (n - 1) * b; into a shared result each
// device writes its own block once, b.
Traffic all_gather_traffic(const Shape& in_shape, DType dtype, int n, bool shared_out) {
  const int64_t bytes = element_bytes(dtype, num_elements(in_shape));
  const bool shared = shared_out && n > 1;
  Traffic t;
  t.algorithm = std::string(shared ? "each device writes its block into the group's one result"
                                   : "each device copies every peer's block into its result") +
                ", " + exchange_path(lane_bytes(num_elements(in_shape)), shared);
  t.sent.assign(static_cast<size_t>(n), shared ? bytes : (n - 1) * bytes);
  t.computes = "every device ends with every block";
  t.links = all_pairs(n);
  return t;
}

// Threaded: each device copies every peer's block into its output (or, into a
// shared output, only its own block).
void Communicator::all_gather(int device, const AxisGroup& g, const void* in, void* out, const Shape& in_shape,
                              int axis, bool tiled) {
  all_gather_shape(in_shape, g.size, axis, tiled);  // validates
  const int64_t block = num_elements(in_shape);
  const int64_t bytes = block * static_cast<int64_t>(kElemBytes);
  if (overlaps(in, out, bytes, bytes * g.size))
    fail(ErrorKind::kValue, "all_gather: the output buffer overlaps the input buffer");
  const int a = gathered_axis(in_shape, axis, tiled);
  const int64_t pre = product(in_shape, 0, a), len = block / std::max<int64_t>(pre, 1);
  const uint64_t tag = Tag{}.add_all(in_shape).add(a).add(tiled).add_all(g.axes).h;
  exchange(device, g, "all_gather", tag, bytes, in, out, bytes * g.size, true, [&](const Peers& p, bool) {
    auto* dst = static_cast<uint32_t*>(out);
    if (block == 0) return;
    const int first = p.shared_out ? p.me : 0, last = p.shared_out ? p.me + 1 : p.n;
    for (int q = first; q < last; ++q) {
      const auto* src = static_cast<const uint32_t*>(p.desc[q]->in);
      for (int64_t r = 0; r < pre; ++r)
        std::memcpy(dst + (r * p.n + q) * len, src + r * len, static_cast<size_t>(len) * kElemBytes);
    }
  });
}

// Serial: block p of the result lands at chunk p of the gathered axis.
void LockstepCollectives::all_gather(int device, const AxisGroup& g, const void* in, void* out, const Shape& in_shape,
                                     int axis, bool tiled) {
  if (!record(device, in, out)) return;
  const int a = gathered_axis(in_shape, axis, tiled);
  const int64_t pre = product(in_shape, 0, a), len = num_elements(in_shape) / std::max<int64_t>(pre, 1);
  for (int d = 0; d < mesh_->size(); ++d)
    for (int p = 0; p < g.size; ++p) {
      auto src = static_cast<const uint32_t*>(in_[mesh_->member(d, g, p)]);
      auto dst = static_cast<uint32_t*>(out_[d]);
      for (int64_t r = 0; r < pre; ++r)
        std::memcpy(dst + (r * g.size + p) * len, src + r * len, static_cast<size_t>(len) * kElemBytes);
    }
}

}  // namespace shardlab
