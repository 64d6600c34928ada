// The provider errors that say a response schema is too large or too complex to compile: the
// class a smaller schema passes, which the engine answers by splitting the schema in two and
// asking again at once (pipeline/loop/split_loop.h), and whose size it remembers per model. One
// table, matched on the HTTP status, the provider's error type and its documented wording; the
// simulator answers with the same bodies.
#pragma once

#include <span>
#include <string_view>

namespace structure::providers {

struct SchemaTooLargeError {
  const char* provider;  // the provider kind whose error it is ("anthropic", "gemini", ...)
  int status;            // HTTP status
  const char* type;      // the error type as ExtractProviderError reads it
  const char* wording;   // a fragment of the message that identifies the error (case-insensitive)
  const char* message;   // the whole message as the provider writes it ("{size}" and "{limit}"
                         // stand for the numbers it states)
  const char* source;    // where the wording is documented or reported
};

std::span<const SchemaTooLargeError> SchemaTooLargeErrors();

// True when an error answer is one of the table's.
bool IsSchemaTooLarge(int http_status, std::string_view error_type, std::string_view message);

// The table's row for `provider` (the first one), or nullptr.
const SchemaTooLargeError* SchemaTooLargeErrorOf(std::string_view provider);

}  // namespace structure::providers
