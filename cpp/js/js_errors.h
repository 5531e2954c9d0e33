// Turns core errors into JS exceptions: an Error whose name is the category
// ("ShapeError", ...) and whose message is the core's message, instead of the
// bare pointer a C++ exception becomes when it crosses into JS.
#pragma once

#include <emscripten/val.h>

#include <exception>
#include <new>
#include <utility>

#include "runtime/errors.h"

namespace shardlab::js {

/// Throws a JS Error named `name` with `message` (does not return).
[[noreturn]] void throw_js_error(const char* name, const char* message);

/// Runs f() and rethrows any C++ exception as a JS Error.
template <class F>
auto with_js_errors(F&& f) -> decltype(f()) {
  const char* name = nullptr;
  std::string message;
  try {
    return f();
  } catch (const Error& e) {
    name = error_kind_name(e.kind());
    message = e.what();
  } catch (const std::bad_alloc&) {
    name = error_kind_name(ErrorKind::kResource);
    message = "out of wasm memory";
  } catch (const std::exception& e) {
    name = "Error";
    message = e.what();
  }
  throw_js_error(name, message.c_str());
}

}  // namespace shardlab::js
