// Reading a TOML table into plain structs with checks that say where: every problem is
// "<source>:<line>:<col>: <key path>: <what>", with numbers quoted as the file spells them.
// The first problem is kept (status()); later reads do nothing to it. The engine config
// (config/load_config.cc) reads its tables with it.
#pragma once

#include <cmath>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <toml++/toml.h>

#include "base/json.h"
#include "config/unknown_key.h"
#include "structure/status.h"

namespace structure::config {

class TomlReader {
 public:
  TomlReader(std::string source, std::string_view text) : source_(std::move(source)) {
    for (size_t pos = 0; pos <= text.size();) {
      size_t nl = text.find('\n', pos);
      if (nl == std::string_view::npos) nl = text.size();
      lines_.push_back(text.substr(pos, nl - pos));
      pos = nl + 1;
    }
  }

  const Status& status() const { return status_; }

  // "<source>:<line>:<col>" of a node, or "<source>" when it has no position.
  std::string Where(const toml::node* node) const {
    if (node == nullptr || node->source().begin.line == 0) return source_;
    return source_ + ":" + std::to_string(node->source().begin.line) + ":" +
           std::to_string(node->source().begin.column);
  }

  void Fail(const std::string& path, const std::string& what, const toml::node* node = nullptr) {
    if (!status_.ok()) return;
    status_ = InvalidArgument(Where(node) + ": " + path + ": " + what);
  }

  // Where the value of each model reference was written, for CheckConfig's messages.
  void Remember(const std::string& path, const toml::node* node) {
    if (node != nullptr) where_[path] = Where(node);
  }
  // `message` ("<path>: ...") prefixed with where that path's value was written.
  std::string Locate(const std::string& message) const {
    auto it = where_.find(message.substr(0, message.find(": ")));
    return (it == where_.end() ? source_ : it->second) + ": " + message;
  }

  // A value as the file spells it (99999999999, 0x10, 1e400), not as it was converted.
  std::string Written(const toml::node& n) const {
    const auto& src = n.source();
    if (src.begin.line == 0 || src.begin.line != src.end.line || src.begin.line > lines_.size()) {
      std::ostringstream ss;
      if (n.is_integer()) ss << n.as_integer()->get();
      if (n.is_floating_point()) ss << n.as_floating_point()->get();
      return ss.str();
    }
    std::string_view line = lines_[src.begin.line - 1];
    return std::string(line.substr(ByteOf(line, src.begin.column),
                                   ByteOf(line, src.end.column) - ByteOf(line, src.begin.column)));
  }

  // Every key of `table` must be in `known`.
  void CheckKeys(const toml::table& table, const std::string& path,
                 std::initializer_list<std::string_view> known) {
    CheckKeys(table, path, std::vector<std::string_view>(known));
  }
  void CheckKeys(const toml::table& table, const std::string& path,
                 const std::vector<std::string_view>& known) {
    for (const auto& [key, node] : table) {
      bool ok = false;
      for (auto k : known) ok = ok || key.str() == k;
      if (!ok) Fail(Join(path, key.str()), UnknownKeyMessage(key.str(), known), &node);
    }
  }

  // The byte offset of 1-based column `col` (toml++ counts code points).
  static size_t ByteOf(std::string_view line, size_t col) {
    size_t i = 0;
    for (size_t c = 1; c < col && i < line.size(); ++c) {
      ++i;
      while (i < line.size() && (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80) ++i;
    }
    return i;
  }

  static std::string Join(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
  }

  const toml::table* Table(const toml::table& t, std::string_view key, const std::string& path) {
    const toml::node* n = t.get(key);
    if (n == nullptr) return nullptr;
    if (!n->is_table()) {
      Fail(Join(path, key), "must be a table", n);
      return nullptr;
    }
    return n->as_table();
  }

  void String(const toml::table& t, std::string_view key, const std::string& path,
              std::string& out) {
    const toml::node* n = t.get(key);
    if (n == nullptr) return;
    if (!n->is_string()) return Fail(Join(path, key), "must be a string", n);
    out = n->as_string()->get();
  }

  void OptString(const toml::table& t, std::string_view key, const std::string& path,
                 std::optional<std::string>& out) {
    if (t.get(key) == nullptr) return;
    std::string v;
    String(t, key, path, v);
    out = v;
  }

  // A whole number in lo..hi. Messages quote the value as written: "must be > 0 (was -1)",
  // "must be at most 1000000 (was 99999999999)".
  // `interval`: say "must be LO..HI" (a small closed range) rather than "> 0" / "at most HI".
  template <class T>
  void Whole(const toml::table& t, std::string_view key, const std::string& path, int64_t lo,
             int64_t hi, T& out, bool interval = false) {
    const toml::node* n = t.get(key);
    if (n == nullptr) return;
    if (!n->is_integer()) return Fail(Join(path, key), "must be a whole number", n);
    int64_t v = n->as_integer()->get();
    if (v < lo || v > hi) {
      return Fail(Join(path, key),
                  RangeText(v < lo, lo, hi, interval) + " (was " + Written(*n) + ")", n);
    }
    out = static_cast<T>(v);
  }

  // A number of any size T can hold (settings with checks of their own after reading).
  template <class T>
  void Number(const toml::table& t, std::string_view key, const std::string& path, T& out) {
    const toml::node* n = t.get(key);
    if (n == nullptr) return;
    if constexpr (std::is_integral_v<T>) {
      Whole(t, key, path, std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), out);
    } else {
      double v = 0;
      Real(t, key, path, -std::numeric_limits<double>::max(), std::numeric_limits<double>::max(),
           v);
      out = static_cast<T>(v);
    }
  }

