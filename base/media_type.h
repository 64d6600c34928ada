// The media types a request may attach, told from a file's first bytes (never from its name):
// PDF, PNG, JPEG, WebP, GIF and plain text (valid UTF-8 with no NUL byte). The signatures are
// the formats' own: PDF "%PDF-" (ISO 32000-1 section 7.5.2), PNG's 8-byte signature (RFC 2083
// section 3.1), JPEG's SOI marker FF D8 FF, WebP "RIFF....WEBP" (RFC 9649), GIF "GIF87a" or
// "GIF89a".
#pragma once

#include <string_view>

namespace structure {

inline constexpr std::string_view kPdf = "application/pdf";
inline constexpr std::string_view kPng = "image/png";
inline constexpr std::string_view kJpeg = "image/jpeg";
inline constexpr std::string_view kWebp = "image/webp";
inline constexpr std::string_view kGif = "image/gif";
inline constexpr std::string_view kPlainText = "text/plain";

// The media type of `bytes`, or "" when it is none of the six.
std::string_view DetectMediaType(std::string_view bytes);

// The media type a file name's extension promises (".pdf", ".png", ".jpg"/".jpeg", ".webp",
// ".gif", ".txt"/".text"/".md"), case-insensitive; "" for any other or no extension.
std::string_view MediaTypeOfName(std::string_view name);

// One of the six (what a caller may name as a file's media type; "image/jpg" is not one).
bool IsKnownMediaType(std::string_view media_type);

bool IsImage(std::string_view media_type);

}  // namespace structure
