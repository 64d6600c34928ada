// Json: a small mutable JSON value with insertion-ordered objects, used wherever JSON is built
// or rewritten (schemas, lowering, provider requests, results). Hot-path reading of large
// documents uses simdjson instead; this type favours clarity and exact round trips.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"

namespace structure {

class Json {
 public:
  enum class Type { kNull, kBool, kInt, kDouble, kString, kArray, kObject };
  using Array = std::vector<Json>;
  using Member = std::pair<std::string, Json>;
  // Insertion order is kept; keys are unique. Objects past a few dozen members keep a hash
  // index of their keys, so lookups and set() stay O(1) and building or parsing is linear.
  // The mutable as_object() sets the index aside until the next non-const find/set/erase or
  // copy rebuilds it; do not keep its reference across those calls.
  using Object = std::vector<Member>;

  Json() = default;  // null
  Json(std::nullptr_t) {}
  Json(bool b) : type_(Type::kBool), b_(b) {}
  Json(int v) : type_(Type::kInt), i_(v) {}
  Json(int64_t v) : type_(Type::kInt), i_(v) {}
  Json(uint64_t v);  // stored as int when it fits, else as a big integer
  Json(double v) : type_(Type::kDouble), d_(v) {}
  Json(const char* s) : type_(Type::kString), s_(s) {}
  Json(std::string s) : type_(Type::kString), s_(std::move(s)) {}
  Json(std::string_view s) : type_(Type::kString), s_(s) {}
  Json(Array a);
  Json(Object o);

  Json(const Json& other);
  Json(Json&& other) noexcept = default;
  Json& operator=(const Json& other);
  Json& operator=(Json&& other) noexcept = default;
  ~Json() = default;

  static Json MakeArray() { return Json(Array{}); }
  static Json MakeObject() { return Json(Object{}); }
  // An integer outside int64, kept exactly: `digits` is a JSON integer token ("-123...").
  // It reads as a double (is_double(), as_double() the nearest value) and writes as `digits`.
  static Json MakeBigInteger(std::string_view digits);

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::kNull; }
  bool is_bool() const { return type_ == Type::kBool; }
  bool is_int() const { return type_ == Type::kInt; }
  bool is_double() const { return type_ == Type::kDouble; }
  bool is_number() const { return type_ == Type::kInt || type_ == Type::kDouble; }
  // An integer in the JSON Schema sense: an int, or a double with no fractional part.
  bool is_integral() const;
  bool is_string() const { return type_ == Type::kString; }
  // The exact text of an integer outside int64 (MakeBigInteger, parsed or uint64); "" else.
  std::string_view big_integer() const {
    return type_ == Type::kDouble ? std::string_view(s_) : "";
  }
  bool is_array() const { return type_ == Type::kArray; }
  bool is_object() const { return type_ == Type::kObject; }

  // Accessors assume the matching type (checked with assert in debug builds).
  bool as_bool() const;
  int64_t as_int() const;    // kInt, or a kDouble truncated
  double as_double() const;  // any number
  const std::string& as_string() const;
  std::string& as_string();
  const Array& as_array() const;
  Array& as_array();
  const Object& as_object() const;
  Object& as_object();

  // Object helpers. find() returns nullptr when absent or when this is not an object.
  const Json* find(std::string_view key) const;
  Json* find(std::string_view key);
  bool contains(std::string_view key) const { return find(key) != nullptr; }
  // Sets key (replacing in place, or appending); turns null into an object first.
  Json& set(std::string_view key, Json value);
  // Returns the member, creating it as null when absent; turns null into an object first.
  Json& operator[](std::string_view key);
  bool erase(std::string_view key);

  // Array helpers; push_back turns null into an array first.
  void push_back(Json value);
  size_t size() const;  // elements, members or 0

  // JSON equality in the JSON Schema sense: 1 == 1.0; object key order is ignored; big
  // integers are equal when their digits are (against a plain double, by value).
  bool operator==(const Json& other) const;
  bool operator!=(const Json& other) const { return !(*this == other); }

 private:
  friend struct JsonBuilder;
  // Open addressing over member positions: each slot is (hash << 32 | position + 1), 0 empty.
  // `count` is how many members it covers; the index is used only while count equals the
  // member count (the mutable as_object() sets count to npos).
  struct KeyIndex {
    std::vector<uint64_t> slots;
    size_t count = 0;
  };
  struct ObjectData {
    Object members;
    KeyIndex index;
  };
  void Reindex();
  size_t IndexedFind(std::string_view key) const;  // position, or npos
  size_t Position(std::string_view key) const;     // by index or scan; npos when absent
  // The member for key, appended as null when absent (taking *owned_key if given); turns null
  // into an object first. set(), operator[] and the parser build objects through it.
  Json& Slot(std::string_view key, std::string* owned_key);

  Type type_ = Type::kNull;
  bool b_ = false;
  int64_t i_ = 0;
  double d_ = 0;
  std::string s_;  // kString: the string; kDouble: a big integer's digits, or empty
  std::unique_ptr<Array> a_;
  std::unique_ptr<ObjectData> o_;
};

struct ParseOptions {
  size_t max_depth = 512;          // deeper nesting is an error, never a stack overflow
  std::string source = "<input>";  // used as the file part of error locations
};

// Parses exactly one JSON text (surrounding white space allowed).
// Errors are kInvalidArgument with "source:line:col: what is wrong".
Result<Json> ParseJson(std::string_view text, const ParseOptions& options = {});

// Serializes compactly (pretty = false) or with two-space indentation. Doubles print in the
// shortest form that reads back to the same value (integral doubles as "2.0").
std::string ToJson(const Json& value, bool pretty = false);

// ToJson(value).size(), counted without building the text.
size_t JsonTextSize(const Json& value);

// Compact text `text` written in place of the node `at` of a tree being serialized: a large
// value that is already text (a shared schema sent with every call) is not copied into the
// tree and written again. `at` must point into the tree passed to ToJsonSpliced.
struct JsonSplice {
  const Json* at;
  std::string_view text;
};
// ToJson(value) (compact), with each spliced node replaced by its text.
std::string ToJsonSpliced(const Json& value, std::span<const JsonSplice> splices);

// Appends a JSON string literal (with quotes and escapes) for s to out.
void AppendJsonString(std::string& out, std::string_view s);

// The most ReadFile reads unless told otherwise.
inline constexpr size_t kMaxFileBytes = size_t{64} << 20;
// The inputs read whole, bounded alike in every layer that reads them.
inline constexpr size_t kMaxPromptBytes = size_t{1} << 20;  // a prompt (a request's limit too)
inline constexpr size_t kMaxSchemaBytes = size_t{1} << 20;  // a schema document (likewise)
inline constexpr size_t kMaxConfigBytes = size_t{4} << 20;  // a TOML configuration file

// Reads a whole file, but never more than `max_bytes` of it: a longer one (or an endless one,
// /dev/zero, `yes |`) is kInvalidArgument "<path>: larger than N bytes (<limit_name>): stopped
// reading there". kNotFound (with the OS reason) when it cannot be opened, kInvalidArgument for
// a directory, kUnavailable when a read fails.
Result<std::string> ReadFile(const std::string& path, size_t max_bytes = kMaxFileBytes,
                             std::string_view limit_name = "the limit for a file read whole");

}  // namespace structure
