#include "ir/forms/json_value.h"

#include <cmath>
#include <cstdlib>

#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

class Parser {
 public:
  Parser(const std::string& text, const char* what, int max_depth) : s_(text), what_(what), max_depth_(max_depth) {}

  JsonValue document() {
    JsonValue v = value(0);
    skip_space();
    if (pos_ != s_.size()) error("unexpected text after the value");
    return v;
  }

 private:
  [[noreturn]] void error(const char* why) const { fail(ErrorKind::kValue, what_, ": malformed JSON at byte ", pos_, ": ", why); }

  void skip_space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
  }

  bool literal(const char* word) {
    const std::string w(word);
    if (s_.compare(pos_, w.size(), w) != 0) return false;
    pos_ += w.size();
    return true;
  }

  JsonValue value(int depth) {
    skip_space();
    if (pos_ >= s_.size()) error("unexpected end of text");
    JsonValue v;
    const char c = s_[pos_];
    if (c == '{' || c == '[') {
      if (depth >= max_depth_) error("nested too deeply");
      ++pos_;
      const char close = c == '{' ? '}' : ']';
      v.kind = c == '{' ? JsonValue::Kind::kObject : JsonValue::Kind::kArray;
      skip_space();
      if (pos_ < s_.size() && s_[pos_] == close) {
        ++pos_;
        return v;
      }
      for (;;) {
        if (v.kind == JsonValue::Kind::kObject) {
          skip_space();
          if (pos_ >= s_.size() || s_[pos_] != '"') error("expected a string key");
          std::string key = string();
          // A repeated key would mean different things to different readers (JSON.parse keeps the last).
          if (v.find(key)) error("a repeated key in an object");
          skip_space();
          if (pos_ >= s_.size() || s_[pos_] != ':') error("expected ':'");
          ++pos_;
          v.members.emplace_back(std::move(key), value(depth + 1));
        } else {
          v.items.push_back(value(depth + 1));
        }
        skip_space();
        if (pos_ < s_.size() && s_[pos_] == ',') {
          ++pos_;
          continue;
        }
        if (pos_ < s_.size() && s_[pos_] == close) {
          ++pos_;
          return v;
        }
        error(close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
      }
    }
    if (c == '"') {
      v.kind = JsonValue::Kind::kString;
      v.string = string();
    } else if (literal("true")) {
      v.kind = JsonValue::Kind::kBool;
      v.boolean = true;
    } else if (literal("false")) {
      v.kind = JsonValue::Kind::kBool;
    } else if (literal("null")) {
      v.kind = JsonValue::Kind::kNull;
    } else {
      v.kind = JsonValue::Kind::kNumber;
      v.number = number();
    }
    return v;
  }

  // A number as JSON spells it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
  double number() {
    const size_t start = pos_;
    const auto digits = [&] {
      const size_t from = pos_;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
      return pos_ > from;
    };
    if (pos_ < s_.size() && s_[pos_] == '-') ++pos_;
    if (pos_ < s_.size() && s_[pos_] == '0') {
      ++pos_;
    } else if (!digits()) {
      error("expected a value");
    }
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      if (!digits()) error("expected digits after '.'");
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      if (!digits()) error("expected digits in the exponent");
    }
    const double d = std::strtod(s_.substr(start, pos_ - start).c_str(), nullptr);
    if (!std::isfinite(d)) error("a number out of range");
    return d;
  }

  unsigned hex4() {
    if (pos_ + 4 > s_.size()) error("a short \\u escape");
    unsigned u = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = s_[pos_++];
      u <<= 4;
      if (h >= '0' && h <= '9') u |= static_cast<unsigned>(h - '0');
      else if (h >= 'a' && h <= 'f') u |= static_cast<unsigned>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') u |= static_cast<unsigned>(h - 'A' + 10);
      else error("a bad \\u escape");
    }
    return u;
  }

  static void utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::string string() {
    ++pos_;  // the opening quote
    std::string out;
    for (;;) {
      if (pos_ >= s_.size()) error("an unterminated string");
      const char c = s_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) error("a control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) error("an unterminated string");
      const char e = s_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (s_.compare(pos_, 2, "\\u") != 0) error("a lone surrogate in a \\u escape");
            pos_ += 2;
            const unsigned lo = hex4();
            if (lo < 0xDC00 || lo > 0xDFFF) error("a lone surrogate in a \\u escape");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            error("a lone surrogate in a \\u escape");
          }
          utf8(out, cp);
          break;
        }
        default:
          error("a bad escape in a string");
      }
    }
  }

  const std::string& s_;
  const char* what_;
  int max_depth_;
  size_t pos_ = 0;
};

}  // namespace

const JsonValue* JsonValue::find(const std::string& key) const {
  for (const auto& [k, v] : members)
    if (k == key) return &v;
  return nullptr;
}

const char* json_kind_name(JsonValue::Kind kind) {
  switch (kind) {
    case JsonValue::Kind::kNull: return "null";
    case JsonValue::Kind::kBool: return "a boolean";
    case JsonValue::Kind::kNumber: return "a number";
    case JsonValue::Kind::kString: return "a string";
    case JsonValue::Kind::kArray: return "an array";
    case JsonValue::Kind::kObject: return "an object";
  }
  return "?";
}

JsonValue parse_json(const std::string& text, const char* what, size_t max_bytes, int max_depth) {
  if (text.size() > max_bytes)
    fail(ErrorKind::kResource, what, ": the text has ", text.size(), " bytes; at most ", max_bytes, " are accepted");
  return Parser(text, what, max_depth).document();
}

}  // namespace shardlab::ir
