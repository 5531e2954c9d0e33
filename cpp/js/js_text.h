// Long strings between JS and the module: a program's JSON form or text runs
// to megabytes, and Embind's std::string conversion reads and writes the
// heap one byte at a time from JS, which a growable heap makes slow (a
// 6 MB program took 2 s each way). These copy the bytes in one call and let
// TextEncoder and TextDecoder do the rest.
#pragma once

#include <emscripten/val.h>

#include <string>

namespace shardlab::js {

/// `s` (UTF-8) as a JS string.
emscripten::val js_text(const std::string& s);

/// The UTF-8 bytes of the JS string `s`.
std::string text_from_js(const emscripten::val& s);

}  // namespace shardlab::js
