#include "runtime/communicator.h"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "runtime/errors.h"
#include "runtime/strided_copy.h"

namespace shardlab {

namespace {

enum Op : uint32_t { kPsum, kPmax, kPmin, kPmean, kAllGather, kReduceScatter, kPpermute, kAllToAll };

// Collectives whose result is the same on every peer, so it may be one shared buffer.
bool shares_output(uint32_t op) { return op <= kPmean || op == kAllGather; }

const char* op_name(uint32_t op) {
  static const char* const kNames[] = {"psum",       "pmax",         "pmin",     "pmean",
                                       "all_gather", "psum_scatter", "ppermute", "all_to_all"};
  return op < 8 ? kNames[op] : "?";
}

// FNV-1a over the parameters that must agree between peers.
struct Tag {
  uint64_t h = 1469598103934665603ull;
  Tag& add(int64_t v) {
    for (int i = 0; i < 8; ++i) h = (h ^ ((static_cast<uint64_t>(v) >> (8 * i)) & 0xff)) * 1099511628211ull;
    return *this;
  }
  Tag& add(const std::vector<int64_t>& v) {
    add(static_cast<int64_t>(v.size()));
    for (int64_t x : v) add(x);
    return *this;
  }
  Tag& add(const Dims& v) {
    add(static_cast<int64_t>(v.size()));
    for (int64_t x : v) add(x);
    return *this;
  }
};

bool overlaps(const void* a, const void* b, int64_t a_bytes, int64_t b_bytes) {
  const auto* pa = static_cast<const char*>(a);
  const auto* pb = static_cast<const char*>(b);
  return a_bytes > 0 && b_bytes > 0 && pa < pb + b_bytes && pb < pa + a_bytes;
}

int64_t product(const Shape& s, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to; ++i) p *= s[i];
  return p;
}

}  // namespace

// The exchange codes of all_reduce are its ReduceOp values.
static_assert(static_cast<uint32_t>(ReduceOp::kSum) == kPsum && static_cast<uint32_t>(ReduceOp::kMax) == kPmax &&
              static_cast<uint32_t>(ReduceOp::kMin) == kPmin && static_cast<uint32_t>(ReduceOp::kMean) == kPmean);

const char* reduce_op_name(ReduceOp op) { return op_name(static_cast<uint32_t>(op)); }

struct Communicator::Desc {
  uint32_t op = 0;
  uint64_t tag = 0;
  int64_t bytes = 0;
  const void* in = nullptr;
  void* out = nullptr;
};

struct alignas(64) Communicator::MaskState {
  Desc slot[2];
  uint32_t seq = 0;
  unsigned char* staging[2] = {nullptr, nullptr};
};

struct Communicator::DeviceState {
  std::vector<MaskState> masks;
  std::unique_ptr<Buffer> staging;
  std::vector<uint32_t> packed;  // all_reduce_many's operands, kept between calls
};

// The peers of one exchange: descriptors by position along the group's axes,
// and the order in which reductions visit them (ascending device number).
struct Communicator::Peers {
  int n = 0;
  int me = 0;
  bool shared_out = false;  // every peer writes to the same output buffer (a replicated result)
  std::array<const Desc*, kMaxDevices> desc{};
  std::array<int, kMaxDevices> device{};
  std::array<int, kMaxDevices> by_device{};
};

Communicator::Communicator(std::shared_ptr<const Mesh> mesh) : mesh_(std::move(mesh)), num_masks_(1 << mesh_->ndim()) {
  barriers_.resize(num_masks_);
  for (int mask = 0; mask < num_masks_; ++mask) {
    int groups = mesh_->size();
    for (int a = 0; a < mesh_->ndim(); ++a)
      if (mask & (1 << a)) groups /= mesh_->axis_size(a);
    barriers_[mask].resize(groups);
    for (int d = 0; d < mesh_->size(); ++d) {
      auto& b = barriers_[mask][mesh_->group_number(d, mask)];
      if (!b) b = std::make_unique<Barrier>(mesh_->group_devices(d, mask), &flags_);
    }
  }
  for (int d = 0; d < mesh_->size(); ++d) {
    auto state = std::make_unique<DeviceState>();
    state->masks.resize(num_masks_);
    state->staging = std::make_unique<Buffer>(static_cast<size_t>(num_masks_) * 2 * kStagingBytes, d);
    auto* base = static_cast<unsigned char*>(state->staging->data());
    for (int mask = 0; mask < num_masks_; ++mask)
      for (int p = 0; p < 2; ++p) state->masks[mask].staging[p] = base + (mask * 2 + p) * kStagingBytes;
    devices_.push_back(std::move(state));
  }
}

