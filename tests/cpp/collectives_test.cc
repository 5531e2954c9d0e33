// Every collective over every axis subset of 1-D and 2-D meshes and over 1, 2,
// 4 and 8 devices, with sizes 0, 1, odd and large, against serial references
// computed here from the definitions in jax.lax (multi-index arithmetic, not
// the runtime's own block arithmetic). Reductions must match bitwise a serial
// float32 loop in ascending device order.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>

#include "runtime/collectives/communicator.h"
#include "runtime/errors.h"
#include "test_util.h"

namespace shardlab {
namespace {

using testing::make_mesh;
using testing::pool;
using testing::random_floats;
using testing::run_collective;
using testing::ravel;
using testing::unravel;

struct MeshCase {
  std::vector<int> shape;
  std::vector<std::string> names;
};

const std::vector<MeshCase>& mesh_cases() {
  static const std::vector<MeshCase> cases = {
      {{8}, {"data"}},      {{1}, {"x"}},         {{2}, {"x"}},         {{4}, {"x"}}, {{2, 4}, {"data", "model"}},
      {{4, 2}, {"a", "b"}}, {{1, 8}, {"a", "b"}}, {{8, 1}, {"a", "b"}},
  };
  return cases;
}

// Every non-empty axis subset, each in every order for two axes.
std::vector<std::vector<std::string>> axis_lists(const MeshCase& m) {
  if (m.names.size() == 1) return {{m.names[0]}};
  return {{m.names[0]}, {m.names[1]}, {m.names[0], m.names[1]}, {m.names[1], m.names[0]}};
}

std::string describe(const MeshCase& m, const std::vector<std::string>& axes) {
  std::string s = "mesh ";
  for (size_t i = 0; i < m.shape.size(); ++i) s += (i ? "x" : "") + std::to_string(m.shape[i]);
  s += " axes";
  for (auto& a : axes) s += " " + a;
  return s;
}

using Blocks = std::vector<std::vector<float>>;

// Runs body(d) on every device of the mesh with `comm` and expects success.
void run_devices(const Mesh& mesh, Communicator& comm, const std::function<void(int)>& body) {
  const JobResult r = pool().run(mesh.size(), body, &comm);
  ASSERT_TRUE(r.ok) << r.message;
}

Blocks random_blocks(int devices, int64_t n, uint32_t seed) {
  Blocks b;
  for (int d = 0; d < devices; ++d) b.push_back(random_floats(static_cast<size_t>(n), seed * 101 + d));
  return b;
}

// The group members of d, in position order.
std::vector<int> members(const Mesh& mesh, const AxisGroup& g, int d) {
  std::vector<int> m;
  for (int p = 0; p < g.size; ++p) m.push_back(mesh.member(d, g, p));
  return m;
}

float serial_reduce(ReduceOp op, const std::vector<float>& values) {
  float acc = values[0];
  for (size_t i = 1; i < values.size(); ++i) {
    const float v = values[i];
    if (op == ReduceOp::kMax)
      acc = std::isnan(acc) || std::isnan(v) ? NAN : std::max(acc, v);
    else if (op == ReduceOp::kMin)
      acc = std::isnan(acc) || std::isnan(v) ? NAN : std::min(acc, v);
    else
      acc = acc + v;
  }
  return acc;
}

// How a collective's outputs are laid out: one buffer per device, the input
// buffers themselves, or one buffer shared by each group (a replicated result).
enum class Out { kPrivate, kInPlace, kSharedPerGroup };

// Output pointers per device; shared ones point into `group_bufs`.
std::vector<float*> output_ptrs(const Mesh& mesh, const AxisGroup& g, Out mode, Blocks& out, Blocks& group_bufs) {
  std::vector<float*> ptrs(mesh.size());
  group_bufs.assign(mesh.size(), std::vector<float>(out[0].size(), -7.0f));
  for (int d = 0; d < mesh.size(); ++d)
    ptrs[d] = mode == Out::kSharedPerGroup ? group_bufs[mesh.group_number(d, g.mask)].data() : out[d].data();
  return ptrs;
}

void check_all_reduce(const MeshCase& mc, const std::vector<std::string>& axes, ReduceOp op, int64_t n, Out mode) {
  auto mesh = make_mesh(mc.shape, mc.names);
  Communicator comm(mesh);
  const AxisGroup g = mesh->axis_group(axes, "psum");
  const Blocks in = random_blocks(mesh->size(), n, static_cast<uint32_t>(n + 7));
  Blocks out = in, group_bufs;
  if (mode != Out::kInPlace)
    for (auto& b : out) std::fill(b.begin(), b.end(), -7.0f);
  const auto outs = output_ptrs(*mesh, g, mode, out, group_bufs);
  run_devices(*mesh, comm, [&](int d) {
    comm.all_reduce(d, g, op, DType::kFloat32, mode == Out::kInPlace ? outs[d] : in[d].data(), outs[d], n);
  });
  for (int d = 0; d < mesh->size(); ++d) {
    auto ms = members(*mesh, g, d);
    std::sort(ms.begin(), ms.end());  // reduction order: ascending device number
    for (int64_t i = 0; i < n; ++i) {
      std::vector<float> vals;
      for (int m : ms) vals.push_back(in[m][i]);
      const float want = serial_reduce(op, vals);
      ASSERT_EQ(std::memcmp(&want, &outs[d][i], 4), 0)
          << reduce_op_name(op) << " " << describe(mc, axes) << " n=" << n << " out mode " << static_cast<int>(mode)
          << " device " << d << " element " << i << ": " << outs[d][i] << " vs " << want;
    }
  }
}

TEST(Collectives, AllReduceEveryMeshAxisSubsetAndSize) {
  for (const auto& mc : mesh_cases())
    for (const auto& axes : axis_lists(mc))
      for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kMax, ReduceOp::kMin})
        for (int64_t n : {0, 1, 37, 5000})
          for (Out mode : {Out::kPrivate, Out::kInPlace, Out::kSharedPerGroup}) check_all_reduce(mc, axes, op, n, mode);
}

