// Device memory: byte counts checked in 64 bits before anything is allocated
// (runtime/sizes.h), buffers and sharded arrays that refuse what cannot fit,
// and the spans that keep freed large blocks for the next call
// (runtime/large_blocks.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "runtime/buffer.h"
#include "runtime/errors.h"
#include "runtime/large_blocks.h"
#include "platform/platform.h"
#include "runtime/sharded_array.h"
#include "runtime/sizes.h"
#include "test_util.h"

namespace shardlab {
namespace {

using testing::error_message;

const uint64_t kLimit = platform::device_memory_bytes();
// The fewest float32 elements that no longer fit in the device memory.
const int64_t kTooMany = static_cast<int64_t>(kLimit / kElemBytes) + 1;

TEST(CheckedBytes, CountsElementsTimesFourBytes) {
  EXPECT_EQ(checked_bytes(DType::kFloat32, {}, "f", "x"), 4u);
  EXPECT_EQ(checked_bytes(DType::kInt32, {2, 3}, "f", "x"), 24u);
  EXPECT_EQ(checked_bytes(DType::kBool, {7}, "f", "x"), 28u);
  // An empty array needs nothing, however large its other dimensions.
  EXPECT_EQ(checked_bytes(DType::kFloat32, {0, kMaxDimension, kMaxDimension}, "f", "x"), 0u);
  EXPECT_EQ(checked_bytes(DType::kFloat32, {static_cast<int64_t>(kLimit / 4)}, "f", "x"), kLimit / 4 * 4);
}

TEST(CheckedBytes, DimensionsAreIntegersUpTo2To53) {
  EXPECT_EQ(
      error_message([] {
        checked_bytes(DType::kFloat32, {2, -1}, "np.zeros", "shape");
      }),
      "np.zeros: shape [2,-1] has dimension -1 at position 1; dimensions must be integers in 0..9007199254740991");
  EXPECT_EQ(testing::error_kind([] { checked_bytes(DType::kFloat32, {INT64_MIN}, "f", "x"); }), ErrorKind::kValue);
  EXPECT_EQ(testing::error_kind([] { checked_bytes(DType::kFloat32, {0, kMaxDimension + 1}, "f", "x"); }), ErrorKind::kValue);
}

TEST(CheckedBytes, MoreThanTheDeviceMemoryIsAResourceError) {
  const std::string limit = bytes_str(kLimit);
  EXPECT_EQ(error_message([] { checked_bytes(DType::kFloat32, {kTooMany}, "f", "the result"); }),
            "f: the result f32[" + std::to_string(kTooMany) + "] needs " + bytes_str(kLimit + 4) + ", more than the " +
                limit + " of device memory; arrays must fit in it");
  EXPECT_EQ(testing::error_kind([] { checked_bytes(DType::kFloat32, {kTooMany}, "f", "x"); }), ErrorKind::kResource);
  // f32[65536,16384] is 2^32 bytes: 0 if counted in a 32-bit size_t.
  if (kLimit < (uint64_t{1} << 32)) {
    EXPECT_EQ(testing::error_kind([] { checked_bytes(DType::kFloat32, {65536, 16384}, "f", "x"); }), ErrorKind::kResource);
  } else {
    EXPECT_EQ(checked_bytes(DType::kFloat32, {65536, 16384}, "f", "x"), uint64_t{1} << 32);
  }
}

TEST(CheckedBytes, AProductThatWrapsAround2To64IsCaught) {
  // (2^32 + 1)(2^32 - 1) = 2^64 - 1, so this product is 4 modulo 2^64.
  const Shape wraps = {4, (int64_t{1} << 32) + 1, (int64_t{1} << 32) - 1, (int64_t{1} << 32) + 1,
                       (int64_t{1} << 32) - 1};
  EXPECT_EQ(
      error_message([&] { checked_bytes(DType::kFloat32, wraps, "reshape", "new_sizes"); }),
      "reshape: new_sizes f32[4,4294967297,4294967295,4294967297,4294967295] needs 5.44e+39 bytes, more than the " +
          bytes_str(kLimit) + " of device memory; arrays must fit in it");
  EXPECT_EQ(testing::error_kind([] {
              checked_bytes(DType::kFloat32, {int64_t{1} << 40, int64_t{1} << 40}, "f", "x");
            }),
            ErrorKind::kResource);
}

TEST(BytesStr, ReadsAsPeopleDo) {
  EXPECT_EQ(bytes_str(12), "12 bytes");
  EXPECT_EQ(bytes_str(uint64_t{1} << 32), "4294967296 bytes (4 GiB)");
  EXPECT_EQ(bytes_str(1536), "1536 bytes (1.5 KiB)");
}

TEST(Buffer, RefusesMoreThanTheDeviceMemoryBeforeAllocating) {
  EXPECT_EQ(error_message([] { Buffer b(kLimit + 1, 0); }), "Buffer: cannot allocate " + bytes_str(kLimit + 1) +
                                                                " for device 0: more than the " + bytes_str(kLimit) +
                                                                " of device memory");
  EXPECT_EQ(testing::error_kind([] { Buffer b(UINT64_MAX, 3); }), ErrorKind::kResource);
}

TEST(Buffer, LargeBuffersAreZeroedAlignedAndStaggered) {
  for (int device = 0; device < 8; ++device) {
    Buffer b(3 << 20, device);
    const auto at = reinterpret_cast<uintptr_t>(b.data());
    EXPECT_EQ(at % 64, 0u);
    EXPECT_EQ(at % 4096, static_cast<uintptr_t>(device) * 576 % 4096);
    const auto* bytes = static_cast<const unsigned char*>(b.data());
    EXPECT_EQ(bytes[0] | bytes[b.bytes() / 2] | bytes[b.bytes() - 1], 0);
    std::memset(b.data(), 0xab, b.bytes());  // dirty the span for the next device's buffer
  }
}

TEST(ShardedArray, AShapePastTheDeviceMemoryIsRefusedBeforeAnyBlockIsAllocated) {
  auto mesh = testing::make_mesh({8}, {"data"});
  EXPECT_EQ(testing::error_kind([&] { ShardedArray a(mesh, DType::kFloat32, {kTooMany * 8}, PartitionSpec{{{"data"}}}); }),
            ErrorKind::kResource);
  const Shape wraps = {4, (int64_t{1} << 32) + 1, (int64_t{1} << 32) - 1, (int64_t{1} << 32) + 1,
                       (int64_t{1} << 32) - 1};
  EXPECT_EQ(testing::error_kind([&] { ShardedArray a(mesh, DType::kFloat32, wraps, PartitionSpec{}); }), ErrorKind::kResource);
}

// The large blocks' heap is shared by the whole test binary: these tests
// use sizes no other test allocates and look at differences.
constexpr size_t kMiB = size_t{1} << 20;

TEST(LargeBlocks, AFreedBlockIsReusedByTheNextOfItsSize) {
  void* a = allocate_large(64 * kMiB);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 4096, 0u);
  const LargeBlockStats held = large_block_stats();
  free_large(a);
  EXPECT_EQ(large_block_stats().reserved, held.reserved);  // the span stays
  EXPECT_EQ(large_block_stats().in_use, held.in_use - 64 * kMiB);
  void* b = allocate_large(64 * kMiB);
  EXPECT_EQ(b, a);
  EXPECT_EQ(large_block_stats().reserved, held.reserved);
  free_large(b);
}

TEST(LargeBlocks, FreedNeighboursMergeSoALargerBlockFitsAgain) {
  void* whole = allocate_large(64 * kMiB);
  ASSERT_NE(whole, nullptr);
  free_large(whole);
  const size_t reserved = large_block_stats().reserved;
  // Best fit: both halves come from the 64 MiB range, one after the other.
  void* a = allocate_large(24 * kMiB);
  void* b = allocate_large(24 * kMiB);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(a, whole);
  EXPECT_EQ(static_cast<char*>(b), static_cast<char*>(a) + 24 * kMiB);
  free_large(a);
  free_large(b);
  void* again = allocate_large(64 * kMiB);
  EXPECT_EQ(again, whole);
  EXPECT_EQ(large_block_stats().reserved, reserved);
  free_large(again);
}

TEST(LargeBlocks, UnusedSpansGoBackToMallocWhenAsked) {
  void* a = allocate_large(40 * kMiB);
  ASSERT_NE(a, nullptr);
  const size_t reserved = large_block_stats().reserved;
  free_large(a);
  EXPECT_TRUE(release_free_spans());
  EXPECT_LE(large_block_stats().reserved + 40 * kMiB, reserved);  // a's span (at least 40 MiB) is gone
  EXPECT_FALSE(release_free_spans());
}

TEST(LargeBlocks, ARequestNoSpanHoldsReleasesTheUnusedSpansFirst) {
  release_free_spans();
  const size_t base = large_block_stats().reserved;
  void* small = allocate_large(8 * kMiB);
  free_large(small);
  EXPECT_EQ(large_block_stats().reserved, base + 8 * kMiB);
  // Too large for the unused 8 MiB span: that span goes back to malloc
  // (where it may merge with its neighbours) before a new one is made.
  void* big = allocate_large(96 * kMiB);
  ASSERT_NE(big, nullptr);
  EXPECT_EQ(large_block_stats().reserved, base + 96 * kMiB);
  free_large(big);
  release_free_spans();
}

}  // namespace
}  // namespace shardlab
