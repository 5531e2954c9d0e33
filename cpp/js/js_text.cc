#include "js/js_text.h"

#include <cstdint>

namespace shardlab::js {

using emscripten::typed_memory_view;
using emscripten::val;

val js_text(const std::string& s) {
  // Copied out of the heap first: TextDecoder does not read shared memory.
  val bytes = val::global("Uint8Array").new_(s.size());
  bytes.call<void>("set", val(typed_memory_view(s.size(), reinterpret_cast<const uint8_t*>(s.data()))));
  return val::global("TextDecoder").new_().call<val>("decode", bytes);
}

std::string text_from_js(const val& s) {
  const val bytes = val::global("TextEncoder").new_().call<val>("encode", s);
  std::string out(bytes["length"].as<size_t>(), '\0');
  val(typed_memory_view(out.size(), reinterpret_cast<uint8_t*>(out.data()))).call<void>("set", bytes);
  return out;
}

}  // namespace shardlab::js
