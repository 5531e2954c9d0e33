// convert_element_type and iota: values of every dtype pair against C++
// references, the float32 conversion's JVP and transpose, the zero tangent of
// integer conversions, printing, and every error.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "exec/lockstep_program.h"
#include "ir/tracing/ops.h"
#include "ir/forms/print.h"
#include "ir_checks.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

using exec::as_floats;
using exec::as_ints;
using exec::host_f32;
using exec::host_i32;

exec::HostArray convert(const exec::HostArray& x, DType to) {
  return evaluate([&](Builder& b, auto in) { return convert_element_type(b, in[0], to); }, {x});
}

TEST(ConvertElementType, FloatToIntTruncatesTowardZeroAndSaturates) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto z = convert(host_f32({8}, {-2.7f, -0.5f, 0.5f, 2.9f, 1e10f, -1e10f, nan, 16777216.0f}), DType::kInt32);
  EXPECT_EQ(z.aval.dtype, DType::kInt32);
  EXPECT_EQ(as_ints(z), (std::vector<int32_t>{-2, 0, 0, 2, 2147483647, -2147483647 - 1, 0, 16777216}));
}

TEST(ConvertElementType, BoolsAreZeroOrOne) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(as_ints(convert(host_f32({5}, {0.0f, -0.0f, 0.5f, -3.0f, nan}), DType::kBool)),
            (std::vector<int32_t>{0, 0, 1, 1, 1}));
  EXPECT_EQ(as_ints(convert(host_i32({3}, {0, -7, 2}), DType::kBool)), (std::vector<int32_t>{0, 1, 1}));
  // A bool from a comparison, converted to both number types.
  const Body flags = [](Builder& b, auto in) { return compare(b, Prim::kGt, in[0], Atom::constant(0, DType::kInt32)); };
  for (DType to : {DType::kFloat32, DType::kInt32}) {
    const auto z = evaluate([&](Builder& b, auto in) { return convert_element_type(b, flags(b, in), to); },
                            {host_i32({4}, {3, 0, -1, 9})});
    if (to == DType::kFloat32) {
      EXPECT_EQ(as_floats(z), (std::vector<float>{1, 0, 0, 1}));
    } else {
      EXPECT_EQ(as_ints(z), (std::vector<int32_t>{1, 0, 0, 1}));
    }
  }
}

TEST(ConvertElementType, IntToFloatAndSameDtype) {
  EXPECT_EQ(as_floats(convert(host_i32({3}, {-3, 0, 16777217}), DType::kFloat32)),
            (std::vector<float>{-3.0f, 0.0f, 16777216.0f}));
  EXPECT_EQ(as_floats(convert(host_f32({2}, {1.5f, -2.25f}), DType::kFloat32)), (std::vector<float>{1.5f, -2.25f}));
  EXPECT_EQ(as_ints(convert(host_i32({2}, {4, -5}), DType::kInt32)), (std::vector<int32_t>{4, -5}));
}

TEST(ConvertElementType, PrintsItsParamsLikeMakeJaxpr) {
  Builder b;
  const Atom x = b.input(Aval{DType::kFloat32, {3}, {"data"}});
  const Atom z = convert_element_type(b, x, DType::kInt32);
  EXPECT_EQ(to_text(b.build({z})),
            "{ lambda ; a:f32[3]{V:data}. let\n"
            "    b:i32[3]{V:data} = convert_element_type[new_dtype=int32 weak_type=False] a\n"
            "  in (b,) }");
}

