// psum, pmax and pmin (jax.lax's all-reductions): the threaded algorithm and
// its serial counterpart. pmean is psum followed by a division (in the
// program, as jax.lax.pmean), so it needs no algorithm of its own.
#include "runtime/collectives/exchange.h"
#include "runtime/collectives/lockstep_collectives.h"

namespace shardlab {

using collectives_detail::reduce_peers;
using collectives_detail::Tag;

const char* reduce_op_name(ReduceOp op) {
  switch (op) {
    case ReduceOp::kMax:
      return "pmax";
    case ReduceOp::kMin:
      return "pmin";
    default:
      return "psum";
  }
}

int64_t pack_inputs(const std::vector<ReduceBuffer>& bufs, DType dtype, std::vector<uint32_t>& dst) {
  int64_t total = 0;
  for (const ReduceBuffer& b : bufs)
    if (lane_of(b.dtype) == dtype) total += b.count;
  dst.resize(static_cast<size_t>(total));
  int64_t at = 0;
  for (const ReduceBuffer& b : bufs)
    if (lane_of(b.dtype) == dtype && b.count > 0) {
      std::memcpy(dst.data() + at, b.in, static_cast<size_t>(b.count) * kElemBytes);
      at += b.count;
    }
  return total;
}

void unpack_outputs(const uint32_t* src, const std::vector<ReduceBuffer>& bufs, DType dtype) {
  for (const ReduceBuffer& b : bufs)
    if (lane_of(b.dtype) == dtype && b.count > 0) {
      std::memcpy(b.out, src, static_cast<size_t>(b.count) * kElemBytes);
      narrow_words(static_cast<uint32_t*>(b.out), b.count, b.dtype);  // packed as lanes, each reduced value is its own dtype's
      src += b.count;
    }
}

namespace {

// The elements [lo, hi) position p of n reduces on the slice-parallel path:
// slices of ceil(count / n) rounded up to 16 elements (64 bytes).
std::pair<int64_t, int64_t> reduce_slice(int64_t count, int n, int p) {
  const int64_t per = ((count + n - 1) / n + 15) / 16 * 16;
  const int64_t lo = std::min(count, p * per);
  return {lo, std::min(count, lo + per)};
}

}  // namespace

// What all_reduce_many moves: one all_reduce of each dtype's operands packed
// end to end (of the one operand, when there is one). Staged, each peer
// reads a device's whole block: (n - 1) * b. Slice-parallel, the peers read
// their slices of its block (b - s for its slice s) and it writes its reduced
// slice to each of them, (n - 1) * s, or once into a shared result.
Traffic all_reduce_traffic(ReduceOp op, const std::vector<ReduceBuffer>& bufs, int n, bool shared_out) {
  // Each all_reduce the operands make (one per lane type, operands packed end
  // to end): its elements and their bytes on a device of JAX (by dtype).
  struct Run {
    int64_t count = 0, bytes = 0;
  };
  std::vector<Run> runs;
  for (DType lane : {DType::kFloat32, DType::kInt32}) {
    Run r;
    for (const ReduceBuffer& b : bufs)
      if (lane_of(b.dtype) == lane) r.count += b.count, r.bytes += element_bytes(b.dtype, b.count);
    if (r.count > 0 || (bufs.size() == 1 && lane_of(bufs[0].dtype) == lane)) runs.push_back(r);
  }
  const bool shared = shared_out && n > 1;
  Traffic t;
  t.sent.assign(static_cast<size_t>(n), 0);
  t.computes = op == ReduceOp::kSum ? "every device ends with the sum of the blocks"
               : op == ReduceOp::kMax ? "every device ends with the elementwise maximum of the blocks"
                                      : "every device ends with the elementwise minimum of the blocks";
  t.combine = op == ReduceOp::kSum ? "+" : op == ReduceOp::kMax ? "max" : "min";
  t.links = all_pairs(n);
  for (const auto& [count, bytes] : runs) {
    const bool whole = staged(lane_bytes(count)) && !shared;
    for (int p = 0; p < n; ++p) {
      const auto [lo, hi] = reduce_slice(count, n, p);
      const int64_t slice = count ? bytes * (hi - lo) / count : 0;  // exact when the run has one itemsize
      t.sent[p] += whole ? (n - 1) * bytes : bytes - slice + (shared ? slice : (n - 1) * slice);
    }
    const std::string how = std::string(whole    ? "every device reduces all the blocks itself"
                                        : shared ? "each device reduces its slice of every block into the group's one result"
                                                 : "each device reduces its slice of every block and writes it to every peer") +
                            ", " + exchange_path(lane_bytes(count), shared);
    if (t.algorithm.find(how) == std::string::npos) t.algorithm += (t.algorithm.empty() ? "" : "; ") + how;
  }
  return t;
}

// Threaded: small payloads are reduced whole by every device from the staged
// inputs; large ones slice-parallel, each device reducing its slice over all
// peers and writing it to every output (or once, into a shared output).
void Communicator::all_reduce(int device, const AxisGroup& g, ReduceOp op, DType dtype, const void* in, void* out,
                              int64_t count) {
  const uint64_t tag = Tag{}.add(static_cast<int64_t>(dtype)).add_all(g.axes).h;
  const int64_t bytes = lane_bytes(count);
  auto run = [&](auto zero) {
    using T = decltype(zero);
    exchange(device, g, reduce_op_name(op), tag, bytes, in, out, bytes, true, [&](const Peers& p, bool small) {
      auto input = [&](int i) { return static_cast<const T*>(p.desc[p.by_device[i]]->in); };
      // Each result is narrowed to its dtype where this device computes it,
      // before any peer reads it (a shared output's slices are each one device's).
      if (small && !p.shared_out) {
        reduce_peers<T>(op, static_cast<T*>(out), count, p.n, input);
        narrow_words(static_cast<uint32_t*>(out), count, dtype);
        return;
      }
      // Slice-parallel: this device reduces its slice (reduce_slice) in
      // L1-sized chunks, into the shared output or into every peer's output.
      constexpr int64_t kChunk = 2048;
      const auto [lo, hi] = reduce_slice(count, p.n, p.me);
      alignas(64) T acc[kChunk];
      for (int64_t c0 = lo; c0 < hi; c0 += kChunk) {
        const int64_t len = std::min(kChunk, hi - c0);
        auto chunk = [&](int i) { return input(i) + c0; };
        if (p.shared_out) {
          reduce_peers<T>(op, static_cast<T*>(out) + c0, len, p.n, chunk);
          narrow_words(static_cast<uint32_t*>(out) + c0, len, dtype);
          continue;
        }
        reduce_peers<T>(op, acc, len, p.n, chunk);
        narrow_words(reinterpret_cast<uint32_t*>(acc), len, dtype);
        for (int q = 0; q < p.n; ++q)
          std::memcpy(static_cast<T*>(p.desc[q]->out) + c0, acc, static_cast<size_t>(len) * sizeof(T));
      }
    });
  };
  if (is_float(dtype)) {
    run(0.0f);
  } else {
    run(int32_t{0});
  }
}

void Communicator::all_reduce_many(int device, const AxisGroup& g, ReduceOp op, const std::vector<ReduceBuffer>& bufs) {
  if (bufs.size() == 1) {
    all_reduce(device, g, op, bufs[0].dtype, bufs[0].in, bufs[0].out, bufs[0].count);
    return;
  }
  std::vector<uint32_t>& packed = devices_[device]->packed;
  for (DType dtype : {DType::kFloat32, DType::kInt32}) {
    const int64_t n = pack_inputs(bufs, dtype, packed);
    if (n == 0) continue;
    all_reduce(device, g, op, dtype, packed.data(), packed.data(), n);
    unpack_outputs(packed.data(), bufs, dtype);
  }
}

// Serial: once the last device has called, every device's output is its
// group's inputs folded in ascending device order.
void LockstepCollectives::all_reduce(int device, const AxisGroup& g, ReduceOp op, DType dtype, const void* in,
                                     void* out, int64_t count) {
  if (record(device, in, out)) reduce_all(g, op, dtype, count);
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
    reduce_all(g, op, dtype, n);
    for (int d = 0; d < mesh_->size(); ++d) unpack_outputs(packed_out_[d].data(), bufs_[d], dtype);
  }
}

}  // namespace shardlab
