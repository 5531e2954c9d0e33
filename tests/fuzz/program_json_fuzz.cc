// libFuzzer target: any text given to the program reader (ir/forms/json_read.h)
// either reads into a program or throws a shardlab::Error — never a crash, a
// hang or a sanitizer report — and a program it reads writes back to JSON
// that reads again into the same JSON (the reader accepts what it writes).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "ir/forms/json.h"
#include "ir/forms/json_read.h"
#include "runtime/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // Small limits keep each input fast; the checks are the same at any size.
  shardlab::ir::ReadLimits limits;
  limits.max_text_bytes = 1 << 16;
  limits.max_equations = 200;
  limits.max_value_bytes = 1 << 20;
  limits.max_total_bytes = 1 << 24;
  limits.max_work = 1e7;
  std::string json;
  try {
    json = shardlab::ir::to_json(shardlab::ir::program_from_json(text, limits));
  } catch (const shardlab::Error&) {
    return 0;
  }
  if (shardlab::ir::to_json(shardlab::ir::program_from_json(json, limits)) != json) std::abort();
  return 0;
}
