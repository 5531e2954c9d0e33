// The Communicator's exchange (see communicator.h), for the collectives'
// family files only: the descriptors devices publish, the meeting at the
// group's barrier, the check that every peer runs the same collective, and
// the helpers the threaded algorithms share.
#pragma once

#include <algorithm>
#include <array>
#include <cstring>

#include "runtime/collectives/communicator.h"
#include "runtime/errors.h"

namespace shardlab {

namespace collectives_detail {

/// FNV-1a over what must agree between peers: the collective's name and its parameters.
struct Tag {
  uint64_t h = 1469598103934665603ull;
  /// Mixes in an integer.
  Tag& add(int64_t v) {
    for (int i = 0; i < 8; ++i) h = (h ^ ((static_cast<uint64_t>(v) >> (8 * i)) & 0xff)) * 1099511628211ull;
    return *this;
  }
  /// Mixes in a name.
  Tag& add(const char* s) {
    for (; *s; ++s) h = (h ^ static_cast<unsigned char>(*s)) * 1099511628211ull;
    return *this;
  }
  /// Mixes in a list of integers.
  template <class Ints>
  Tag& add_all(const Ints& v) {
    add(static_cast<int64_t>(v.size()));
    for (int64_t x : v) add(x);
    return *this;
  }
};

/// Whether byte ranges [a, a + a_bytes) and [b, b + b_bytes) intersect.
inline bool overlaps(const void* a, const void* b, int64_t a_bytes, int64_t b_bytes) {
  const auto* pa = static_cast<const char*>(a);
  const auto* pb = static_cast<const char*>(b);
  return a_bytes > 0 && b_bytes > 0 && pa < pb + b_bytes && pb < pa + a_bytes;
}

/// s[from] * ... * s[to - 1].
inline int64_t product(const Shape& s, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to; ++i) p *= s[i];
  return p;
}

/// Reduces `len` elements of every peer's input (src_of(i) points at the first
/// of them for the i-th peer in ascending device order) into dst.
template <class T, class Src>
void reduce_peers(ReduceOp op, T* dst, int64_t len, int n, Src src_of) {
  std::array<const T*, kMaxDevices> srcs;
  for (int i = 0; i < n; ++i) srcs[i] = src_of(i);
  reduce_arrays(op, dst, srcs.data(), n, len);
}

}  // namespace collectives_detail

/// What a device publishes for one exchange.
struct Communicator::Desc {
  const char* what = "";  // the collective's name, for messages
  uint64_t tag = 0;       // the name and the parameters peers must agree on
  int64_t bytes = 0;
  const void* in = nullptr;
  void* out = nullptr;
};

/// One device's exchanges over one group (an axis subset): double-buffered.
struct alignas(64) Communicator::MaskState {
  Desc slot[2];
  uint32_t seq = 0;
  unsigned char* staging[2] = {nullptr, nullptr};
};

/// One device's state.
struct Communicator::DeviceState {
  std::vector<MaskState> masks;
  std::unique_ptr<Buffer> staging;
  std::vector<uint32_t> packed;  // all_reduce_many's operands, kept between calls
};

/// The peers of one exchange: descriptors by position along the group's axes,
/// and the order in which reductions visit them (ascending device number).
struct Communicator::Peers {
  int n = 0;
  int me = 0;
  bool shared_out = false;  // every peer writes to the same output buffer (a replicated result)
  std::array<const Desc*, kMaxDevices> desc{};
  std::array<int, kMaxDevices> device{};
  std::array<int, kMaxDevices> by_device{};
};

template <class Body>
void Communicator::exchange(int device, const AxisGroup& g, const char* what, uint64_t tag, int64_t bytes,
                            const void* in, void* out, int64_t out_bytes, bool may_share_out, Body&& body) {
  tag = collectives_detail::Tag{tag}.add(what).h;
  MaskState& ms = devices_[device]->masks[g.mask];
  const uint32_t parity = ms.seq++ & 1;
  const bool small = staged(bytes);
  if (small && bytes > 0) {
    std::memcpy(ms.staging[parity], in, static_cast<size_t>(bytes));
    in = ms.staging[parity];
  }
  ms.slot[parity] = Desc{what, tag, bytes, in, out};
  Barrier& b = barrier(g.mask, device);
  b.arrive_and_wait(device, what);

  Peers peers;
  peers.n = g.size;
  peers.me = mesh_->position(device, g);
  for (int p = 0; p < g.size; ++p) {
    const int m = mesh_->member(device, g, p);
    const Desc& d = devices_[m]->masks[g.mask].slot[parity];
    if (d.tag != tag || d.bytes != bytes)
      fail(ErrorKind::kDevice, what, " over ", g.label(), " on device ", device, " (", bytes, " bytes): device ", m,
           " runs ", d.what, " with ", d.bytes,
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
  if (same != 0 && (!peers.shared_out || !may_share_out))
    fail(ErrorKind::kValue, what, " over ", g.label(), " on device ", device,
         ": the output buffers of some peers alias each other; outputs must be distinct, or (psum-like and "
         "all_gather results only) one buffer shared by the whole group");
  body(peers, small);
  if (!small || peers.shared_out) b.arrive_and_wait(device, what);
}

}  // namespace shardlab