TEST(Collectives, AllReduceLarge) {
  // 2^20 floats per device: the slice-parallel path, in place and not.
  check_all_reduce({{8}, {"data"}}, {"data"}, ReduceOp::kSum, 1 << 20, Out::kInPlace);
  check_all_reduce({{8}, {"data"}}, {"data"}, ReduceOp::kSum, 1 << 20, Out::kSharedPerGroup);
  check_all_reduce({{8}, {"data"}}, {"data"}, ReduceOp::kMax, 1 << 20, Out::kPrivate);
  check_all_reduce({{2, 4}, {"data", "model"}}, {"model"}, ReduceOp::kSum, 1 << 20, Out::kPrivate);
  check_all_reduce({{2, 4}, {"data", "model"}}, {"model"}, ReduceOp::kSum, (1 << 20) + 5, Out::kSharedPerGroup);
  check_all_reduce({{2, 4}, {"data", "model"}}, {"model", "data"}, ReduceOp::kSum, (1 << 20) + 3, Out::kInPlace);
  check_all_reduce({{4}, {"x"}}, {"x"}, ReduceOp::kMin, (1 << 18) + 1, Out::kPrivate);
}

TEST(Collectives, AllReduceInt32WrapsAndNaNPropagates) {
  auto mesh = make_mesh({8}, {"data"});
  Communicator comm(mesh);
  const AxisGroup g = mesh->axis_group({"data"}, "psum");
  std::vector<int32_t> in(8), out(8);
  for (int d = 0; d < 8; ++d) in[d] = d == 0 ? INT32_MAX : d;
  run_devices(*mesh, comm, [&](int d) { comm.all_reduce(d, g, ReduceOp::kSum, DType::kInt32, &in[d], &out[d], 1); });
  for (int d = 0; d < 8; ++d) EXPECT_EQ(out[d], static_cast<int32_t>(uint32_t{INT32_MAX} + 28u));
  run_devices(*mesh, comm, [&](int d) { comm.all_reduce(d, g, ReduceOp::kMin, DType::kInt32, &in[d], &out[d], 1); });
  for (int d = 0; d < 8; ++d) EXPECT_EQ(out[d], 1);
  std::vector<float> f(8, 1.0f), fo(8);
  f[3] = NAN;
  run_devices(*mesh, comm, [&](int d) { comm.all_reduce(d, g, ReduceOp::kMax, DType::kFloat32, &f[d], &fo[d], 1); });
  for (int d = 0; d < 8; ++d) EXPECT_TRUE(std::isnan(fo[d]));
}