TEST(ConvertElementType, Float32IsLinearOtherConversionsHaveZeroTangents) {
  check_jvp([](Builder& b, auto in) { return mul(b, convert_element_type(b, in[0], DType::kFloat32), in[0]); },
            {f32({2, 3})});
  check_transpose([](Builder& b, auto in) { return convert_element_type(b, in[0], DType::kFloat32); }, f32({2, 3}));
  // x * float(iota): the conversion from int32 contributes no tangent.
  check_jvp(
      [](Builder& b, auto in) {
        return mul(b, in[0], convert_element_type(b, iota(b, DType::kInt32, {2, 3}, 1), DType::kFloat32));
      },
      {f32({2, 3})});
  Builder b;
  const Atom x = b.input(f32({4})), t = b.input(f32({4}));
  const Atom z = convert_element_type(b, x, DType::kInt32);
  const Params p = {{"new_dtype", DType::kInt32}, {"weak_type", false}};
  EXPECT_FALSE(primitive(Prim::kConvertElementType).jvp(b, p, {x}, {z}, {t})[0].has_value());
  EXPECT_EQ(testing::error_message([&] { primitive(Prim::kConvertElementType).transpose(b, p, {z}, {x}, {true}); }),
            "convert_element_type: only conversions between floating-point types are linear, not f32[4] to int32; cannot "
            "transpose");
}

TEST(ConvertElementType, Errors) {
  Builder b;
  const Atom x = b.input(f32({4}));
  EXPECT_EQ(testing::error_message([&] {
              b.emit1(Prim::kConvertElementType, {{"new_dtype", DType::kInt32}, {"weak_type", false}}, {x, x});
            }),
            "convert_element_type: takes 1 operand, got 2");
  EXPECT_EQ(testing::error_message([&] {
              b.emit1(Prim::kConvertElementType, {{"new_dtype", DType::kInt32}}, {x});
            }),
            "convert_element_type: missing parameter 'weak_type'");
}

TEST(Iota, IndicesAlongTheDimension) {
  auto run = [](DType dtype, const Shape& shape, int64_t dim) {
    return evaluate([&](Builder& b, auto) { return iota(b, dtype, shape, dim); }, {});
  };
  const Shape s = {2, 3, 4};
  for (int64_t dim = 0; dim < 3; ++dim) {
    const auto ints = as_ints(run(DType::kInt32, s, dim));
    ASSERT_EQ(ints.size(), 24u);
    for (int64_t k = 0; k < 24; ++k) EXPECT_EQ(ints[k], testing::unravel(k, s)[dim]) << dim << " " << k;
  }
  const auto floats = run(DType::kFloat32, {5}, 0);
  EXPECT_EQ(floats.aval, f32({5}));
  EXPECT_EQ(as_floats(floats), (std::vector<float>{0, 1, 2, 3, 4}));
  EXPECT_TRUE(as_ints(run(DType::kInt32, {3, 0}, 0)).empty());
}

TEST(Iota, PrintsItsParamsAndVariesAlongNoAxis) {
  Builder b;
  const Atom z = iota(b, DType::kInt32, {2, 3}, 1);
  EXPECT_TRUE(z.aval.vma.empty());
  EXPECT_EQ(to_text(b.build({z})),
            "{ lambda ; . let\n"
            "    a:i32[2,3] = iota[dimension=1 dtype=int32 shape=(2, 3) sharding=None]\n"
            "  in (a,) }");
  const Params p = {{"dtype", DType::kInt32}, {"shape", Shape{2, 3}}, {"dimension", int64_t{1}}};
  EXPECT_FALSE(primitive(Prim::kIota).jvp(b, p, {}, {z}, {})[0].has_value());
  EXPECT_TRUE(primitive(Prim::kIota).transpose(b, p, {z}, {}, {}).empty());
}

TEST(Iota, Errors) {
  Builder b;
  const Atom x = b.input(f32({2}));
  const Params p = {{"dtype", DType::kInt32}, {"shape", Shape{2}}, {"dimension", int64_t{0}}};
  EXPECT_EQ(testing::error_message([&] { b.emit1(Prim::kIota, p, {x}); }), "iota: takes no operands, got 1");
  EXPECT_EQ(testing::error_message([&] {
              iota(b, DType::kInt32, {2, 3}, 2);
            }),
            "iota: dimension 2 is out of range for shape [2,3] of rank 2");
  EXPECT_EQ(testing::error_message([&] {
              iota(b, DType::kInt32, {2, -1}, 0);
            }),
            "iota: shape [2,-1] has a negative size");
  EXPECT_EQ(testing::error_message([&] { iota(b, DType::kBool, {2}, 0); }),
            "iota: dtype bool is not supported; use a numeric dtype");
}

}  // namespace
}  // namespace shardlab::ir
