// The `messages` of a Chat Completions request as a structure conversation: system and developer
// messages become the caller's instructions, user and assistant messages the turns, in order,
// roles kept. A user message's chat "file" part (file_data, a base64 data URL) and "image_url"
// part (a data URL) become attached files; audio, and files by id or URL, are refused naming
// the part. Pure.
#pragma once

#include <cstddef>
#include <string>
#include <variant>
#include <vector>

#include "base/json.h"
#include "server/openai/openai_error.h"
#include "structure/request.h"

namespace structure::server::openai {

struct Conversation {
  std::vector<ConversationTurn> turns;
  std::string prompt;            // the user turns' text, joined by blank lines
  std::string instructions;      // the system and developer messages' text, joined by blank lines
  std::vector<InputFile> files;  // the user messages' file and image parts, in order
};

// The text of one message's content (named `param` in errors): a string, or an array of text
// parts ("text", or the Responses API's "input_text" / "output_text"; an assistant's refusal
// part counts as its text), joined by newlines. An image, audio or file part is refused naming
// it ("image parts are not supported"), as is a part type nobody knows. With `files`, chat
// "file" and "image_url" parts with data URLs are read into it instead.
std::variant<std::string, ApiError> ContentText(const Json& content, const std::string& param,
                                                std::vector<InputFile>* files = nullptr);

// `messages` is the field's value (nullptr when absent). A tool message becomes a user turn
// ("Result of tool call ID: ..."), an assistant's tool calls the text of their arguments. At
// least one user message is required; all text together at most `max_prompt_bytes` (413).
std::variant<Conversation, ApiError> ParseMessages(const Json* messages, size_t max_prompt_bytes);

}  // namespace structure::server::openai