// Reference all_gather: out[o] = in_p[o without the gathered position].
void check_all_gather(const MeshCase& mc, const std::vector<std::string>& axes, const Shape& shape, int axis,
                      bool tiled, Out mode = Out::kPrivate) {
  auto mesh = make_mesh(mc.shape, mc.names);
  Communicator comm(mesh);
  const AxisGroup g = mesh->axis_group(axes, "all_gather");
  const Shape out_shape = all_gather_shape(shape, g.size, axis, tiled);
  const int rank = static_cast<int>(shape.size());
  const int a = axis < 0 ? axis + (tiled ? rank : rank + 1) : axis;
  const Blocks in = random_blocks(mesh->size(), num_elements(shape), 3);
  Blocks out(mesh->size(), std::vector<float>(num_elements(out_shape))), group_bufs;
  const auto outs = output_ptrs(*mesh, g, mode, out, group_bufs);
  run_devices(*mesh, comm, [&](int d) { comm.all_gather(d, g, in[d].data(), outs[d], shape, axis, tiled); });
  for (int d = 0; d < mesh->size(); ++d) {
    const auto ms = members(*mesh, g, d);
    for (int64_t o = 0; o < num_elements(out_shape); ++o) {
      auto idx = unravel(o, out_shape);
      int p;
      if (tiled) {
        p = static_cast<int>(idx[a] / shape[a]);
        idx[a] %= shape[a];
      } else {
        p = static_cast<int>(idx[a]);
        idx.erase(idx.begin() + a);
      }
      ASSERT_EQ(outs[d][o], in[ms[p]][ravel(idx, shape)])
          << "all_gather " << describe(mc, axes) << " shape " << shape_str(shape) << " axis " << axis << " tiled "
          << tiled << " device " << d << " element " << o;
    }
  }
}

TEST(Collectives, AllGather) {
  for (const auto& mc : mesh_cases())
    for (const auto& axes : axis_lists(mc)) {
      for (bool tiled : {false, true}) {
        check_all_gather(mc, axes, {3, 5, 2}, 0, tiled);
        check_all_gather(mc, axes, {3, 5, 2}, 1, tiled);
        check_all_gather(mc, axes, {3, 5, 2}, -1, tiled);
        check_all_gather(mc, axes, {0, 4}, 1, tiled);
        check_all_gather(mc, axes, {1}, 0, tiled);
        check_all_gather(mc, axes, {37}, 0, tiled);
        check_all_gather(mc, axes, {3, 5, 2}, 1, tiled, Out::kSharedPerGroup);
      }
      check_all_gather(mc, axes, {3, 5, 2}, 3, false);  // a new trailing axis
      check_all_gather(mc, axes, {}, 0, false);         // scalars stack into a vector
    }
  check_all_gather({{8}, {"data"}}, {"data"}, {1 << 17}, 0, true);
  check_all_gather({{8}, {"data"}}, {"data"}, {1 << 17}, 0, true, Out::kSharedPerGroup);
  check_all_gather({{2, 4}, {"data", "model"}}, {"model", "data"}, {256, 512}, 1, true);
}

// Reference psum_scatter: out[o] = sum over peers (device order) of in_p at
// o with this device's position put back into the scattered dimension.
void check_reduce_scatter(const MeshCase& mc, const std::vector<std::string>& axes, const Shape& shape, int dim,
                          bool tiled) {
  auto mesh = make_mesh(mc.shape, mc.names);
  Communicator comm(mesh);
  const AxisGroup g = mesh->axis_group(axes, "psum_scatter");
  const Shape out_shape = reduce_scatter_shape(shape, g.size, dim, tiled);
  const int dd = dim < 0 ? dim + static_cast<int>(shape.size()) : dim;
  const Blocks in = random_blocks(mesh->size(), num_elements(shape), 5);
  Blocks out(mesh->size(), std::vector<float>(num_elements(out_shape)));
  run_devices(*mesh, comm, [&](int d) {
    comm.reduce_scatter(d, g, DType::kFloat32, in[d].data(), out[d].data(), shape, dim, tiled);
  });
  for (int d = 0; d < mesh->size(); ++d) {
    auto ms = members(*mesh, g, d);
    std::sort(ms.begin(), ms.end());
    const int me = mesh->position(d, g);
    for (int64_t o = 0; o < num_elements(out_shape); ++o) {
      auto idx = unravel(o, out_shape);
      if (tiled)
        idx[dd] += me * out_shape[dd];
      else
        idx.insert(idx.begin() + dd, me);
      std::vector<float> vals;
      for (int m : ms) vals.push_back(in[m][ravel(idx, shape)]);
      const float want = serial_reduce(ReduceOp::kSum, vals);
      ASSERT_EQ(std::memcmp(&want, &out[d][o], 4), 0)
          << "psum_scatter " << describe(mc, axes) << " shape " << shape_str(shape) << " dim " << dim << " device " << d
          << " element " << o;
    }
  }
}

