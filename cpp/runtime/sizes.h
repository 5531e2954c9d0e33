// Element and byte counts of shapes, computed and checked in 64 bits where
// shapes are made (from JS, by shape rules, for device blocks), so that code
// running on a checked shape may multiply its dimensions in int64_t and cast
// its byte count to size_t (32 bits in wasm) without overflow. Unchecked,
// f32[65536,16384] (2^32 bytes) became a 0-byte buffer in wasm (the byte
// count truncated to 32 bits) that its kernels then wrote 2^32 bytes into.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/shape.h"

namespace shardlab {

/// The largest dimension: 2^53 - 1, below which a JS number holds every
/// integer exactly (Number.MAX_SAFE_INTEGER; shapes go to JavaScript as numbers).
constexpr int64_t kMaxDimension = (int64_t{1} << 53) - 1;

/// Throws a ValueError naming `fn`, `what` (the argument) and the dimension
/// unless every dimension of `shape` is in 0..kMaxDimension.
void check_dimensions(const Shape& shape, std::string_view fn, std::string_view what);

/// The bytes of a `dtype` array of `shape`, after check_dimensions: the
/// product is taken in 64 bits with overflow checks, and a ResourceError
/// names `fn`, `what`, the shape, its bytes and the device memory when they
/// exceed platform::device_memory_bytes() (or 2^64).
uint64_t checked_bytes(DType dtype, const Shape& shape, std::string_view fn, std::string_view what);

/// `bytes` as people read it: "4294967296 bytes (4 GiB)".
std::string bytes_str(uint64_t bytes);

}  // namespace shardlab
