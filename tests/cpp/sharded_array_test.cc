// ShardedArray: put splits by spec (replicating along unmentioned axes), get
// assembles and checks replicas; spec errors name the dimension and axes.
#include "runtime/sharded_array.h"

#include <gtest/gtest.h>

#include <numeric>

#include "runtime/errors.h"
#include "test_util.h"

namespace shardlab {
namespace {

using testing::make_mesh;

std::vector<float> iota(size_t n) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), 0.0f);
  return v;
}

const float* block_f(const ShardedArray& a, int d) { return static_cast<const float*>(a.block(d)); }

TEST(ShardedArray, SplitRowsOverOneAxis) {
  auto mesh = make_mesh({8}, {"data"});
  const auto host = iota(16 * 3);
  auto a = ShardedArray::put(mesh, DType::kFloat32, {16, 3}, PartitionSpec{{{"data"}}}, host.data());
  EXPECT_EQ(a.block_shape(), (Shape{2, 3}));
  for (int d = 0; d < 8; ++d)
    for (int i = 0; i < 6; ++i) EXPECT_EQ(block_f(a, d)[i], host[d * 6 + i]);
  std::vector<float> back(host.size());
  a.get(back.data(), true);
  EXPECT_EQ(back, host);
}

TEST(ShardedArray, ColumnsOverModelReplicatedOverData) {
  auto mesh = make_mesh({2, 4}, {"data", "model"});
  const auto host = iota(3 * 8);
  auto a = ShardedArray::put(mesh, DType::kFloat32, {3, 8}, PartitionSpec{{{}, {"model"}}}, host.data());
  EXPECT_EQ(a.block_shape(), (Shape{3, 2}));
  for (int d = 0; d < 8; ++d) {
    const int col0 = (d % 4) * 2;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 2; ++c) EXPECT_EQ(block_f(a, d)[r * 2 + c], host[r * 8 + col0 + c]) << d;
  }
  std::vector<float> back(host.size());
  a.get(back.data(), true);
  EXPECT_EQ(back, host);
}

TEST(ShardedArray, SeveralAxesOnOneDimensionMajorFirst) {
  auto mesh = make_mesh({2, 4}, {"data", "model"});
  const auto host = iota(8 * 2);
  for (auto order : std::vector<std::vector<std::string>>{{"data", "model"}, {"model", "data"}}) {
    auto a = ShardedArray::put(mesh, DType::kFloat32, {8, 2}, PartitionSpec{{order}}, host.data());
    EXPECT_EQ(a.block_shape(), (Shape{1, 2}));
    const AxisGroup g = mesh->axis_group(order, "t");
    for (int d = 0; d < 8; ++d) EXPECT_EQ(block_f(a, d)[0], host[mesh->position(d, g) * 2]);
    std::vector<float> back(host.size());
    a.get(back.data(), true);
    EXPECT_EQ(back, host);
  }
}

TEST(ShardedArray, TwoDimensionsTwoAxesAndInt32) {
  auto mesh = make_mesh({4, 2}, {"x", "y"});
  std::vector<int32_t> host(8 * 6);
  std::iota(host.begin(), host.end(), -20);
  auto a = ShardedArray::put(mesh, DType::kInt32, {8, 6}, PartitionSpec{{{"x"}, {"y"}}}, host.data());
  EXPECT_EQ(a.block_shape(), (Shape{2, 3}));
  std::vector<int32_t> back(host.size());
  a.get(back.data(), true);
  EXPECT_EQ(back, host);
}

TEST(ShardedArray, ScalarsAndEmptyArrays) {
  auto mesh = make_mesh({8}, {"data"});
  const float x = 2.5f;
  auto s = ShardedArray::put(mesh, DType::kFloat32, {}, PartitionSpec{}, &x);
  float y = 0;
  s.get(&y, true);
  EXPECT_EQ(y, 2.5f);
  auto e = ShardedArray::put(mesh, DType::kFloat32, {0, 3}, PartitionSpec{{{"data"}}}, nullptr);
  EXPECT_EQ(e.block_shape(), (Shape{0, 3}));
  e.get(nullptr, true);
}