TEST(Collectives, PsumScatter) {
  for (const auto& mc : mesh_cases())
    for (const auto& axes : axis_lists(mc)) {
      const int size = make_mesh(mc.shape, mc.names)->axis_group(axes, "t").size;
      check_reduce_scatter(mc, axes, {size * 3, 2}, 0, true);
      check_reduce_scatter(mc, axes, {2, size, 3}, 1, false);
      check_reduce_scatter(mc, axes, {3, size * 5}, -1, true);
      check_reduce_scatter(mc, axes, {size}, 0, false);
      check_reduce_scatter(mc, axes, {0, size}, 1, true);
    }
  check_reduce_scatter({{8}, {"data"}}, {"data"}, {1 << 20}, 0, true);
  check_reduce_scatter({{2, 4}, {"data", "model"}}, {"model"}, {64, 4, 1024}, 1, false);
}

void check_ppermute(const MeshCase& mc, const std::vector<std::string>& axes, const Permutation& perm, int64_t n) {
  auto mesh = make_mesh(mc.shape, mc.names);
  Communicator comm(mesh);
  const AxisGroup g = mesh->axis_group(axes, "ppermute");
  const Blocks in = random_blocks(mesh->size(), n, 9);
  Blocks out(mesh->size(), std::vector<float>(n, 123.0f));
  run_devices(*mesh, comm, [&](int d) { comm.ppermute(d, g, in[d].data(), out[d].data(), n, perm); });
  for (int d = 0; d < mesh->size(); ++d) {
    const int me = mesh->position(d, g);
    int src = -1;
    for (auto [s, t] : perm)
      if (t == me) src = s;
    for (int64_t i = 0; i < n; ++i) {
      const float want = src < 0 ? 0.0f : in[mesh->member(d, g, src)][i];
      ASSERT_EQ(out[d][i], want) << "ppermute " << describe(mc, axes) << " device " << d << " element " << i;
    }
  }
}

TEST(Collectives, Ppermute) {
  for (const auto& mc : mesh_cases())
    for (const auto& axes : axis_lists(mc)) {
      const int size = make_mesh(mc.shape, mc.names)->axis_group(axes, "t").size;
      Permutation ring, reverse, partial;
      for (int i = 0; i < size; ++i) ring.push_back({i, (i + 1) % size});
      for (int i = 0; i < size; ++i) reverse.push_back({i, size - 1 - i});
      for (int i = 0; i + 1 < size; i += 2) partial.push_back({i, i + 1});  // odd positions receive, even get zeros
      for (int64_t n : {0, 1, 37, 20000}) {
        check_ppermute(mc, axes, ring, n);
        check_ppermute(mc, axes, reverse, n);
        check_ppermute(mc, axes, partial, n);
        check_ppermute(mc, axes, {}, n);
      }
    }
}

// Reference all_to_all from the definition: the piece of out at source
// position q along concat_axis is chunk `me` of peer q's input along split_axis.
void check_all_to_all(const MeshCase& mc, const std::vector<std::string>& axes, const Shape& shape, int split,
                      int concat, bool tiled) {
  auto mesh = make_mesh(mc.shape, mc.names);
  Communicator comm(mesh);
  const AxisGroup g = mesh->axis_group(axes, "all_to_all");
  const Shape out_shape = all_to_all_shape(shape, g.size, split, concat, tiled);
  const Blocks in = random_blocks(mesh->size(), num_elements(shape), 11);
  Blocks out(mesh->size(), std::vector<float>(num_elements(out_shape)));
  run_devices(*mesh, comm,
              [&](int d) { comm.all_to_all(d, g, in[d].data(), out[d].data(), shape, split, concat, tiled); });
  for (int d = 0; d < mesh->size(); ++d) {
    const auto ms = members(*mesh, g, d);
    const int me = mesh->position(d, g);
    for (int64_t o = 0; o < num_elements(out_shape); ++o) {
      auto idx = unravel(o, out_shape);
      int q;
      if (tiled) {
        const int64_t chunk_c = (split == concat ? shape[concat] / g.size : shape[concat]);
        q = static_cast<int>(idx[concat] / chunk_c);
        idx[concat] %= chunk_c;
        idx[split] += me * (shape[split] / g.size);
      } else {
        q = static_cast<int>(idx[concat]);
        idx.erase(idx.begin() + concat);
        idx.insert(idx.begin() + split, me);
      }
      ASSERT_EQ(out[d][o], in[ms[q]][ravel(idx, shape)])
          << "all_to_all " << describe(mc, axes) << " shape " << shape_str(shape) << " split " << split << " concat "
          << concat << " tiled " << tiled << " device " << d << " element " << o;
    }
  }
}

