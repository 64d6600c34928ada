#include "providers/file_parts.h"

#include "base/base64.h"
#include "base/media_type.h"

namespace structure::providers {

FileRoute RouteOf(ProviderKind kind, std::string_view t) {
  if (t == kPlainText) return FileRoute::kAsText;
  switch (kind) {
    case ProviderKind::kOpenAi:
    case ProviderKind::kOpenRouter:
    case ProviderKind::kAnthropic:
      return t == kPdf || IsImage(t) ? FileRoute::kNative : FileRoute::kRefused;
    case ProviderKind::kGemini:
      return t == kPdf || t == kPng || t == kJpeg || t == kWebp ? FileRoute::kNative
                                                                : FileRoute::kRefused;
    case ProviderKind::kOllama:
      if (t == kPdf) return FileRoute::kAsText;
      return t == kPng || t == kJpeg ? FileRoute::kNative : FileRoute::kRefused;
    case ProviderKind::kOpenAiCompat:
    case ProviderKind::kVllm:
    case ProviderKind::kLlamaCpp:
    case ProviderKind::kLlamafile:
      if (t == kPdf) return FileRoute::kAsText;
      return IsImage(t) ? FileRoute::kNative : FileRoute::kRefused;
  }
  return FileRoute::kRefused;
}

std::string_view NativeTypesOf(ProviderKind kind) {
  switch (kind) {
    case ProviderKind::kOpenAi:
    case ProviderKind::kOpenRouter:
    case ProviderKind::kAnthropic:
      return "PDF, PNG, JPEG, WebP and GIF";
    case ProviderKind::kGemini:
      return "PDF, PNG, JPEG and WebP";
    case ProviderKind::kOllama:
      return "PNG and JPEG (PDFs as their text layer)";
    case ProviderKind::kOpenAiCompat:
    case ProviderKind::kVllm:
    case ProviderKind::kLlamaCpp:
    case ProviderKind::kLlamafile:
      return "PNG, JPEG, WebP and GIF (PDFs as their text layer)";
  }
  return "";
}

std::string DataUrl(const FilePart& file) {
  std::string out = "data:" + file.media_type + ";base64,";
  out += Base64Encode(file.data ? std::string_view(*file.data) : std::string_view());
  return out;
}

}  // namespace structure::providers
