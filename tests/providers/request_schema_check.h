// Checks request bodies against the providers' published request schemas
// (tests/data/request_schemas, README.md there): a body must validate, and every field it sends
// must be one the schema declares.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace structure::providers::testing {

// The problems of `body` (a request body's JSON text) against the published schema of a wire
// format: "openai", "openai_responses", "openai_compat", "openrouter", "anthropic", "gemini" or
// "ollama" (the folder names of tests/data/providers). Each is the validator's message or "unknown
// field <pointer>"; empty when the body conforms. An unknown format is one problem.
std::vector<std::string> PublishedSchemaIssues(std::string_view format, std::string_view body);

}  // namespace structure::providers::testing