TEST(Collectives, AllToAll) {
  for (const auto& mc : mesh_cases())
    for (const auto& axes : axis_lists(mc)) {
      const int n = make_mesh(mc.shape, mc.names)->axis_group(axes, "t").size;
      check_all_to_all(mc, axes, {n * 2, 3}, 0, 1, true);
      check_all_to_all(mc, axes, {3, n * 2}, 1, 0, true);
      check_all_to_all(mc, axes, {n * 3, 2}, 0, 0, true);
      check_all_to_all(mc, axes, {2, n, 3}, 1, 0, false);
      check_all_to_all(mc, axes, {n, 5}, 0, 1, false);
      check_all_to_all(mc, axes, {4, n}, 1, 1, false);
      check_all_to_all(mc, axes, {n, 0}, 0, 1, true);
    }
  check_all_to_all({{8}, {"data"}}, {"data"}, {1 << 17}, 0, 0, true);
  check_all_to_all({{2, 4}, {"data", "model"}}, {"data", "model"}, {64, 8, 256}, 1, 2, true);
}

TEST(Collectives, ShapeErrors) {
  EXPECT_NE(testing::error_message([] {
              all_gather_shape({3}, 8, 2, false);
            }).find("all_gather: axis=2 is out of range for rank 2"),
            std::string::npos);
  EXPECT_NE(testing::error_message([] {
              reduce_scatter_shape({12}, 8, 0, true);
            }).find("has size 12, which is not divisible by the axis size 8"),
            std::string::npos);
  EXPECT_NE(testing::error_message([] {
              reduce_scatter_shape({4, 2}, 8, 0, false);
            }).find("must equal the axis size 8, got 4"),
            std::string::npos);
  EXPECT_NE(testing::error_message([] {
              all_to_all_shape({6, 2}, 4, 0, 1, true);
            }).find("not divisible by the axis size 4"),
            std::string::npos);
  EXPECT_NE(testing::error_message([] {
              all_to_all_shape({6, 2}, 4, 0, 1, false);
            }).find("must equal the axis size 4, got 6"),
            std::string::npos);
  EXPECT_NE(testing::error_message([] { all_to_all_shape({4}, 4, 0, 3, true); }).find("concat_axis=3 is out of range"),
            std::string::npos);
}

TEST(Collectives, AliasedOutputsOfVaryingResultsAreRejected) {
  auto mesh = make_mesh({8}, {"data"});
  Communicator comm(mesh);
  const AxisGroup g = mesh->axis_group({"data"}, "ppermute");
  std::vector<float> in(8, 1.0f), shared(1);
  const JobResult r = pool().run(
      8,
      [&](int d) {
        comm.ppermute(d, g, &in[d], shared.data(), 1, {{0, 1}});
      },
      &comm);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.message.find("output buffers of some peers alias"), std::string::npos) << r.message;
}

TEST(Collectives, DeterministicOverRepeats) {
  auto mesh = make_mesh({8}, {"data"});
  Communicator comm(mesh);
  const AxisGroup g = mesh->axis_group({"data"}, "psum");
  for (int64_t n : {int64_t{33}, int64_t{1} << 20}) {
    const Blocks in = random_blocks(8, n, 17);
    Blocks first(8, std::vector<float>(n));
    for (int rep = 0; rep < 100; ++rep) {
      Blocks out(8, std::vector<float>(n));
      run_devices(*mesh, comm, [&](int d) {
        comm.all_reduce(d, g, ReduceOp::kSum, DType::kFloat32, in[d].data(), out[d].data(), n);
      });
      if (rep == 0) first = out;
      for (int d = 0; d < 8; ++d)
        ASSERT_EQ(std::memcmp(first[d].data(), out[d].data(), n * 4), 0) << "repeat " << rep << " device " << d;
    }
  }
}