Communicator::~Communicator() = default;

Barrier& Communicator::barrier(uint32_t mask, int device) {
  return *barriers_[mask][mesh_->group_number(device, mask)];
}

void Communicator::sync(int device) { barrier(num_masks_ - 1, device).arrive_and_wait(device, "shard_map"); }

void Communicator::device_finished(int device) {
  flags_.finished.fetch_or(uint64_t{1} << device);
  for (int mask = 0; mask < num_masks_; ++mask) barrier(mask, device).poke();
}

void Communicator::abort() {
  flags_.aborted.store(true);
  for (auto& groups : barriers_)
    for (auto& b : groups) b->poke();
}

void Communicator::reset() {
  flags_.aborted.store(false);
  flags_.finished.store(0);
  for (auto& groups : barriers_)
    for (auto& b : groups) b->reset();
  for (auto& d : devices_)
    for (auto& m : d->masks) m.seq = 0;
}

template <class Body>
void Communicator::exchange(int device, const AxisGroup& g, const char* what, uint32_t op, uint64_t tag, int64_t bytes,
                            const void* in, void* out, int64_t out_bytes, Body&& body) {
  MaskState& ms = devices_[device]->masks[g.mask];
  const uint32_t parity = ms.seq++ & 1;
  const bool small = bytes <= static_cast<int64_t>(kStagingBytes);
  if (small && bytes > 0) {
    std::memcpy(ms.staging[parity], in, static_cast<size_t>(bytes));
    in = ms.staging[parity];
  }
  ms.slot[parity] = Desc{op, tag, bytes, in, out};
  Barrier& b = barrier(g.mask, device);
  b.arrive_and_wait(device, what);

  Peers peers;
  peers.n = g.size;
  peers.me = mesh_->position(device, g);
  for (int p = 0; p < g.size; ++p) {
    const int m = mesh_->member(device, g, p);
    const Desc& d = devices_[m]->masks[g.mask].slot[parity];
    if (d.op != op || d.tag != tag || d.bytes != bytes)
      fail(ErrorKind::kDevice, what, " over ", g.label(), " on device ", device, " (", bytes, " bytes): device ", m,
           " runs ", op_name(d.op), " with ", d.bytes,
           " bytes or other parameters at the same point; every device of the group must run the same collectives "
           "with the same shapes and parameters in the same order");
    peers.desc[p] = &d;
    peers.device[p] = m;
    peers.by_device[p] = p;
  }
  std::sort(peers.by_device.begin(), peers.by_device.begin() + g.size,
            [&](int a, int b2) { return peers.device[a] < peers.device[b2]; });
  // Outputs are either all distinct or, for a result replicated over the
  // group, all one buffer; then each peer writes its share of it and the
  // closing barrier tells everyone the whole result is there.
  int same = 0;
  for (int p = 0; p < g.size && out_bytes > 0; ++p)
    for (int q = 0; q < p; ++q)
      if (peers.desc[p]->out == peers.desc[q]->out) ++same;
  peers.shared_out = g.size > 1 && same == g.size * (g.size - 1) / 2;
  if (same != 0 && (!peers.shared_out || !shares_output(op)))
    fail(ErrorKind::kValue, what, " over ", g.label(), " on device ", device,
         ": the output buffers of some peers alias each other; outputs must be distinct, or (psum-like and "
         "all_gather results only) one buffer shared by the whole group");
  body(peers, small);
  if (!small || peers.shared_out) b.arrive_and_wait(device, what);
}

namespace {

// Reduces `len` elements of every peer's input (src_of(i) points at the first
// of them for the i-th peer in ascending device order) into dst.
template <class T, class Src>
void reduce_peers(ReduceOp op, T* dst, int64_t len, int n, Src src_of) {
  std::array<const T*, kMaxDevices> srcs;
  for (int i = 0; i < n; ++i) srcs[i] = src_of(i);
  reduce_arrays(op, dst, srcs.data(), n, len);
}

}  // namespace

