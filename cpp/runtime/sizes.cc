#include "runtime/sizes.h"

#include <cstdio>

#include "runtime/errors.h"
#include "platform/platform.h"

namespace shardlab {

void check_dimensions(const Shape& shape, std::string_view fn, std::string_view what) {
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] < 0 || shape[i] > kMaxDimension)
      fail(ErrorKind::kValue, fn, ": ", what, " ", shape_str(shape), " has dimension ", shape[i], " at position ", i,
           "; dimensions must be integers in 0..", kMaxDimension);
}

uint64_t checked_bytes(DType dtype, const Shape& shape, std::string_view fn, std::string_view what) {
  check_dimensions(shape, fn, what);
  // A zero dimension makes an empty array, however large the others are.
  for (int64_t d : shape)
    if (d == 0) return 0;
  uint64_t bytes = kElemBytes;
  bool overflow = false;
  for (int64_t d : shape) overflow = __builtin_mul_overflow(bytes, static_cast<uint64_t>(d), &bytes) || overflow;
  const uint64_t limit = platform::device_memory_bytes();
  if (overflow || bytes > limit) {
    double approx = kElemBytes;
    for (int64_t d : shape) approx *= static_cast<double>(d);
    char exact[64];
    if (overflow) {
      std::snprintf(exact, sizeof exact, "%.3g bytes", approx);
    } else {
      std::snprintf(exact, sizeof exact, "%s", bytes_str(bytes).c_str());
    }
    fail(ErrorKind::kResource, fn, ": ", what, " ", dtype_name(dtype), shape_str(shape), " needs ", exact,
         ", more than the ", bytes_str(limit), " of device memory; arrays must fit in it");
  }
  return bytes;
}

std::string bytes_str(uint64_t bytes) {
  static const char* const kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  char text[64];
  if (bytes < 1024) {
    std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
    return text;
  }
  double scaled = static_cast<double>(bytes) / 1024;
  int unit = 0;
  while (scaled >= 1024 && unit < 5) {
    scaled /= 1024;
    ++unit;
  }
  std::snprintf(text, sizeof text, "%llu bytes (%.3g %s)", static_cast<unsigned long long>(bytes), scaled,
                kUnits[unit]);
  return text;
}

}  // namespace shardlab
