// Compact JSON text written straight into a string, byte for byte as ToJson writes the same
// value (escapes, number forms, member order as written): for a body built on every call
// without a Json tree. The caller writes a well-formed sequence (a Key before each member
// value, balanced Begin/End); commas are placed here.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/json.h"

namespace structure {

// Appends the JSON number ToJson writes for d (null when it is not finite); json_write.cc.
void AppendJsonDouble(std::string& out, double d);

class JsonWriter {
 public:
  explicit JsonWriter(std::string& out) : out_(out) {}

  JsonWriter& Key(std::string_view key) {
    Separate();
    AppendJsonString(out_, key);
    out_ += ':';
    comma_ = false;
    return *this;
  }
  void BeginObject() { Open('{'); }
  void EndObject() { Close('}'); }
  void BeginArray() { Open('['); }
  void EndArray() { Close(']'); }

  void String(std::string_view s) {
    Separate();
    AppendJsonString(out_, s);
    comma_ = true;
  }
  void Int(int64_t v) {
    Separate();
    char buf[24];
    auto [p, ec] = std::to_chars(buf, buf + sizeof(buf), v);
    out_.append(buf, p);
    comma_ = true;
  }
  void Double(double d) {
    Separate();
    AppendJsonDouble(out_, d);
    comma_ = true;
  }
  void Bool(bool b) { Raw(b ? "true" : "false"); }
  void Null() { Raw("null"); }
  // JSON text written as it is (a value already serialized: a shared schema's text).
  void Raw(std::string_view text) {
    Separate();
    out_ += text;
    comma_ = true;
  }

  // Shorthands for a member: Key(key) then the value.
  void Member(std::string_view key, std::string_view s) { Key(key).String(s); }
  void Member(std::string_view key, const char* s) { Key(key).String(s); }
  void Member(std::string_view key, const std::string& s) { Key(key).String(s); }
  void Member(std::string_view key, int64_t v) { Key(key).Int(v); }
  void Member(std::string_view key, bool b) { Key(key).Bool(b); }

 private:
  void Separate() {
    if (comma_) out_ += ',';
  }
  void Open(char bracket) {
    Separate();
    out_ += bracket;
    comma_ = false;
  }
  void Close(char bracket) {
    out_ += bracket;
    comma_ = true;
  }

  std::string& out_;
  bool comma_ = false;  // a value was just written: the next one needs a comma first
};

}  // namespace structure
