#include "pipeline/validator/validate_lines.h"

#include <cerrno>
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

void AppendNotJsonLine(std::string& out, const std::string& message) {
  AppendField(out, R"({"valid":false,"error":)", message);
  out += '}';
}

ValidateLinesSummary ValidateLines(const pipeline::Validator& validator, std::FILE* in,
                                   std::FILE* out, const ValidateLinesOptions& options) {
  ValidateLinesSummary summary;
  const size_t max_errors = validator.max_errors();
  std::vector<char> buf(options.block_size + kPadding);
  size_t begin = 0, end = 0;  // unread data is buf[begin, end)
  std::string text;
  text.reserve(kFlushAt + 4096);
  auto flush = [&] {
    if (!text.empty()) std::fwrite(text.data(), 1, text.size(), out);
    text.clear();
  };
  auto handle = [&](const char* p, size_t n) {
    if (IsBlank(p, n)) return;
    ++summary.instances;
    auto result = validator.ValidatePaddedText(std::string_view(p, n), options.all_errors);
    if (!result.ok()) {
      ++summary.invalid;
      AppendNotJsonLine(text, result.status().message());
    } else {
      if (!result->valid) ++summary.invalid;
      AppendVerdictLine(text, *result, max_errors);
    }
    text += '\n';
    if (text.size() >= kFlushAt) flush();
  };
  bool eof = false;
  while (!eof) {
    // Keep the unread tail at the front and fill the rest of the block.
    if (begin > 0) {
      std::memmove(buf.data(), buf.data() + begin, end - begin);
      end -= begin;
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
      handle(data + begin, at - begin);
      begin = at + 1;
    }
  }
  if (begin < end) handle(buf.data() + begin, end - begin);  // a last line without '\n'
  flush();
  std::fflush(out);
  return summary;
}

}  // namespace structure::pipeline
