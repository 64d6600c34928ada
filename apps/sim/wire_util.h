// Small helpers shared by the simulator's wire formats: reading message content, ids, times.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "apps/http/http_message.h"
#include "base/json.h"

namespace structure::sim {

// Text of a message content that is a string, or an array of parts with "text" members;
// other parts (tool calls, results, images) contribute their compact JSON.
std::string ContentText(const Json& content);

// "<prefix><24 alphanumerics>" derived from seed (deterministic ids).
std::string MakeId(std::string_view prefix, uint64_t seed);

// Seconds since the epoch, and RFC 3339 UTC times ("2026-11-29T20:00:00Z", with nanos for Ollama).
int64_t UnixNow();
std::string Rfc3339(double seconds_from_now, bool nanos = false);

// "6m0s"-style duration as OpenAI's x-ratelimit-reset-* headers write it ("1s", "250ms", "1m30s").
std::string GoDuration(double seconds);

// The bearer token of "Authorization: Bearer X", or "" when absent or malformed.
std::string BearerToken(const http::HttpRequest& request);

// A key for error messages: "sk-a...wxyz" (never the whole key).
std::string MaskKey(std::string_view key);

// kInvalidArgument when the request asks for "stream": true (the simulator answers whole
// `what`, e.g. "chat completions").
Status RejectStreaming(const Json& body, std::string_view what);

// Parses the body as a JSON object; kInvalidArgument with the parser's message otherwise.
Result<Json> ParseBodyObject(std::string_view body);

}  // namespace structure::sim
