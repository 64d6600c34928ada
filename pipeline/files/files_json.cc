#include "pipeline/files/files_json.h"

#include "base/base64.h"

namespace structure::pipeline {
namespace {

Status Bad(const std::string& field, const std::string& what) {
  return InvalidArgument(field + ": " + what);
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

// At most this many bytes of a caller's text in a message.
std::string Shown(std::string_view s) {
  constexpr size_t kMax = 40;
  std::string out(s.substr(0, kMax));
  if (s.size() > kMax) out += "...";
  return out;
}

Result<std::string> Decode(std::string_view text, const std::string& field) {
  auto bytes = Base64Decode(text);
  if (!bytes) return Bad(field, "is not valid base64");
  return std::move(*bytes);
}

}  // namespace

Result<InputFile> ParseDataUrl(std::string_view url, const std::string& field) {
  if (!StartsWith(url, "data:"))
    return Bad(field,
               "must be a data URL (data:<media type>;base64,<data>), was \"" + Shown(url) + "\"");
  size_t comma = url.find(',');
  if (comma == std::string_view::npos)
    return Bad(field, "the data URL has no \",\" before its data");
  std::string_view header = url.substr(5, comma - 5);
  bool base64 = header.size() >= 7 && header.substr(header.size() - 7) == ";base64";
  if (!base64)
    return Bad(field,
               "the data URL is not base64 (it needs \";base64\" before the \",\": "
               "data:application/pdf;base64,...)");
  InputFile f;
  std::string_view type = header.substr(0, header.size() - 7);
  f.media_type = std::string(type.substr(0, type.find(';')));
  auto data = Decode(url.substr(comma + 1), field);
  if (!data.ok()) return data.status();
  f.data = std::move(*data);
  return f;
}

Result<std::vector<InputFile>> ParseFilesJson(const Json& files, const FileLimits& limits) {
  if (!files.is_array()) return Bad("files", "must be an array of files");
  if (files.as_array().size() > limits.max_files)
    return Bad("files", std::to_string(files.as_array().size()) + " files, over the limit of " +
                            std::to_string(limits.max_files));
  std::vector<InputFile> out;
  for (size_t i = 0; i < files.as_array().size(); ++i) {
    const Json& e = files.as_array()[i];
    std::string field = "files[" + std::to_string(i) + "]";
    if (!e.is_object())
      return Bad(field, "must be an object: {\"data\": base64, \"mediaType\"} or {\"url\"}");
    for (const auto& [key, value] : e.as_object()) {
      if (key != "data" && key != "mediaType" && key != "name" && key != "url" && key != "path")
        return Bad(field + "." + key, "unknown field (data, mediaType, name, url)");
      if (!value.is_string()) return Bad(field + "." + key, "must be a string");
    }
    if (e.find("path") != nullptr)
      return Bad(field + ".path",
                 "files are read from disk only by batch records and `structure run --file`; "
                 "send the bytes as \"data\" (base64)");
    const Json* data = e.find("data");
    const Json* url = e.find("url");
    if ((data == nullptr) == (url == nullptr))
      return Bad(field, "give one of \"data\" (base64) and \"url\" (a data URL)");
    // Base64 is 4/3 of the bytes: a text much longer than the limit allows is refused unread.
    const std::string& text = data ? data->as_string() : url->as_string();
    if (text.size() / 4 * 3 > limits.max_file_bytes + 3)
      return Bad(field, "about " + std::to_string(text.size() / 4 * 3) +
                            " bytes, over the limit of " + std::to_string(limits.max_file_bytes) +
                            " bytes a file");
    InputFile f;
    if (url != nullptr) {
      if (!StartsWith(text, "data:"))
        return Bad(field + ".url",
                   "the engine does not fetch URLs (was \"" + Shown(text) +
                       "\"); download the file and send its bytes as \"data\" (base64)");
      auto parsed = ParseDataUrl(text, field + ".url");
      if (!parsed.ok()) return parsed.status();
      f = std::move(*parsed);
    } else if (StartsWith(text, "data:")) {
      auto parsed = ParseDataUrl(text, field + ".data");
      if (!parsed.ok()) return parsed.status();
      f = std::move(*parsed);
    } else {
      auto bytes = Decode(text, field + ".data");
      if (!bytes.ok()) return bytes.status();
      f.data = std::move(*bytes);
    }
    if (const Json* t = e.find("mediaType")) f.media_type = t->as_string();
    if (const Json* n = e.find("name")) f.name = n->as_string();
    out.push_back(std::move(f));
  }
  return out;
}

Result<FilesAs> ParseFilesAs(const Json& value) {
  if (value.is_string() && value.as_string() == "native") return FilesAs::kNative;
  if (value.is_string() && value.as_string() == "text") return FilesAs::kText;
  return Bad("filesAs", "must be \"native\" or \"text\" (was " + ToJson(value) + ")");
}

}  // namespace structure::pipeline
