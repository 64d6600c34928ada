#include "sim/context_window.h"

#include <string_view>
#include <utility>

#include "providers/context_too_long.h"

namespace structure::sim {

int64_t ContextTokens(const ChatRequest& request) {
  return EstimateInputTokens(request) + request.max_tokens.value_or(0);
}

std::optional<http::HttpResponse> ContextRefusal(const Dialect& dialect, const ChatRequest& request,
                                                 const std::map<std::string, int64_t>& windows) {
  if (windows.empty()) return std::nullopt;
  auto it = windows.find(request.model);
  if (it == windows.end()) it = windows.find("*");
  if (it == windows.end()) return std::nullopt;
  int64_t tokens = ContextTokens(request);
  if (tokens <= it->second) return std::nullopt;
  const providers::ContextTooLongError* e =
      providers::ContextTooLongErrorOf(ProviderName(dialect.provider()));
  if (e == nullptr) return std::nullopt;
  std::string message = e->message;
  for (auto [mark, value] :
       {std::pair<const char*, int64_t>{"{size}", tokens}, {"{limit}", it->second}})
    if (size_t at = message.find(mark); at != std::string::npos)
      message.replace(at, std::string_view(mark).size(), std::to_string(value));
  http::HttpResponse r = dialect.Error(e->status, message, e->type);
  // OpenAI marks it with a code of its own besides the type.
  if (std::string_view(e->provider) == "openai") {
    const std::string from = "\"code\":null";
    if (size_t at = r.body.find(from); at != std::string::npos)
      r.body.replace(at, from.size(), "\"code\":\"context_length_exceeded\"");
  }
  return r;
}

}  // namespace structure::sim
