// A parsed JSON document, for reading programs that come from outside (the
// checker's sandbox): strict RFC 8259 syntax, no repeated keys (readers
// disagree on which one counts), objects keep their key order,
// and the text's size and nesting depth are bounded, so a hostile document
// gets a named error instead of exhausting the stack or the heap.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace shardlab::ir {

/// One JSON value.
struct JsonValue {
  /// The kinds of JSON values.
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<JsonValue> items;                            ///< an array's elements
  std::vector<std::pair<std::string, JsonValue>> members;  ///< an object's members, in order

  /// The member called `key`, or null if there is none (or this is not an object).
  const JsonValue* find(const std::string& key) const;
};

/// How a JSON kind is called in messages ("an object", "a number", ...).
const char* json_kind_name(JsonValue::Kind kind);

/// Parses `text` (at most `max_bytes` long, arrays and objects nested at most
/// `max_depth` deep); throws a ValueError naming `what` and the byte offset.
JsonValue parse_json(const std::string& text, const char* what, size_t max_bytes, int max_depth);

}  // namespace shardlab::ir
