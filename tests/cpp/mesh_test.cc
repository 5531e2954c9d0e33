// Mesh: coordinates, groups and positions for 1-D and 2-D meshes, and errors.
#include "runtime/mesh.h"

#include <gtest/gtest.h>

#include "runtime/errors.h"
#include "test_util.h"

namespace shardlab {
namespace {

TEST(Mesh, OneDimensional) {
  Mesh m({8}, {"data"});
  EXPECT_EQ(m.size(), 8);
  const AxisGroup g = m.axis_group({"data"}, "test");
  EXPECT_EQ(g.size, 8);
  for (int d = 0; d < 8; ++d) {
    EXPECT_EQ(m.coord(d, 0), d);
    EXPECT_EQ(m.position(d, g), d);
    EXPECT_EQ(m.group_devices(d, g.mask), 0xffu);
  }
}

TEST(Mesh, TwoDimensionalRowMajor) {
  Mesh m({2, 4}, {"data", "model"});
  const AxisGroup model = m.axis_group({"model"}, "test");
  const AxisGroup data = m.axis_group({"data"}, "test");
  // device = data * 4 + model, as jax.make_mesh lays devices out.
  EXPECT_EQ(m.coord(6, 0), 1);
  EXPECT_EQ(m.coord(6, 1), 2);
  EXPECT_EQ(m.position(6, model), 2);
  EXPECT_EQ(m.position(6, data), 1);
  EXPECT_EQ(m.group_devices(6, model.mask), 0xf0u);
  EXPECT_EQ(m.group_devices(6, data.mask), (1u << 2) | (1u << 6));
  EXPECT_EQ(m.member(6, model, 0), 4);
  EXPECT_EQ(m.member(6, data, 0), 2);
  EXPECT_NE(m.group_number(1, model.mask), m.group_number(5, model.mask));
  EXPECT_EQ(m.group_number(1, data.mask), m.group_number(5, data.mask));
}

TEST(Mesh, MultiAxisPositionFollowsTheGivenOrder) {
  Mesh m({2, 4}, {"data", "model"});
  const AxisGroup dm = m.axis_group({"data", "model"}, "test");
  const AxisGroup md = m.axis_group({"model", "data"}, "test");
  EXPECT_EQ(dm.size, 8);
  for (int d = 0; d < 8; ++d) {
    EXPECT_EQ(m.position(d, dm), m.coord(d, 0) * 4 + m.coord(d, 1));
    EXPECT_EQ(m.position(d, md), m.coord(d, 1) * 2 + m.coord(d, 0));
    for (int p = 0; p < 8; ++p) {
      EXPECT_EQ(m.position(m.member(d, dm, p), dm), p);
      EXPECT_EQ(m.position(m.member(d, md, p), md), p);
    }
  }
  EXPECT_EQ(md.label(), "('model', 'data')");
}

TEST(Mesh, DegenerateAxes) {
  for (auto shape : std::vector<std::vector<int>>{{1, 8}, {8, 1}, {4, 2}}) {
    Mesh m(shape, {"a", "b"});
    EXPECT_EQ(m.size(), 8);
    const AxisGroup a = m.axis_group({"a"}, "t"), b = m.axis_group({"b"}, "t");
    for (int d = 0; d < 8; ++d) EXPECT_EQ(m.member(d, a, m.position(d, a)), d);
    EXPECT_EQ(a.size * b.size, 8);
  }
}

TEST(Mesh, SmallMeshes) {
  for (int n : {1, 2, 4}) {
    Mesh m({n}, {"x"});
    EXPECT_EQ(m.size(), n);
    EXPECT_EQ(m.axis_group({"x"}, "t").size, n);
  }
}

TEST(Mesh, EmptyAxisListIsTheSingletonGroup) {
  Mesh m({2, 4}, {"data", "model"});
  const AxisGroup none = m.axis_group({}, "t");
  EXPECT_EQ(none.size, 1);
  EXPECT_EQ(m.group_devices(5, 0), 1u << 5);
}

TEST(Mesh, Errors) {
  Mesh m({2, 4}, {"data", "model"});
  const std::string unknown = testing::error_message([&] { m.axis_group({"batch"}, "psum"); });
  EXPECT_NE(unknown.find("psum: unknown axis name 'batch'"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("'data', 'model'"), std::string::npos) << unknown;
  const std::string twice = testing::error_message([&] { m.axis_group({"data", "data"}, "psum"); });
  EXPECT_NE(twice.find("axis 'data' appears twice"), std::string::npos) << twice;
  EXPECT_NE(testing::error_message([] { Mesh({2, 2}, {"a", "a"}); }).find("used twice"), std::string::npos);
  EXPECT_NE(testing::error_message([] { Mesh({0}, {"a"}); }).find("sizes must be >= 1"), std::string::npos);
  EXPECT_NE(testing::error_message([] { Mesh({2}, {"a", "b"}); }).find("one name per axis"), std::string::npos);
  EXPECT_NE(testing::error_message([] { Mesh({128}, {"a"}); }).find("more than 64 devices"), std::string::npos);
}

}  // namespace
}  // namespace shardlab
