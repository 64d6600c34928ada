// Attached files in their JSON forms: a request's "files" array (POST /v1/structure, MCP, batch
// records) and a data URL (the OpenAI-compatible endpoints' file_data and image_url).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/json.h"
#include "structure/request.h"
#include "structure/status.h"

namespace structure::pipeline {

// "data:<media type>[;params];base64,<data>" -> the file (media_type from the URL, data
// decoded). kInvalidArgument naming `field`: not a data URL, a data URL without ";base64", or
// base64 that does not decode.
Result<InputFile> ParseDataUrl(std::string_view url, const std::string& field);

// A request's "files": an array of {"data": base64 or a data URL, "mediaType"?, "name"?} or
// {"url": a data URL, "name"?}. A URL of another scheme is refused (the engine fetches nothing),
// and so is "path" (only batch records and the CLI read files from disk; they replace it with
// data first). The sizes are checked against `limits` as the bytes are decoded.
Result<std::vector<InputFile>> ParseFilesJson(const Json& files, const FileLimits& limits);

// "filesAs": "native" | "text".
Result<FilesAs> ParseFilesAs(const Json& value);

}  // namespace structure::pipeline
