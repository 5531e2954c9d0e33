// Every value of a program fits in the device memory: the builder checks the
// inputs and the results of every shape rule in 64 bits (a broadcast, a
// reshape whose product wraps around 2^64, a product, a concatenation, a
// padding that would be huge), the rules that add or multiply parameters do
// it without overflow, and a shard_map body whose values together do not fit
// is refused before its frame is allocated.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "exec/frame.h"
#include "ir/tracing/builder.h"
#include "ir/tracing/ops.h"
#include "ir_checks.h"
#include "runtime/errors.h"
#include "platform/platform.h"
#include "runtime/sizes.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

using testing::error_message;

const uint64_t kLimit = platform::device_memory_bytes();
// The fewest float32 elements that no longer fit in the device memory.
const int64_t kTooMany = static_cast<int64_t>(kLimit / kElemBytes) + 1;
const std::string kPast = " of device memory; arrays must fit in it";

TEST(ProgramSizes, InputsAreChecked) {
  Builder b;
  EXPECT_EQ(
      error_message([&] {
        b.input(f32({3, -2}));
      }),
      "input: the input [3,-2] has dimension -2 at position 1; dimensions must be integers in 0..9007199254740991");
  EXPECT_EQ(error_message([&] { b.input(f32({kTooMany})); }), "input: the input f32[" + std::to_string(kTooMany) +
                                                                  "] needs " + bytes_str(kLimit + 4) +
                                                                  ", more than the " + bytes_str(kLimit) + kPast);
  EXPECT_EQ(b.input(f32({0, kMaxDimension})).aval.shape, (Shape{0, kMaxDimension}));  // empty: nothing to hold
}

TEST(ProgramSizes, AHugeBroadcastIsAResourceError) {
  Builder b;
  EXPECT_EQ(error_message([&] { broadcast_in_dim(b, f32_scalar(1), {kTooMany}, {}); }),
            "broadcast_in_dim: the result f32[" + std::to_string(kTooMany) + "] needs " + bytes_str(kLimit + 4) +
                ", more than the " + bytes_str(kLimit) + kPast);
  EXPECT_EQ(error_message([&] {
              broadcast_in_dim(b, f32_scalar(1), {2, -3}, {});
            }),
            "broadcast_in_dim: shape [2,-3] has dimension -3 at position 1; dimensions must be integers in "
            "0..9007199254740991");
}

TEST(ProgramSizes, AReshapeWhoseProductWrapsAround2To64IsRefused) {
  Builder b;
  const Atom x = b.input(f32({4}));
  // (2^32 + 1)(2^32 - 1) = 2^64 - 1: counted in int64_t, these sizes make 4 elements.
  const Shape wraps = {4, (int64_t{1} << 32) + 1, (int64_t{1} << 32) - 1, (int64_t{1} << 32) + 1,
                       (int64_t{1} << 32) - 1};
  EXPECT_EQ(
      error_message([&] { reshape(b, x, wraps); }),
      "reshape: new_sizes f32[4,4294967297,4294967295,4294967297,4294967295] needs 5.44e+39 bytes, more than the " +
          bytes_str(kLimit) + kPast);
  EXPECT_EQ(error_message([&] { reshape(b, x, {2, -2}); }), "reshape: new_sizes [2,-2] has a negative size");
}

TEST(ProgramSizes, ShapeRulesWithHugeResultsFromSmallOperands) {
  Builder b;
  // An outer product: 2^17 x 2^17 float32 is 64 GiB.
  const int64_t n = int64_t{1} << 17;
  const Atom col = b.input(f32({n, 1}));
  const Atom row = b.input(f32({1, n}));
  EXPECT_EQ(testing::error_kind([&] { matmul(b, col, row); }), ErrorKind::kResource);
  EXPECT_EQ(error_message([&] { matmul(b, col, row); }).rfind("dot_general: the result f32[131072,131072] needs", 0),
            0u);
  // Padding two elements by 2^40 on each side.
  const Atom two = b.input(f32({2}));
  EXPECT_EQ(error_message([&] {
              pad(b, two, f32_scalar(0), {{int64_t{1} << 40, int64_t{1} << 40, 0}});
            }),
            "pad: the result f32[2199023255554] needs 8796093022216 bytes (8 TiB), more than the " + bytes_str(kLimit) +
                kPast);
}

TEST(ProgramSizes, RulesAddAndMultiplyParametersWithoutOverflow) {
  Builder b;
  const Atom three = b.input(f32({3}));
  // interior * (size - 1) and lo + hi past 2^63.
  EXPECT_EQ(error_message([&] {
              pad(b, three, f32_scalar(0), {{0, 0, int64_t{1} << 62}});
            }),
            "pad: dimension 0 of f32[3] would have more than 2^63 entries after padding [0,0,4611686018427387904]");
  EXPECT_EQ(testing::error_kind([&] { pad(b, three, f32_scalar(0), {{INT64_MAX, INT64_MAX, 0}}); }), ErrorKind::kResource);
  // Empty arrays with the largest dimension: 1025 of them add up past 2^63.
  const Atom wide = b.input(f32({0, kMaxDimension}));
  EXPECT_EQ(error_message([&] { concatenate(b, std::vector<Atom>(1025, wide), 1); }),
            "concatenate: the result has more than 2^63 entries along dimension 1");
  EXPECT_EQ(testing::error_kind([&] { concatenate(b, std::vector<Atom>(2, wide), 1); }), ErrorKind::kValue);  // past 2^53 - 1
  // A stride past the size: ceil((limit - start) / stride) without forming limit - start + stride - 1.
  const Atom ten = b.input(f32({10}));
  EXPECT_EQ(slice(b, ten, {0}, {10}, {INT64_MAX}).aval.shape, (Shape{1}));
  EXPECT_EQ(slice(b, ten, {3}, {3}, {INT64_MAX}).aval.shape, (Shape{0}));
}

TEST(ProgramSizes, ABodyWhoseValuesTogetherDoNotFitIsRefusedBeforeItsFrameIsAllocated) {
  // Three values of a bit more than a third of the device memory each.
  const int64_t third = static_cast<int64_t>(kLimit / kElemBytes / 3) + 1;
  Builder b;
  const Atom x = b.input(f32({third}));
  const Atom y = b.input(f32({third}));
  const Program body = b.build({add(b, x, y)});
  EXPECT_EQ(testing::error_kind([&] { exec::Frame frame(body, {true}); }), ErrorKind::kResource);
  EXPECT_EQ(
      error_message([&] {
        exec::Frame frame(body, {true});
      }).rfind("shard_map: the body's values need " + bytes_str(static_cast<uint64_t>(third) * 3 * kElemBytes), 0),
      0u);
}

}  // namespace
}  // namespace shardlab::ir
