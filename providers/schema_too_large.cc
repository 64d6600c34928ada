#include "providers/schema_too_large.h"

#include <algorithm>
#include <cctype>

namespace structure::providers {
namespace {

// The wording of each row is quoted from the source named beside it (public issue threads of
// the providers' own SDKs, where users posted the exact error bodies).
const SchemaTooLargeError kErrors[] = {
    {"anthropic", 400, "invalid_request_error", "compiled grammar is too large",
     "The compiled grammar is too large, which would cause performance issues. Simplify your "
     "tool schemas or reduce the number of strict tools.",
     "github.com/anthropics/anthropic-sdk-python/issues/1185"},
    {"gemini", 400, "INVALID_ARGUMENT", "too many states for serving",
     "The specified schema produces a constraint that has too many states for serving.  Typical "
     "causes of this error are schemas with lots of text (for example, very long property or "
     "enum names), schemas with long array length limits (especially when nested), or schemas "
     "using complex value matchers (for example, integers or numbers with minimum/maximum bounds "
     "or strings with complex formats like date-time)",
     "github.com/googleapis/python-genai/issues/660"},
    {"openai", 400, "invalid_request_error", "parameters exceed the limit of",
     "Invalid schema for response_format 'response': {size} parameters exceed the limit of "
     "{limit}.",
     "github.com/openai/openai-node/issues/1176"},
};

bool ContainsNoCase(std::string_view text, std::string_view fragment) {
  auto it =
      std::search(text.begin(), text.end(), fragment.begin(), fragment.end(), [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) ==
               std::tolower(static_cast<unsigned char>(b));
      });
  return it != text.end();
}

}  // namespace

std::span<const SchemaTooLargeError> SchemaTooLargeErrors() { return kErrors; }

bool IsSchemaTooLarge(int http_status, std::string_view error_type, std::string_view message) {
  for (const SchemaTooLargeError& e : kErrors)
    if (e.status == http_status && error_type == e.type && ContainsNoCase(message, e.wording))
      return true;
  return false;
}

const SchemaTooLargeError* SchemaTooLargeErrorOf(std::string_view provider) {
  for (const SchemaTooLargeError& e : kErrors)
    if (provider == e.provider) return &e;
  return nullptr;
}

}  // namespace structure::providers
