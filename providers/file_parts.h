// Files in provider calls: which media types each provider kind takes in its own document or
// image part, and the pieces every wire format writes them with. Sources of the facts (each
// provider's documentation, 2025-2026):
//   OpenAI chat: "file" parts (PDF, file_data a base64 data URL, filename) and "image_url"
//     parts (PNG, JPEG, WebP, non-animated GIF) - platform.openai.com/docs/guides/pdf-files,
//     /docs/guides/images-vision.
//   Anthropic: "document" blocks with a base64 source (application/pdf) and "image" blocks
//     (image/jpeg, image/png, image/gif, image/webp) - docs.anthropic.com/en/docs/build-with-
//     claude/pdf-support, /vision.
//   Gemini: "inlineData" parts {mimeType, data} (application/pdf, image/png, image/jpeg,
//     image/webp; GIF is not in the list) - ai.google.dev/gemini-api/docs/document-processing,
//     /image-understanding.
//   Ollama: a message's "images" (base64; PNG and JPEG), no documents - docs.ollama.com/api.
//   OpenAI-compatible servers (vLLM, llama.cpp, llamafile): "image_url" parts; no "file" parts,
//     so PDFs go as their text layer.
#pragma once

#include <string>
#include <string_view>

#include "providers/call.h"
#include "providers/endpoint.h"

namespace structure::providers {

enum class FileRoute {
  kNative,   // the provider's own part, base64 bytes
  kAsText,   // the text (a text file; a PDF's text layer where documents are not taken)
  kRefused,  // the provider takes no such file
};

// How `kind` takes a file of `media_type` (base/media_type.h).
FileRoute RouteOf(ProviderKind kind, std::string_view media_type);

// The media types `kind` takes natively, for messages ("PDF, PNG, JPEG, WebP and GIF").
std::string_view NativeTypesOf(ProviderKind kind);

// "data:<media_type>;base64,<bytes in base64>".
std::string DataUrl(const FilePart& file);

}  // namespace structure::providers
