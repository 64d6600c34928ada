#include "providers/context_too_long.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace structure::providers {
namespace {

// The wording of each row is quoted from the source named beside it (the providers' pages and
// public issue threads of their SDKs and servers, where users posted the exact error bodies).
const ContextTooLongError kErrors[] = {
    {"openai", 400, "invalid_request_error", "maximum context length is",
     "maximum context length is ",
     "This model's maximum context length is {limit} tokens. However, your messages resulted in "
     "{size} tokens. Please reduce the length of the messages.",
     "github.com/crewAIInc/crewAI-examples/issues/121 (the body, code context_length_exceeded)"},
    {"anthropic", 400, "invalid_request_error", "prompt is too long", " > ",
     "prompt is too long: {size} tokens > {limit} maximum",
     "github.com/earendil-works/pi/issues/102 (the body)"},
    {"gemini", 400, "INVALID_ARGUMENT", "exceeds the maximum number of tokens allowed",
     "maximum number of tokens allowed (",
     "The input token count ({size}) exceeds the maximum number of tokens allowed ({limit}).",
     "github.com/google-gemini/gemini-cli/issues/6678 (the body)"},
    // vLLM and other OpenAI-compatible servers word it as OpenAI does, with their own type.
    {"openai-compatible", 400, "", "maximum context length is", "maximum context length is ",
     "This model's maximum context length is {limit} tokens. However, you requested {size} "
     "tokens. Please reduce the length of the messages or completion.",
     "github.com/vllm-project/vllm/issues/20409, body in github.com/ogx-ai/ogx/issues/4534"},
    // llama.cpp's server.
    {"openai-compatible", 400, "exceed_context_size_error", "exceeds the available context size",
     "available context size (",
     "request ({size} tokens) exceeds the available context size ({limit} tokens), try "
     "increasing it",
     "github.com/ggml-org/llama.cpp/pull/15780, github.com/ggml-org/llama.cpp/issues/19774"},
};

size_t FindNoCase(std::string_view text, std::string_view fragment) {
  auto it =
      std::search(text.begin(), text.end(), fragment.begin(), fragment.end(), [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) ==
               std::tolower(static_cast<unsigned char>(b));
      });
  return it == text.end() ? std::string_view::npos : static_cast<size_t>(it - text.begin());
}

}  // namespace

std::span<const ContextTooLongError> ContextTooLongErrors() { return kErrors; }

bool IsContextTooLong(int http_status, std::string_view error_type, std::string_view message) {
  for (const ContextTooLongError& e : kErrors)
    if (e.status == http_status && (*e.type == '\0' || error_type == e.type) &&
        FindNoCase(message, e.wording) != std::string_view::npos)
      return true;
  return false;
}

int64_t StatedContextWindow(std::string_view message) {
  for (const ContextTooLongError& e : kErrors) {
    std::string_view after = e.window_after;
    if (after.empty() || FindNoCase(message, e.wording) == std::string_view::npos) continue;
    size_t at = FindNoCase(message, after);
    if (at == std::string_view::npos) continue;
    int64_t n = 0;
    size_t i = at + after.size(), digits = 0;
    for (;
         i < message.size() && std::isdigit(static_cast<unsigned char>(message[i])) && digits < 12;
         ++i, ++digits)
      n = n * 10 + (message[i] - '0');
    if (digits > 0 && n > 0) return n;
  }
  return 0;
}

const ContextTooLongError* ContextTooLongErrorOf(std::string_view provider) {
  for (const ContextTooLongError& e : kErrors)
    if (provider == e.provider) return &e;
  return nullptr;
}

}  // namespace structure::providers
