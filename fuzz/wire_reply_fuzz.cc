// libFuzzer target: every wire format's reply parser (providers/*: OpenAI chat, Anthropic
// messages, Gemini generateContent, Ollama chat, OpenAI-compatible, OpenRouter). The first
// byte picks the provider kind and the HTTP status (a success or an error body); the rest is
// the response body.
#include <cstddef>
#include <cstdint>
#include <string>

#include "providers/wire.h"

using structure::providers::ProviderKind;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static constexpr ProviderKind kKinds[] = {ProviderKind::kOpenAi,       ProviderKind::kAnthropic,
                                            ProviderKind::kGemini,       ProviderKind::kOllama,
                                            ProviderKind::kOpenAiCompat, ProviderKind::kOpenRouter};
  static constexpr int kStatus[] = {200, 200, 200, 200, 400, 401, 404, 429, 500, 503, 529, 200};
  ProviderKind kind = kKinds[data[0] % 6];
  structure::providers::HttpResponse response;
  response.status = kStatus[(data[0] / 6) % 12];
  response.body.assign(reinterpret_cast<const char*>(data) + 1, size - 1);
  response.headers = {{"content-type", "application/json"}, {"retry-after", "1"}};
  auto reply = structure::providers::ParseReply(kind, response);
  if (reply.ok()) (void)structure::providers::FinishStatus(*reply);
  return 0;
}