// A single collective as the device runtime runs it (a one-collective
// shard_map program) over sharded arrays: x split over data, psum over data
// gives the replicated sum of the blocks; all_gather gives back x.
TEST(CollectiveProgram, ShardedArraysInAndOut) {
  auto mesh = make_mesh({2, 4}, {"data", "model"});
  Communicator comm(mesh);
  std::vector<float> host(8 * 3);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i);
  auto x = ShardedArray::put(mesh, DType::kFloat32, {8, 3}, PartitionSpec{{{"data", "model"}}}, host.data());
  using Names = std::vector<std::string>;
  auto s = run_collective(comm, x, "psum", {{"axis_name", Names{"data", "model"}}}, PartitionSpec{});
  EXPECT_EQ(s.shape(), (Shape{1, 3}));
  std::vector<float> sum(3);
  s.get(sum.data(), true);
  for (int c = 0; c < 3; ++c) {
    float want = 0;
    for (int r = 0; r < 8; ++r) want += host[r * 3 + c];
    EXPECT_EQ(sum[c], want);
  }
  // all_gather's result is typed varying along its axes, as in JAX (whose
  // check_vma would refuse P('data') here): each device keeps its copy, and
  // get() checks that the copies agree.
  auto y = run_collective(comm, x, "all_gather", {{"axis_name", Names{"model"}}, {"tiled", true}},
                          PartitionSpec{{{"data"}}}, /*check_vma=*/false);  // blocks of 4 rows per data index
  std::vector<float> back(host.size());
  y.get(back.data(), true);
  EXPECT_EQ(back, host);
  const ir::Params index{{"axis_name", Names{"model", "data"}}};
  auto i = run_collective(comm, x, "axis_index", index, PartitionSpec{{{"model", "data"}}});
  std::vector<int32_t> idx(8);
  i.get(idx.data(), true);
  for (int p = 0; p < 8; ++p) EXPECT_EQ(idx[p], p);
  // An out_spec that omits an axis the result varies along is an error, as
  // with jax.shard_map's check_vma; without the check, get() finds the
  // replicas disagree.
  try {
    run_collective(comm, x, "axis_index", index, PartitionSpec{});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(
        std::string(e.what()).find("axis_index: out_spec P() omits mesh axis 'data', along which the result varies"),
        std::string::npos)
        << e.what();
  }
  auto bad = run_collective(comm, x, "axis_index", index, PartitionSpec{}, /*check_vma=*/false);
  int32_t one = 0;
  EXPECT_THROW(bad.get(&one, true), Error);
  // psum over 'model' of x split over both axes still varies along 'data'.
  EXPECT_THROW(run_collective(comm, x, "psum", {{"axis_name", Names{"model"}}}, PartitionSpec{}), Error);
}

// Large replicated results are stored once per group, each member writing its share.
TEST(CollectiveProgram, ReplicatedResultsShareStorageWithinTheirGroup) {
  auto mesh = make_mesh({2, 4}, {"data", "model"});
  Communicator comm(mesh);
  const int64_t n = 1 << 14;  // floats per device block: 64 KiB, above the staging size
  std::vector<float> host(8 * n);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i % 1000) * 0.5f;
  auto x = ShardedArray::put(mesh, DType::kFloat32, {2, 4 * n}, PartitionSpec{{{"data"}, {"model"}}}, host.data());
  using Names = std::vector<std::string>;
  auto y = run_collective(comm, x, "psum", {{"axis_name", Names{"model"}}}, PartitionSpec{{{"data"}}});
  EXPECT_TRUE(y.shares_block(0, 3));
  EXPECT_TRUE(y.shares_block(4, 7));
  EXPECT_FALSE(y.shares_block(0, 4));
  std::vector<float> got(2 * n);
  y.get(got.data(), true);
  for (int r = 0; r < 2; ++r)
    for (int64_t i = 0; i < n; ++i) {
      float want = 0;
      for (int m = 0; m < 4; ++m) want += host[r * 4 * n + m * n + i];
      ASSERT_EQ(got[r * n + i], want) << r << " " << i;
    }
  auto small = ShardedArray::put(mesh, DType::kFloat32, {8}, PartitionSpec{{{"data", "model"}}}, host.data());
  // Small ones are one buffer, written by the first device holding it (the
  // others compute theirs in their frames, in the collective's one round).
  auto s = run_collective(comm, small, "psum", {{"axis_name", Names{"data", "model"}}}, PartitionSpec{});
  EXPECT_TRUE(s.shares_block(0, 1));
  float sum = 0;
  s.get(&sum, true);
  EXPECT_EQ(sum, 0.0f + 0.5f + 1.0f + 1.5f + 2.0f + 2.5f + 3.0f + 3.5f);
}

}  // namespace
}  // namespace shardlab