  template <class T>
  void OptNumber(const toml::table& t, std::string_view key, const std::string& path,
                 std::optional<T>& out) {
    if (t.get(key) == nullptr) return;
    T v{};
    Number(t, key, path, v);
    out = v;
  }

  // A finite number in lo..hi (an integer is fine).
  void Real(const toml::table& t, std::string_view key, const std::string& path, double lo,
            double hi, double& out, bool interval = false) {
    const toml::node* n = t.get(key);
    if (n == nullptr) return;
    double v = 0;
    if (n->is_integer()) {
      v = static_cast<double>(n->as_integer()->get());
    } else if (n->is_floating_point()) {
      v = n->as_floating_point()->get();
    } else {
      return Fail(Join(path, key), "must be a number", n);
    }
    if (!std::isfinite(v))
      return Fail(Join(path, key), "must be a finite number (was " + Written(*n) + ")", n);
    if (v < lo || v > hi) {
      return Fail(Join(path, key),
                  RangeText(v < lo, lo, hi, interval) + " (was " + Written(*n) + ")", n);
    }
    out = v;
  }

  template <class T>
  static std::string RangeText(bool below, T lo, T hi, bool interval) {
    auto num = [](T x) {
      std::ostringstream ss;
      ss << x;
      return ss.str();
    };
    if (interval) return "must be " + num(lo) + ".." + num(hi);
    if (!below) return "must be at most " + num(hi);
    if (lo == 0) return "must be >= 0";
    if (lo == 1 && std::is_integral_v<T>) return "must be > 0";
    return "must be " + num(lo) + ".." + num(hi);
  }

  template <class T>
  void OptWhole(const toml::table& t, std::string_view key, const std::string& path, int64_t lo,
                int64_t hi, std::optional<T>& out, bool interval = false) {
    if (t.get(key) == nullptr) return;
    T v{};
    Whole(t, key, path, lo, hi, v, interval);
    out = v;
  }

  void OptReal(const toml::table& t, std::string_view key, const std::string& path, double lo,
               double hi, std::optional<double>& out, bool interval = false) {
    if (t.get(key) == nullptr) return;
    double v = 0;
    Real(t, key, path, lo, hi, v, interval);
    out = v;
  }

  void OptBool(const toml::table& t, std::string_view key, const std::string& path,
               std::optional<bool>& out) {
    const toml::node* n = t.get(key);
    if (n == nullptr) return;
    if (!n->is_boolean()) return Fail(Join(path, key), "must be true or false", n);
    out = n->as_boolean()->get();
  }

  // A TOML value as JSON (dates and times as their TOML text).
  Json ToJsonValue(const toml::node& n) {
    if (n.is_table()) {
      Json o = Json::MakeObject();
      for (const auto& [k, v] : *n.as_table()) o.set(k.str(), ToJsonValue(v));
      return o;
    }
    if (n.is_array()) {
      Json a = Json::MakeArray();
      for (const auto& v : *n.as_array()) a.push_back(ToJsonValue(v));
      return a;
    }
    if (n.is_string()) return Json(n.as_string()->get());
    if (n.is_integer()) return Json(static_cast<int64_t>(n.as_integer()->get()));
    if (n.is_floating_point()) return Json(n.as_floating_point()->get());
    if (n.is_boolean()) return Json(n.as_boolean()->get());
    std::ostringstream ss;  // dates and times as their TOML text
    if (n.is_date()) ss << n.as_date()->get();
    if (n.is_time()) ss << n.as_time()->get();
    if (n.is_date_time()) ss << n.as_date_time()->get();
    return Json(ss.str());
  }

 private:
  std::string source_;
  std::vector<std::string_view> lines_;       // of the text, for Written()
  std::map<std::string, std::string> where_;  // key path -> "<source>:<line>:<col>"
  Status status_;
};

}  // namespace structure::config
