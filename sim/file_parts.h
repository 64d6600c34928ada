// File parts in simulated requests, in each provider's documented shape: OpenAI chat "file"
// ({file: {filename, file_data: a base64 data URL}}) and "image_url" parts, Anthropic "document"
// and "image" blocks with a base64 source, Gemini "inlineData" / "inline_data" parts. The
// simulated model reads a PDF's text layer with the engine's reader (pipeline/files/pdf_text.h),
// so scenarios match text inside a PDF and generated answers quote it; an image reads as a
// marker only.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/json.h"
#include "structure/status.h"

namespace structure::sim {

// What the model reads from `part`: nullopt when it is no file part. An error is the message
// the provider answers a malformed part with (OpenAI's, quoted from its 400 bodies:
// "Invalid file data: '<at>.file.file_data'. Expected a base64-encoded data URL with an
// application/pdf MIME type (e.g. 'data:application/pdf;base64,SGVsbG8sIFdvcmxkIQ=='), but got
// an invalid base64-encoded value."). `at` is the part's place ("messages[1].content[0]").
Result<std::optional<std::string>> FilePartText(const Json& part, const std::string& at);

// The first malformed file part of a message's content (an array of parts), as the provider's
// error; Ok when every file part reads.
Status CheckFileParts(const Json& content, const std::string& at);

}  // namespace structure::sim
