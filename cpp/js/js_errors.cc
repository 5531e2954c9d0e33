#include "js_errors.h"

namespace shardlab::js {

void throw_js_error(const char* name, const char* message) {
  emscripten::val error = emscripten::val::global("Error").new_(std::string(message));
  error.set("name", std::string(name));
  error.throw_();
}

}  // namespace shardlab::js
