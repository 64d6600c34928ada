#include "pipeline/validator/validate_lines.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <simdjson.h>

#include "base/json.h"

namespace structure::pipeline {
namespace {

constexpr size_t kPadding = simdjson::SIMDJSON_PADDING;
constexpr size_t kFlushAt = size_t{1} << 20;

bool IsBlank(const char* p, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r') return false;
  }
  return true;
}

void AppendField(std::string& out, const char* name, std::string_view value) {
  out += name;
  AppendJsonString(out, value);
}

}  // namespace

void AppendVerdictLine(std::string& out, const pipeline::ValidationResult& result,
                       size_t max_errors) {
  if (result.valid) {
    out += R"({"valid":true})";
    return;
  }
  out += R"({"valid":false,"errors":[)";
  bool first = true;
  for (const pipeline::ValidationError& e : result.errors) {
    if (!first) out += ',';
    first = false;
    AppendField(out, R"({"instancePath":)", e.instance_path);
    AppendField(out, R"(,"schemaPath":)", e.schema_path);
    AppendField(out, R"(,"keyword":)", e.keyword);
    out += R"(,"params":)";
    out += ToJson(e.params);
    AppendField(out, R"(,"message":)", e.message);
    out += '}';
  }
  if (result.more_errors) {
    if (!first) out += ',';
    out += R"({"instancePath":"","schemaPath":"","keyword":"maxErrors","params":{"limit":)";
    out += std::to_string(max_errors);
    out += R"(},"message":"... and more errors (the first )";
    out += std::to_string(max_errors);
    out += R"j( are shown; see --max-errors)"})j";
  }
  out += "]}";
}

void AppendNotJsonLine(std::string& out, const std::string& message, const NotJsonAt& at) {
  std::string where = "line " + std::to_string(at.line) + ", column " + std::to_string(at.column) +
                      " (input byte offset " + std::to_string(at.byte) + "): ";
  AppendField(out, R"({"valid":false,"error":)", where + message);
  out += ",\"line\":" + std::to_string(at.line) + ",\"column\":" + std::to_string(at.column) +
         ",\"byte\":" + std::to_string(at.byte) + '}';
}

std::pair<size_t, std::string> NotJsonReason(std::string_view text, const std::string& fallback) {
  ParseOptions options;
  options.source = "";
  auto parsed = ParseJson(text, options);
  if (parsed.ok()) return {1, fallback};
  // ":1:COLUMN: what" (the text has no newline: a line of the input).
  const std::string& m = parsed.status().message();
  size_t second = m.find(':', 1);
  size_t third = second == std::string::npos ? std::string::npos : m.find(':', second + 1);
  if (m.rfind(":1:", 0) != 0 || third == std::string::npos) return {1, m};
  size_t column = std::strtoull(m.c_str() + second + 1, nullptr, 10);
  return {column == 0 ? 1 : column, m.substr(third + 2)};
}

ValidateLinesSummary ValidateLines(const pipeline::Validator& validator, std::FILE* in,
                                   std::FILE* out, const ValidateLinesOptions& options) {
  ValidateLinesSummary summary;
  const size_t max_errors = validator.max_errors();
  std::vector<char> buf(options.block_size + kPadding);
  size_t begin = 0, end = 0;  // unread data is buf[begin, end)
  size_t consumed = 0;        // bytes of the input before buf[0]
  size_t line_number = 0;
  std::string text;
  text.reserve(kFlushAt + 4096);
  auto flush = [&] {
    if (!text.empty()) std::fwrite(text.data(), 1, text.size(), out);
    text.clear();
  };
  auto handle = [&](const char* p, size_t n) {
    ++line_number;
    size_t offset = consumed + static_cast<size_t>(p - buf.data());
    if (offset == 0 && n >= 3 && std::memcmp(p, "\xEF\xBB\xBF", 3) == 0) {
      p += 3;  // a byte order mark some editors write
      n -= 3;
      offset = 3;
    }
    if (IsBlank(p, n)) {
      if (summary.first_blank_lines.size() < 5) summary.first_blank_lines.push_back(line_number);
      ++summary.blank_lines;
      return;
    }
    ++summary.instances;
    auto result = validator.ValidatePaddedText(std::string_view(p, n), options.all_errors);
    if (!result.ok()) {
      ++summary.invalid;
      auto [column, why] = NotJsonReason(std::string_view(p, n), result.status().message());
      AppendNotJsonLine(text, why, NotJsonAt{line_number, column, offset + column - 1});
    } else {
      if (!result->valid) ++summary.invalid;
      AppendVerdictLine(text, *result, max_errors);
    }
    text += '\n';
    if (text.size() >= kFlushAt) flush();
  };
  bool eof = false;
  bool skipping = false;  // dropping the rest of a line longer than max_line_bytes
  auto too_long = [&] {
    ++line_number;
    ++summary.instances;
    ++summary.invalid;
    AppendNotJsonLine(text,
                      "a line is longer than " + std::to_string(options.max_line_bytes) +
                          " bytes (" + options.line_limit_name + "): skipped",
                      NotJsonAt{line_number, 1, consumed + begin});
    text += '\n';
  };
  while (!eof) {
    // Keep the unread tail at the front and fill the rest of the block.
    if (begin > 0) {
      std::memmove(buf.data(), buf.data() + begin, end - begin);
      end -= begin;
      consumed += begin;
      begin = 0;
    }
    if (buf.size() - kPadding - end < options.block_size / 2) buf.resize(buf.size() * 2);
    size_t room = buf.size() - kPadding - end;
    size_t got = std::fread(buf.data() + end, 1, room, in);
    if (got < room) {
      if (std::ferror(in)) summary.read_error = std::strerror(errno);
      eof = true;
    }
    end += got;
    const char* data = buf.data();
    for (;;) {
      const void* nl = std::memchr(data + begin, '\n', end - begin);
      if (nl == nullptr) break;
      size_t at = static_cast<const char*>(nl) - data;
      if (!skipping && at - begin > options.max_line_bytes) {
        too_long();  // a whole line in the block, but over the limit all the same
      } else if (!skipping) {
        handle(data + begin, at - begin);
      }
      skipping = false;
      begin = at + 1;
    }
    if (skipping || end - begin > options.max_line_bytes) {
      if (!skipping) too_long();
      skipping = true;
      begin = end;  // the line's bytes so far are dropped
    }
  }
  if (begin < end && !skipping) handle(buf.data() + begin, end - begin);  // no '\n' at the end
  flush();
  std::fflush(out);
  return summary;
}

}  // namespace structure::pipeline
