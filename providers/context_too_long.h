// The provider errors that say a request is longer than the model's context window: the class
// a shorter input passes, which the engine answers by splitting the input into parts and asking
// again at once (pipeline/input/split.h), and whose window it remembers per model. One table,
// matched on the HTTP status, the provider's error type and its documented wording; the
// simulator answers with the same bodies.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace structure::providers {

struct ContextTooLongError {
  const char* provider;  // the provider kind whose error it is ("anthropic", "gemini", ...)
  int status;            // HTTP status
  const char* type;      // the error type as ExtractProviderError reads it ("" = any)
  const char* wording;   // a fragment of the message that identifies the error (case-insensitive)
  const char* window_after;  // the text the window's token count follows ("" = not stated)
  const char* message;       // the whole message as the provider writes it ("{size}" and
                             // "{limit}" stand for the request's tokens and the window)
  const char* source;        // where the wording is documented or reported
};

std::span<const ContextTooLongError> ContextTooLongErrors();

// True when an error answer is one of the table's.
bool IsContextTooLong(int http_status, std::string_view error_type, std::string_view message);

// The window the message states ("maximum context length is 8192 tokens" -> 8192), 0 when it
// states none. Reads any of the table's forms.
int64_t StatedContextWindow(std::string_view message);

// The table's row for `provider` (the first one), or nullptr.
const ContextTooLongError* ContextTooLongErrorOf(std::string_view provider);

}  // namespace structure::providers
