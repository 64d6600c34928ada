#include "base/media_type.h"

#include <cctype>
#include <string>

#include "base/utf8.h"

namespace structure {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

}  // namespace

std::string_view DetectMediaType(std::string_view bytes) {
  if (StartsWith(bytes, "%PDF-")) return kPdf;
  if (StartsWith(bytes, std::string_view("\x89PNG\r\n\x1a\n", 8))) return kPng;
  if (StartsWith(bytes, "\xff\xd8\xff")) return kJpeg;
  if (bytes.size() >= 12 && StartsWith(bytes, "RIFF") && bytes.substr(8, 4) == "WEBP") return kWebp;
  if (StartsWith(bytes, "GIF87a") || StartsWith(bytes, "GIF89a")) return kGif;
  if (bytes.find('\0') == std::string_view::npos && Utf8ErrorAt(bytes) == std::string_view::npos)
    return kPlainText;
  return "";
}

std::string_view MediaTypeOfName(std::string_view name) {
  size_t dot = name.rfind('.');
  size_t slash = name.find_last_of("/\\");
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return "";
  std::string ext;
  for (char c : name.substr(dot + 1))
    ext += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == "pdf") return kPdf;
  if (ext == "png") return kPng;
  if (ext == "jpg" || ext == "jpeg") return kJpeg;
  if (ext == "webp") return kWebp;
  if (ext == "gif") return kGif;
  if (ext == "txt" || ext == "text" || ext == "md") return kPlainText;
  return "";
}

bool IsKnownMediaType(std::string_view t) {
  return t == kPdf || t == kPng || t == kJpeg || t == kWebp || t == kGif || t == kPlainText;
}

bool IsImage(std::string_view t) { return t == kPng || t == kJpeg || t == kWebp || t == kGif; }

}  // namespace structure
