// ppermute: its permutation check, the threaded algorithm and its serial counterpart.
#include "runtime/collectives/exchange.h"
#include "runtime/collectives/lockstep_collectives.h"

namespace shardlab {

using collectives_detail::overlaps;
using collectives_detail::Tag;

void check_permutation(const Permutation& perm, int n, const std::string& axes_label) {
  std::vector<int> src_seen(n, -1), dst_seen(n, -1);
  for (size_t i = 0; i < perm.size(); ++i) {
    const auto [s, d] = perm[i];
    if (s < 0 || s >= n || d < 0 || d >= n)
      fail(ErrorKind::kValue, "ppermute: pair (", s, ", ", d, ") is out of range; axis ", axes_label, " has size ", n,
           ", so indices must be in 0..", n - 1);
    if (src_seen[s] >= 0)
      fail(ErrorKind::kValue, "ppermute: source ", s, " appears twice in perm (pairs ", src_seen[s], " and ", i,
           "); each device may send at most once");
    if (dst_seen[d] >= 0)
      fail(ErrorKind::kValue, "ppermute: destination ", d, " appears twice in perm (pairs ", dst_seen[d], " and ", i,
           "); each device may receive at most once");
    src_seen[s] = static_cast<int>(i);
    dst_seen[d] = static_cast<int>(i);
  }
}

// A source's block is read by its destination (a device sending to itself
// copies locally; one that sends nothing moves nothing).
Traffic ppermute_traffic(int64_t count, DType dtype, int n, const Permutation& perm) {
  const int64_t bytes = element_bytes(dtype, count);
  Traffic t;
  t.algorithm = "each device copies the block of the peer that sends to it, " + exchange_path(lane_bytes(count), false);
  t.sent.assign(static_cast<size_t>(n), 0);
  t.computes = "each destination ends with its source's block (zeros where none sends)";
  for (const auto& [s, d] : perm) {
    if (s == d || s < 0 || s >= n) continue;
    t.sent[s] += bytes;
    t.links.emplace_back(s, d);
  }
  return t;
}

// Threaded: each device reads the input of the peer that sends to it.
void Communicator::ppermute(int device, const AxisGroup& g, const void* in, void* out, int64_t count,
                            const Permutation& perm) {
  check_permutation(perm, g.size, g.label());
  const int64_t bytes = count * static_cast<int64_t>(kElemBytes);
  if (overlaps(in, out, bytes, bytes)) fail(ErrorKind::kValue, "ppermute: the output buffer overlaps the input buffer");
  Tag tag;
  tag.add_all(g.axes);
  for (auto [s, d] : perm) tag.add(s).add(d);
  exchange(device, g, "ppermute", tag.h, bytes, in, out, bytes, false, [&](const Peers& p, bool) {
    if (bytes == 0) return;  // nothing to move, and an empty array's pointers may be null (memcpy's must not)
    for (auto [s, d] : perm)
      if (d == p.me) {
        std::memcpy(out, p.desc[s]->in, static_cast<size_t>(bytes));
        return;
      }
    std::memset(out, 0, static_cast<size_t>(bytes));
  });
}

// Serial: every device's output is its sender's input, or zeros.
void LockstepCollectives::ppermute(int device, const AxisGroup& g, const void* in, void* out, int64_t count,
                                   const Permutation& perm) {
  if (!record(device, in, out)) return;
  check_permutation(perm, g.size, g.label());
  const size_t bytes = static_cast<size_t>(count) * kElemBytes;
  if (bytes == 0) return;
  for (int d = 0; d < mesh_->size(); ++d) {
    std::memset(out_[d], 0, bytes);
    for (const auto& [src, dst] : perm)
      if (dst == mesh_->position(d, g)) std::memcpy(out_[d], in_[mesh_->member(d, g, src)], bytes);
  }
}

}  // namespace shardlab
