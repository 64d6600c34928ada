#include "sim/file_parts.h"

#include "base/base64.h"
#include "base/media_type.h"
#include "pipeline/files/files_json.h"
#include "pipeline/files/pdf_text.h"

namespace structure::sim {
namespace {

constexpr int kMaxPages = 1000;

std::string Str(const Json* v) { return v != nullptr && v->is_string() ? v->as_string() : ""; }

const Json* Find(const Json& o, std::string_view a, std::string_view b) {
  const Json* v = o.find(a);
  return v != nullptr ? v : o.find(b);
}

// What a model reads from decoded bytes of `media_type`.
Result<std::string> Read(const std::string& bytes, std::string_view media_type,
                         const std::string& name, const std::string& at) {
  std::string_view type = DetectMediaType(bytes);
  if (type == kPdf) {
    auto text = pipeline::ReadPdfText(bytes, name.empty() ? "document" : name, kMaxPages);
    if (!text.ok()) return InvalidArgument(at + ": " + text.status().message());
    return pipeline::PdfTextForModel(*text, name.empty() ? "document" : name);
  }
  if (IsImage(type)) return "[image " + std::string(type) + "]";
  (void)media_type;
  return InvalidArgument(at + ": the file's bytes are not a supported document or image");
}

std::string OpenAiFileError(const std::string& at, const std::string& got) {
  return "Invalid file data: '" + at +
         ".file.file_data'. Expected a base64-encoded data URL with an application/pdf MIME type "
         "(e.g. 'data:application/pdf;base64,SGVsbG8sIFdvcmxkIQ=='), but got " +
         got + ".";
}

Result<std::optional<std::string>> OpenAiFile(const Json& part, const std::string& at) {
  const Json* file = part.find("file");
  std::string data = file ? Str(file->find("file_data")) : "";
  if (data.empty())
    return InvalidArgument("Missing required parameter: '" + at + ".file.file_id'.");
  auto parsed = pipeline::ParseDataUrl(data, "file_data");
  if (!parsed.ok()) return InvalidArgument(OpenAiFileError(at, "an invalid base64-encoded value"));
  if (parsed->media_type != kPdf)
    return InvalidArgument(
        OpenAiFileError(at, "unsupported MIME type '" + parsed->media_type + "'"));
  auto text = Read(parsed->data, parsed->media_type, Str(file->find("filename")), at);
  if (!text.ok()) return text.status();
  return std::optional<std::string>(std::move(*text));
}

Result<std::optional<std::string>> OpenAiImage(const Json& part, const std::string& at) {
  const Json* image = part.find("image_url");
  std::string url = image ? Str(image->find("url")) : "";
  if (url.empty()) return InvalidArgument("Missing required parameter: '" + at + ".image_url'.");
  auto parsed = pipeline::ParseDataUrl(url, "url");
  if (!parsed.ok() || !IsImage(DetectMediaType(parsed->data)))
    return InvalidArgument(
        "Invalid image data: '" + at +
        ".image_url.url'. Expected a base64-encoded data URL with an image MIME type.");
  return std::optional<std::string>("[image " + parsed->media_type + "]");
}

// Anthropic "document" / "image" blocks with {"source": {"type": "base64", "media_type",
// "data"}}.
Result<std::optional<std::string>> AnthropicBlock(const Json& part, const std::string& type,
                                                  const std::string& at) {
  const Json* source = part.find("source");
  if (source == nullptr || Str(source->find("type")) != "base64")
    return std::optional<std::string>("[" + type + "]");  // url / file sources: not read here
  std::string media_type = Str(source->find("media_type"));
  if (type == "document" && media_type != kPdf && media_type != kPlainText)
    return InvalidArgument(at + ".source.media_type: Input should be 'application/pdf'");
  if (type == "image" && !IsImage(media_type))
    return InvalidArgument(at +
                           ".source.media_type: Input should be 'image/jpeg', "
                           "'image/png', 'image/gif' or 'image/webp'");
  auto bytes = Base64Decode(Str(source->find("data")));
  if (!bytes) return InvalidArgument(at + ".source.base64.data: invalid base64 data");
  if (DetectMediaType(*bytes) != media_type)
    return InvalidArgument(at + ".source.base64: the " + type +
                           " does not match the provided media type " + media_type);
  auto text = Read(*bytes, media_type, Str(part.find("title")), at);
  if (!text.ok()) return text.status();
  return std::optional<std::string>(std::move(*text));
}

// Gemini "inlineData" / "inline_data" with "mimeType" / "mime_type" and "data".
Result<std::optional<std::string>> GeminiInline(const Json& inline_data, const std::string& at) {
  std::string mime = Str(Find(inline_data, "mimeType", "mime_type"));
  auto bytes = Base64Decode(Str(inline_data.find("data")));
  if (!bytes)
    return InvalidArgument("Invalid value at '" + at +
                           ".inline_data.data' (TYPE_BYTES), Base64 decoding failed");
  if (mime != kPdf && !IsImage(mime) && mime != kPlainText)
    return InvalidArgument("Unsupported MIME type: " + mime);
  auto text = Read(*bytes, mime, "", at);
  if (!text.ok()) return text.status();
  return std::optional<std::string>(std::move(*text));
}

}  // namespace

Result<std::optional<std::string>> FilePartText(const Json& part, const std::string& at) {
  if (!part.is_object()) return std::optional<std::string>();
  if (const Json* d = Find(part, "inlineData", "inline_data"); d != nullptr && d->is_object())
    return GeminiInline(*d, at);
  std::string type = Str(part.find("type"));
  if (type == "file") return OpenAiFile(part, at);
  if (type == "image_url") return OpenAiImage(part, at);
  if (type == "document" || type == "image") return AnthropicBlock(part, type, at);
  return std::optional<std::string>();
}

Status CheckFileParts(const Json& content, const std::string& at) {
  if (!content.is_array()) return Status::Ok();
  for (size_t i = 0; i < content.as_array().size(); ++i) {
    auto text = FilePartText(content.as_array()[i], at + "[" + std::to_string(i) + "]");
    if (!text.ok()) return text.status();
  }
  return Status::Ok();
}

}  // namespace structure::sim
