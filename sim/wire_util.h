// Small helpers shared by the simulator's wire formats: reading message content and tool
// choices, ids, times, and the pieces of a reply.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/json.h"
#include "http/http_message.h"
#include "providers/endpoint.h"
#include "sim/dialect.h"

namespace structure::sim {

// Text of a message content that is a string, or an array of parts with "text" members;
// other parts (tool calls, results, images) contribute their compact JSON.
std::string ContentText(const Json& content);

// Parts of such a content that carry text (1 for a string).
size_t TextPartCount(const Json& content);

// The string member `key` of an object, or "" (not an object, absent, not a string).
std::string StringAtKey(const Json& object, std::string_view key);

// "<prefix><24 alphanumerics>" derived from seed (deterministic ids).
std::string MakeId(std::string_view prefix, uint64_t seed);

// Seconds since the epoch, and RFC 3339 UTC times ("2026-11-29T20:00:00Z", with nanos for Ollama).
int64_t UnixNow();
std::string Rfc3339(double seconds_from_now, bool nanos = false);

// "6m0s"-style duration as OpenAI's x-ratelimit-reset-* headers write it ("1s", "250ms", "1m30s").
std::string GoDuration(double seconds);

// The bearer token of "Authorization: Bearer X", or "" when absent or malformed.
std::string BearerToken(const http::HttpRequest& request);

// True when `path` is the request path of `kind` in the kind table (providers/kinds.h): equal to
// it, or for a path with "{model}" (Gemini) starting with what comes before it.
bool OnPathOf(std::string_view path, providers::ProviderKind kind);

// A key for error messages: "sk-a...wxyz" (never the whole key).
std::string MaskKey(std::string_view key);

// kInvalidArgument when the request asks for "stream": true (the simulator answers whole
// `what`, e.g. "chat completions").
Status RejectStreaming(const Json& body, std::string_view what);

// Parses the body as a JSON object; kInvalidArgument with the parser's message otherwise.
Result<Json> ParseBodyObject(std::string_view body);

// Sets out.forced_tool from the name member of a tool_choice that forces one tool (`name`,
// nullptr when absent). kInvalidArgument with `missing` when it is not a string, and with
// unknown_before + name + unknown_after when out.tools declares no tool of that name.
Status ForceTool(const Json* name, std::string_view missing, std::string_view unknown_before,
                 std::string_view unknown_after, ChatRequest& out);

// Makes the answer a tool call when `call` allows one and the request asks for no other output
// or forces a tool.
void PreferToolCall(bool call, ChatRequest& out);

// The headers an injected 429 carries for `hint`: kRetryAfter "retry-after" (whole seconds,
// rounded up), kRetryAfterMs "retry-after-ms", kRateLimitHeaders `limit_headers`, kNone none.
void SetRetryHeaders(RetryHint hint, double retry_after_s,
                     const std::vector<http::Header>& limit_headers, http::HttpResponse& resp);

// [item]: replies wrap their one choice, candidate, part or call in an array.
Json ArrayOf(Json item);

// {input_key: in, output_key: out, total_key: in + out}: a reply's token counts.
Json TokenCounts(const Usage& usage, std::string_view input_key, std::string_view output_key,
                 std::string_view total_key);

}  // namespace structure::sim
