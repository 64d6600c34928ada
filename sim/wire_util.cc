#include "sim/wire_util.h"

#include <cmath>
#include <ctime>

#include "base/time_format.h"
#include "providers/kinds.h"
#include "sim/file_parts.h"
#include "sim/rng.h"

namespace structure::sim {

std::string ContentText(const Json& content) {
  if (content.is_string()) return content.as_string();
  if (!content.is_array()) return content.is_null() ? "" : ToJson(content);
  std::string out;
  for (const auto& part : content.as_array()) {
    const Json* text = part.find("text");
    auto file = FilePartText(part, "part");
    std::string piece = text && text->is_string()        ? text->as_string()
                        : file.ok() && file->has_value() ? **file
                                                         : ToJson(part);
    if (!out.empty()) out += "\n";
    out += piece;
  }
  return out;
}

size_t TextPartCount(const Json& content) {
  if (!content.is_array()) return 1;
  size_t n = 0;
  for (const auto& part : content.as_array()) {
    const Json* text = part.find("text");
    if (text && text->is_string()) ++n;
  }
  return n;
}

std::string StringAtKey(const Json& object, std::string_view key) {
  const Json* v = object.is_object() ? object.find(key) : nullptr;
  return v && v->is_string() ? v->as_string() : std::string();
}

std::string MakeId(std::string_view prefix, uint64_t seed) {
  static const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  Rng rng(seed);
  std::string id(prefix);
  for (int i = 0; i < 24; ++i) id += kAlphabet[rng.Below(62)];
  return id;
}

int64_t UnixNow() { return static_cast<int64_t>(std::time(nullptr)); }

std::string Rfc3339(double seconds_from_now, bool nanos) {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  double whole = std::floor(seconds_from_now);
  time_t t = ts.tv_sec + static_cast<time_t>(whole);
  long ns = ts.tv_nsec + static_cast<long>((seconds_from_now - whole) * 1e9);
  if (ns >= 1000000000L) {
    t += 1;
    ns -= 1000000000L;
  }
  return FormatRfc3339(t, nanos ? std::optional<long>(ns) : std::nullopt);
}

std::string GoDuration(double seconds) {
  if (seconds < 0) seconds = 0;
  if (seconds < 1) return std::to_string(static_cast<int64_t>(std::ceil(seconds * 1000))) + "ms";
  int64_t total = static_cast<int64_t>(std::ceil(seconds));
  int64_t h = total / 3600, m = (total % 3600) / 60, s = total % 60;
  std::string out;
  if (h > 0) out += std::to_string(h) + "h";
  if (h > 0 || m > 0) out += std::to_string(m) + "m";
  out += std::to_string(s) + "s";
  return out;
}

bool OnPathOf(std::string_view path, providers::ProviderKind kind) {
  std::string_view want = providers::InfoOf(kind).path;
  size_t model = want.find("{model}");
  if (model == std::string_view::npos) return path == want;
  return path.substr(0, model) == want.substr(0, model) && path.size() > model;
}

std::string BearerToken(const http::HttpRequest& request) {
  const std::string* auth = request.FindHeader("Authorization");
  if (!auth) return "";
  std::string_view v = *auth;
  if (v.size() < 7 || !http::HeaderNameEquals(v.substr(0, 7), "Bearer ")) return "";
  v.remove_prefix(7);
  while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
  return std::string(v);
}

std::string MaskKey(std::string_view key) {
  if (key.size() <= 8) return std::string(key.substr(0, 2)) + "***";
  return std::string(key.substr(0, 4)) + "..." + std::string(key.substr(key.size() - 4));
}

Result<Json> ParseBodyObject(std::string_view body) {
  ParseOptions options;
  options.source = "body";
  options.max_depth = 256;
  auto parsed = ParseJson(body, options);
  if (!parsed.ok()) return parsed.status();
  if (!parsed->is_object()) return InvalidArgument("body: expected a JSON object");
  return parsed;
}

Status RejectStreaming(const Json& body, std::string_view what) {
  const Json* stream = body.find("stream");
  if (stream && stream->is_bool() && stream->as_bool()) {
    return InvalidArgument("stream: the simulator serves only non-streaming " + std::string(what) +
                           " (set \"stream\": false)");
  }
  return Status::Ok();
}

Status ForceTool(const Json* name, std::string_view missing, std::string_view unknown_before,
                 std::string_view unknown_after, ChatRequest& out) {
  if (!name || !name->is_string()) return InvalidArgument(std::string(missing));
  const std::string& wanted = name->as_string();
  for (const auto& tool : out.tools) {
    if (tool.name == wanted) {
      out.forced_tool = wanted;
      return Status::Ok();
    }
  }
  return InvalidArgument(std::string(unknown_before) + wanted + std::string(unknown_after));
}

void PreferToolCall(bool call, ChatRequest& out) {
  if (call && (out.mode == OutputMode::kText || !out.forced_tool.empty())) {
    out.mode = OutputMode::kTool;
  }
}

void SetRetryHeaders(RetryHint hint, double retry_after_s,
                     const std::vector<http::Header>& limit_headers, http::HttpResponse& resp) {
  switch (hint) {
    case RetryHint::kNone:
      break;
    case RetryHint::kRetryAfter:
      resp.SetHeader("retry-after", std::to_string(static_cast<int64_t>(std::ceil(retry_after_s))));
      break;
    case RetryHint::kRetryAfterMs:
      resp.SetHeader("retry-after-ms",
                     std::to_string(static_cast<int64_t>(std::ceil(retry_after_s * 1000))));
      break;
    case RetryHint::kRateLimitHeaders:
      for (const auto& h : limit_headers) resp.SetHeader(h.first, h.second);
      break;
  }
}

Json ArrayOf(Json item) {
  Json array = Json::MakeArray();
  array.push_back(std::move(item));
  return array;
}

Json TokenCounts(const Usage& usage, std::string_view input_key, std::string_view output_key,
                 std::string_view total_key) {
  Json counts = Json::MakeObject();
  counts.set(input_key, usage.input_tokens);
  counts.set(output_key, usage.output_tokens);
  counts.set(total_key, usage.input_tokens + usage.output_tokens);
  return counts;
}

}  // namespace structure::sim
