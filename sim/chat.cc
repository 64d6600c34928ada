#include "sim/chat.h"

#include <algorithm>

namespace structure::sim {

Result<ReplyShape> ParseReplyShape(std::string_view name) {
  if (name == "standard") return ReplyShape::kStandard;
  if (name == "content_parts") return ReplyShape::kContentParts;
  if (name == "arguments_missing") return ReplyShape::kArgumentsMissing;
  if (name == "thinking_only") return ReplyShape::kThinkingOnly;
  return InvalidArgument("unknown reply shape '" + std::string(name) +
                         "' (standard, content_parts, arguments_missing, thinking_only)");
}

std::string_view ProviderName(Provider provider) {
  switch (provider) {
    case Provider::kOpenAi:
      return "openai";
    case Provider::kAnthropic:
      return "anthropic";
    case Provider::kGemini:
      return "gemini";
    case Provider::kOllama:
      return "ollama";
  }
  return "unknown";
}

std::string ChatRequest::LastUser() const {
  for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
    if (it->role == "user") return it->text;
  }
  return "";
}

std::string ChatRequest::FirstUser() const {
  for (const auto& m : messages) {
    if (m.role == "user") return m.text;
  }
  return "";
}

std::string ChatRequest::System() const {
  std::string out;
  for (const auto& m : messages) {
    if (m.role != "system") continue;
    if (!out.empty()) out += "\n";
    out += m.text;
  }
  return out;
}

std::string ChatRequest::Conversation() const {
  std::string out;
  for (const auto& m : messages) {
    out += m.role;
    out += ": ";
    out += m.text;
    out += "\n";
  }
  return out;
}

int ChatRequest::Attempt() const {
  int n = 1;
  for (const auto& m : messages) {
    if (m.role == "assistant") ++n;
    if (m.role == "user" && m.text_parts > 1) n += static_cast<int>(m.text_parts - 1);
  }
  return n;
}

int64_t EstimateTokens(std::string_view text) {
  return static_cast<int64_t>((text.size() + 3) / 4);
}

int64_t EstimateInputTokens(const ChatRequest& request) {
  size_t bytes = 0;
  for (const auto& m : request.messages) bytes += m.text.size();
  if (!request.schema->is_null()) bytes += JsonTextSize(*request.schema);
  for (const auto& t : request.tools) bytes += t.name.size() + JsonTextSize(*t.schema);
  return std::max<int64_t>(1, static_cast<int64_t>((bytes + 3) / 4));
}

}  // namespace structure::sim
