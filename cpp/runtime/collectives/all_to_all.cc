// all_to_all: its shape rule, the threaded algorithm and its serial counterpart.
#include "runtime/collectives/exchange.h"
#include "runtime/collectives/lockstep_collectives.h"
#include "runtime/strided_copy.h"

namespace shardlab {

using collectives_detail::overlaps;
using collectives_detail::Tag;

Shape all_to_all_shape(const Shape& in, int n, int split_axis, int concat_axis, bool tiled) {
  const int rank = static_cast<int>(in.size());
  if (rank == 0) fail(ErrorKind::kShape, "all_to_all: needs an array of rank >= 1, got a scalar");
  const int s = normalize_axis(split_axis, rank, "all_to_all", "split_axis");
  const int c = normalize_axis(concat_axis, rank, "all_to_all", "concat_axis");
  Shape out = in;
  if (tiled) {
    if (in[s] % n != 0)
      fail(ErrorKind::kShape, "all_to_all: split_axis ", s, " of shape ", shape_str(in), " has size ", in[s],
           ", which is not divisible by the axis size ", n);
    out[s] /= n;
    out[c] *= n;
    return out;
  }
  if (in[s] != n)
    fail(ErrorKind::kShape, "all_to_all: with tiled=false split_axis ", s, " of shape ", shape_str(in),
         " must equal the axis size ", n, ", got ", in[s], " (use tiled=true to split it into chunks)");
  out.erase(out.begin() + s);
  out.insert(out.begin() + c, n);
  return out;
}

namespace {

// The chunk a device sends to one peer and where it lands in the receiver's
// output, as strided views over the same extent; `src_step` / `dst_step` are
// the offsets per position along split_axis (source) and concat_axis
// (destination). Tiled: split_axis cut to 1/n, every dimension kept; untiled:
// split_axis (of size n) disappears and concat_axis is new.
struct ChunkViews {
  std::vector<int64_t> extent;
  StridedView src, dst;
  int64_t src_step = 0, dst_step = 0;
};

ChunkViews chunk_views(const Shape& in_shape, int n, int split_axis, int concat_axis, bool tiled) {
  const int rank = static_cast<int>(in_shape.size());
  const Shape out_shape = all_to_all_shape(in_shape, n, split_axis, concat_axis, tiled);
  const int s = normalize_axis(split_axis, rank, "all_to_all", "split_axis");
  const int c = normalize_axis(concat_axis, rank, "all_to_all", "concat_axis");
  const auto in_strides = strides_of(in_shape), out_strides = strides_of(out_shape);
  ChunkViews v;
  if (tiled) {
    v.extent = in_shape;
    v.extent[s] /= n;
    v.src.strides = in_strides;
    v.dst.strides = out_strides;
    v.src_step = v.extent[s] * in_strides[s];
    v.dst_step = v.extent[c] * out_strides[c];
    return v;
  }
  for (int k = 0; k < rank; ++k)
    if (k != s) {
      v.extent.push_back(in_shape[k]);
      v.src.strides.push_back(in_strides[k]);
    }
  for (int k = 0; k < rank; ++k)
    if (k != c) v.dst.strides.push_back(out_strides[k]);
  v.src_step = in_strides[s];
  v.dst_step = out_strides[c];
  return v;
}

// Copies the chunk source position `from` sends to position `to` from `in` into `out`.
void copy_chunk(const ChunkViews& v, int from, int to, const void* in, void* out) {
  StridedView sv = v.src, dv = v.dst;
  sv.offset = to * v.src_step;
  dv.offset = from * v.dst_step;
  strided_copy(v.extent, in, sv, out, dv);
}

}  // namespace

// Each peer reads its chunk of a device's block: (n - 1) * b / n.
Traffic all_to_all_traffic(const Shape& in_shape, DType dtype, int n) {
  const int64_t bytes = element_bytes(dtype, num_elements(in_shape));
  Traffic t;
  t.algorithm = "each device copies its chunk of every peer's block, " + exchange_path(lane_bytes(num_elements(in_shape)), false);
  t.sent.assign(static_cast<size_t>(n), (n - 1) * (bytes / n));
  t.computes = "device i ends with chunk i of every block";
  t.links = all_pairs(n);
  return t;
}

// Threaded: each device pulls its chunk from every peer.
void Communicator::all_to_all(int device, const AxisGroup& g, const void* in, void* out, const Shape& in_shape,
                              int split_axis, int concat_axis, bool tiled) {
  const ChunkViews v = chunk_views(in_shape, g.size, split_axis, concat_axis, tiled);
  const int64_t bytes = num_elements(in_shape) * static_cast<int64_t>(kElemBytes);
  if (overlaps(in, out, bytes, bytes))
    fail(ErrorKind::kValue, "all_to_all: the output buffer overlaps the input buffer");
  const uint64_t tag = Tag{}.add_all(in_shape).add(split_axis).add(concat_axis).add(tiled).add_all(g.axes).h;
  exchange(device, g, "all_to_all", tag, bytes, in, out, bytes, false, [&](const Peers& p, bool) {
    for (int q = 0; q < p.n; ++q) copy_chunk(v, q, p.me, p.desc[q]->in, out);
  });
}

// Serial: every device receives its chunk from every member of its group.
void LockstepCollectives::all_to_all(int device, const AxisGroup& g, const void* in, void* out, const Shape& in_shape,
                                     int split_axis, int concat_axis, bool tiled) {
  if (!record(device, in, out)) return;
  const ChunkViews v = chunk_views(in_shape, g.size, split_axis, concat_axis, tiled);
  for (int d = 0; d < mesh_->size(); ++d) {
    const int me = mesh_->position(d, g);
    for (int j = 0; j < g.size; ++j) copy_chunk(v, j, me, in_[mesh_->member(d, g, j)], out_[d]);
  }
}

}  // namespace shardlab