void Communicator::all_reduce(int device, const AxisGroup& g, ReduceOp op, DType dtype, const void* in, void* out,
                              int64_t count) {
  if (op == ReduceOp::kMean && dtype != DType::kFloat32)
    fail(ErrorKind::kValue, "pmean: needs a float32 array, got ", dtype_name(dtype), "; use psum for integers");
  const uint32_t code = static_cast<uint32_t>(op);
  const uint64_t tag = Tag{}.add(static_cast<int64_t>(dtype)).add(g.axes).h;
  const int64_t bytes = count * static_cast<int64_t>(kElemBytes);
  auto run = [&](auto zero) {
    using T = decltype(zero);
    exchange(device, g, reduce_op_name(op), code, tag, bytes, in, out, bytes, [&](const Peers& p, bool small) {
      auto input = [&](int i) { return static_cast<const T*>(p.desc[p.by_device[i]]->in); };
      if (small && !p.shared_out) {
        reduce_peers<T>(op, static_cast<T*>(out), count, p.n, input);
        return;
      }
      // Slice-parallel: this device reduces its slice (64-byte aligned) in
      // L1-sized chunks, into the shared output or into every peer's output.
      constexpr int64_t kChunk = 2048;
      const int64_t per = ((count + p.n - 1) / p.n + 15) / 16 * 16;
      const int64_t lo = std::min(count, p.me * per), hi = std::min(count, lo + per);
      alignas(64) T acc[kChunk];
      for (int64_t c0 = lo; c0 < hi; c0 += kChunk) {
        const int64_t len = std::min(kChunk, hi - c0);
        auto chunk = [&](int i) { return input(i) + c0; };
        if (p.shared_out) {
          reduce_peers<T>(op, static_cast<T*>(out) + c0, len, p.n, chunk);
          continue;
        }
        reduce_peers<T>(op, acc, len, p.n, chunk);
        for (int q = 0; q < p.n; ++q)
          std::memcpy(static_cast<T*>(p.desc[q]->out) + c0, acc, static_cast<size_t>(len) * sizeof(T));
      }
    });
  };
  if (dtype == DType::kFloat32) {
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

void Communicator::all_gather(int device, const AxisGroup& g, const void* in, void* out, const Shape& in_shape,
                              int axis, bool tiled) {
  all_gather_shape(in_shape, g.size, axis, tiled);  // validates
  const int64_t block = num_elements(in_shape);
  const int64_t bytes = block * static_cast<int64_t>(kElemBytes);
  if (overlaps(in, out, bytes, bytes * g.size))
    fail(ErrorKind::kValue, "all_gather: the output buffer overlaps the input buffer");
  const int a = tiled ? normalize_axis(axis, static_cast<int>(in_shape.size()), "all_gather", "axis")
                      : normalize_axis(axis, static_cast<int>(in_shape.size()) + 1, "all_gather", "axis");
  // Both forms lay the output out as [pre, n, L]: the n blocks' rows of length
  // L = prod(in_shape[a:]) interleaved along the pre = prod(in_shape[:a]) rows.
  const int64_t pre = product(in_shape, 0, a), len = block / std::max<int64_t>(pre, 1);
  const uint64_t tag = Tag{}.add(in_shape).add(a).add(tiled).add(g.axes).h;
  exchange(device, g, "all_gather", kAllGather, tag, bytes, in, out, bytes * g.size, [&](const Peers& p, bool) {
    auto* dst = static_cast<uint32_t*>(out);
    if (block == 0) return;
    // Into a shared output each device writes its own block; otherwise each reads every block.
    const int first = p.shared_out ? p.me : 0, last = p.shared_out ? p.me + 1 : p.n;
    for (int q = first; q < last; ++q) {
      const auto* src = static_cast<const uint32_t*>(p.desc[q]->in);
      for (int64_t r = 0; r < pre; ++r)
        std::memcpy(dst + (r * p.n + q) * len, src + r * len, static_cast<size_t>(len) * 4);
    }
  });
}

void Communicator::reduce_scatter(int device, const AxisGroup& g, DType dtype, const void* in, void* out,
                                  const Shape& in_shape, int dim, bool tiled) {
  const Shape out_shape = reduce_scatter_shape(in_shape, g.size, dim, tiled);
  const int d = normalize_axis(dim, static_cast<int>(in_shape.size()), "psum_scatter", "scatter_dimension");
  const int64_t total = num_elements(in_shape);
  const int64_t bytes = total * static_cast<int64_t>(kElemBytes);
  if (overlaps(in, out, bytes, num_elements(out_shape) * 4))
    fail(ErrorKind::kValue, "psum_scatter: the output buffer overlaps the input buffer");
  // The input is [pre, n, L]; this device's result is the [pre, L] slab at its position.
  const int64_t pre = product(in_shape, 0, d);
  const int64_t len = in_shape[d] / g.size * product(in_shape, d + 1, in_shape.size());
  const uint64_t tag = Tag{}.add(in_shape).add(d).add(tiled).add(static_cast<int64_t>(dtype)).add(g.axes).h;
  auto run = [&](auto zero) {
    using T = decltype(zero);
    exchange(device, g, "psum_scatter", kReduceScatter, tag, bytes, in, out, bytes / g.size, [&](const Peers& p, bool) {
      auto* dst = static_cast<T*>(out);
      for (int64_t r = 0; r < pre; ++r)
        reduce_peers<T>(ReduceOp::kSum, dst + r * len, len, p.n, [&](int i) {
          return static_cast<const T*>(p.desc[p.by_device[i]]->in) + (r * p.n + p.me) * len;
        });
    });
  };
  if (dtype == DType::kFloat32) {
    run(0.0f);
  } else {
    run(int32_t{0});
  }
}

void Communicator::ppermute(int device, const AxisGroup& g, const void* in, void* out, int64_t count,
                            const Permutation& perm) {
  check_permutation(perm, g.size, g.label());
  const int64_t bytes = count * static_cast<int64_t>(kElemBytes);
  if (overlaps(in, out, bytes, bytes)) fail(ErrorKind::kValue, "ppermute: the output buffer overlaps the input buffer");
  Tag tag;
  tag.add(g.axes);
  for (auto [s, d] : perm) tag.add(s).add(d);
  exchange(device, g, "ppermute", kPpermute, tag.h, bytes, in, out, bytes, [&](const Peers& p, bool) {
    if (bytes == 0) return;  // nothing to move, and an empty array's pointers may be null (memcpy's must not)
    for (auto [s, d] : perm)
      if (d == p.me) {
        std::memcpy(out, p.desc[s]->in, static_cast<size_t>(bytes));
        return;
      }
    std::memset(out, 0, static_cast<size_t>(bytes));
  });
}

void Communicator::all_to_all(int device, const AxisGroup& g, const void* in, void* out, const Shape& in_shape,
                              int split_axis, int concat_axis, bool tiled) {
  const int rank = static_cast<int>(in_shape.size());
  const Shape out_shape = all_to_all_shape(in_shape, g.size, split_axis, concat_axis, tiled);
  const int s = normalize_axis(split_axis, rank, "all_to_all", "split_axis");
  const int c = normalize_axis(concat_axis, rank, "all_to_all", "concat_axis");
  const int64_t bytes = num_elements(in_shape) * static_cast<int64_t>(kElemBytes);
  if (overlaps(in, out, bytes, bytes))
    fail(ErrorKind::kValue, "all_to_all: the output buffer overlaps the input buffer");
  const auto in_strides = strides_of(in_shape), out_strides = strides_of(out_shape);
  // The chunk a peer sends and where it lands, as views over the same extent.
  std::vector<int64_t> extent;
  StridedView src, dst;
  int64_t src_step, dst_step;  // offset per position along split (source) / concat (destination)
  if (tiled) {
    extent = in_shape;
    extent[s] /= g.size;
    src.strides = in_strides;
    dst.strides = out_strides;
    src_step = extent[s] * in_strides[s];
    dst_step = extent[c] * out_strides[c];
  } else {
    for (int k = 0; k < rank; ++k)
      if (k != s) {
        extent.push_back(in_shape[k]);
        src.strides.push_back(in_strides[k]);
      }
    for (int k = 0; k < rank; ++k)
      if (k != c) dst.strides.push_back(out_strides[k]);
    src_step = in_strides[s];
    dst_step = out_strides[c];
  }
  const uint64_t tag = Tag{}.add(in_shape).add(s).add(c).add(tiled).add(g.axes).h;
  exchange(device, g, "all_to_all", kAllToAll, tag, bytes, in, out, bytes, [&](const Peers& p, bool) {
    for (int q = 0; q < p.n; ++q) {
      StridedView sv = src, dv = dst;
      sv.offset = p.me * src_step;
      dv.offset = q * dst_step;
      strided_copy(extent, p.desc[q]->in, sv, out, dv);
    }
  });
}

}  // namespace shardlab
