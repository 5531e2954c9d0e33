#include "runtime/collective_shapes.h"

#include "runtime/errors.h"

namespace shardlab {

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

Shape all_to_all_shape(const Shape& in, int n, int split_axis, int concat_axis, bool tiled) {
  const int rank = static_cast<int>(in.size());
  if (rank == 0) fail(ErrorKind::kShape, "all_to_all: needs an array of rank >= 1, got a scalar");
  const int s = normalize_axis(split_axis, rank, "all_to_all", "split_axis");
  Shape out = in;
  if (tiled) {
    const int c = normalize_axis(concat_axis, rank, "all_to_all", "concat_axis");
    if (in[s] % n != 0)
      fail(ErrorKind::kShape, "all_to_all: split_axis ", s, " of shape ", shape_str(in), " has size ", in[s],
           ", which is not divisible by the axis size ", n);
    out[s] /= n;
    out[c] *= n;
    return out;
  }
  const int c = normalize_axis(concat_axis, rank, "all_to_all", "concat_axis");
  if (in[s] != n)
    fail(ErrorKind::kShape, "all_to_all: with tiled=false split_axis ", s, " of shape ", shape_str(in),
         " must equal the axis size ", n, ", got ", in[s], " (use tiled=true to split it into chunks)");
  out.erase(out.begin() + s);
  out.insert(out.begin() + c, n);
  return out;
}

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

}  // namespace shardlab