TEST(ShardedArray, ReplicasShareStorageUnlessAskedNotTo) {
  auto mesh = make_mesh({2, 4}, {"data", "model"});
  const auto host = iota(8);
  auto a = ShardedArray::put(mesh, DType::kFloat32, {8}, PartitionSpec{{{"model"}}}, host.data());
  EXPECT_TRUE(a.shares_block(1, 5));   // same column of the mesh: the same block
  EXPECT_FALSE(a.shares_block(1, 2));  // different blocks
  // Sharing only along 'model': devices 1 and 5 hold the same block but differ along 'data'.
  ShardedArray per_row(mesh, DType::kFloat32, {8}, PartitionSpec{{{"model"}}}, /*share_mask=*/0b10);
  EXPECT_FALSE(per_row.shares_block(1, 5));
  ShardedArray separate(mesh, DType::kFloat32, {8}, PartitionSpec{}, /*share_mask=*/0);
  for (int d = 1; d < 8; ++d) EXPECT_FALSE(separate.shares_block(0, d));
  ShardedArray rows(mesh, DType::kFloat32, {8}, PartitionSpec{}, /*share_mask=*/0b10);  // share along 'model' only
  EXPECT_TRUE(rows.shares_block(0, 3));
  EXPECT_FALSE(rows.shares_block(0, 4));
}

TEST(ShardedArray, ReplicaCheckFindsDifferingBlocks) {
  auto mesh = make_mesh({8}, {"data"});
  const auto host = iota(4);
  ShardedArray a(mesh, DType::kFloat32, {4}, PartitionSpec{}, /*share_mask=*/0);
  for (int d = 0; d < 8; ++d) std::copy(host.begin(), host.end(), static_cast<float*>(a.block(d)));
  static_cast<float*>(a.block(5))[2] = 99.0f;
  std::vector<float> back(4);
  a.get(back.data(), false);  // unchecked: device 0's replica wins
  EXPECT_EQ(back, host);
  try {
    a.get(back.data(), true);
    FAIL() << "expected a ShardingError";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kSharding);
    const std::string m = e.what();
    EXPECT_NE(m.find("devices 0 and 5"), std::string::npos) << m;
    EXPECT_NE(m.find("element 2"), std::string::npos) << m;
    EXPECT_NE(m.find("2 vs 99"), std::string::npos) << m;
  }
}

std::string put_error(std::shared_ptr<const Mesh> mesh, Shape shape, PartitionSpec spec) {
  std::vector<float> host(num_elements(shape));
  return testing::error_message([&] { ShardedArray::put(mesh, DType::kFloat32, shape, spec, host.data()); });
}

TEST(ShardedArray, SpecErrors) {
  auto mesh = make_mesh({2, 4}, {"data", "model"});
  const std::string indivisible = put_error(mesh, {6, 2}, PartitionSpec{{{"model"}}});
  EXPECT_NE(indivisible.find("dimension 0 of shape [6,2] has size 6, which is not divisible by 4"), std::string::npos)
      << indivisible;
  EXPECT_NE(indivisible.find("'model'"), std::string::npos) << indivisible;
  const std::string unknown = put_error(mesh, {8}, PartitionSpec{{{"batch"}}});
  EXPECT_NE(unknown.find("unknown axis name 'batch'"), std::string::npos) << unknown;
  const std::string twice = put_error(mesh, {8, 8}, PartitionSpec{{{"data"}, {"data"}}});
  EXPECT_NE(twice.find("'data' is used more than once in P('data', 'data')"), std::string::npos) << twice;
  const std::string too_long = put_error(mesh, {8}, PartitionSpec{{{"data"}, {}}});
  EXPECT_NE(too_long.find("has 2 entries but the array has rank 1"), std::string::npos) << too_long;
}

TEST(PartitionSpec, Printing) {
  EXPECT_EQ((PartitionSpec{}).str(), "P()");
  EXPECT_EQ((PartitionSpec{{{"data"}, {}}}).str(), "P('data', None)");
  EXPECT_EQ((PartitionSpec{{{"data", "model"}}}).str(), "P(('data', 'model'),)");
}

}  // namespace
}  // namespace shardlab
