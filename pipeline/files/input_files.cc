#include "pipeline/files/input_files.h"

#include <memory>

#include "base/media_type.h"
#include "pipeline/files/pdf_text.h"
#include "providers/file_parts.h"
#include "providers/kinds.h"

namespace structure::pipeline {
namespace {

std::string Label(const InputFile& f, size_t i) {
  std::string label = "files[" + std::to_string(i) + "]";
  if (!f.name.empty()) label += " (" + f.name + ")";
  return label;
}

std::string TypeName(std::string_view media_type) {
  if (media_type == kPdf) return "a PDF";
  if (media_type == kPng) return "a PNG image";
  if (media_type == kJpeg) return "a JPEG image";
  if (media_type == kWebp) return "a WebP image";
  if (media_type == kGif) return "a GIF image";
  if (media_type == kPlainText) return "plain text";
  return std::string(media_type);
}

Status Bad(const std::string& label, const std::string& what) {
  return InvalidArgument(label + ": " + what);
}

}  // namespace

Result<PreparedFiles> PrepareFiles(std::vector<InputFile> files, providers::ProviderKind kind,
                                   FilesAs files_as, const FileLimits& limits) {
  PreparedFiles out;
  if (files.size() > limits.max_files)
    return InvalidArgument("files: " + std::to_string(files.size()) + " files, over the limit of " +
                           std::to_string(limits.max_files) + " a request");
  size_t total = 0;
  std::string provider(providers::InfoOf(kind).name);
  for (size_t i = 0; i < files.size(); ++i) {
    InputFile& f = files[i];
    std::string label = Label(f, i);
    if (f.data.empty()) return Bad(label, "the file is empty");
    if (f.data.size() > limits.max_file_bytes)
      return Bad(label, std::to_string(f.data.size()) + " bytes, over the limit of " +
                            std::to_string(limits.max_file_bytes) + " bytes a file");
    total += f.data.size();
    if (total > limits.max_total_bytes)
      return Bad(label, "the files come to " + std::to_string(total) +
                            " bytes, over the limit of " + std::to_string(limits.max_total_bytes) +
                            " bytes a request");
    std::string_view type = DetectMediaType(f.data);
    if (type.empty())
      return Bad(label,
                 "not a PDF, PNG, JPEG, WebP, GIF or UTF-8 text file (told from its bytes); "
                 "convert it to one of these");
    if (!f.media_type.empty() && f.media_type != type)
      return Bad(label, "declared as " + f.media_type + " but its bytes are " + TypeName(type) +
                            " (" + std::string(type) + ")");
    std::string_view by_name = MediaTypeOfName(f.name);
    if (!by_name.empty() && by_name != type)
      return Bad(label, "the name says " + TypeName(by_name) + " but the bytes are " +
                            TypeName(type) + "; attach the right file or rename it");
    providers::FileRoute route = providers::RouteOf(kind, type);
    if (route == providers::FileRoute::kRefused)
      return Bad(label, std::string(type) + " cannot go to " + provider + ", which takes " +
                            std::string(providers::NativeTypesOf(kind)) +
                            "; convert the file or route the request to another provider");
    providers::FilePart part;
    part.name = f.name.empty() ? "file" + std::to_string(i + 1) : f.name;
    part.media_type = std::string(type);
    if (type == kPdf) {
      auto text = ReadPdfText(f.data, label, limits.max_pdf_pages);
      if (!text.ok()) return text.status();
      part.pages = static_cast<int>(text->pages.size());
      bool as_text = route == providers::FileRoute::kAsText || files_as == FilesAs::kText;
      if (!text->has_text()) {
        if (as_text)
          return Bad(label, "the PDF has no text layer (a scan), and " +
                                std::string(route == providers::FileRoute::kAsText
                                                ? provider + " reads PDFs only as text"
                                                : std::string("filesAs is \"text\"")) +
                                "; send its pages as PNG or JPEG images, or route the request to a "
                                "provider that reads PDFs (openai, anthropic, gemini)");
        out.scans.push_back(part.name);
      } else {
        for (size_t p = 0; p < text->pages.size(); ++p)
          out.pages.push_back({part.name, static_cast<int>(p + 1), text->pages[p]});
      }
      if (as_text) {
        part.text = std::make_shared<const std::string>(PdfTextForModel(*text, part.name));
        out.notes.push_back(part.name + ": sent as its text layer (" +
                            (route == providers::FileRoute::kAsText
                                 ? provider + " takes no PDF documents"
                                 : std::string("filesAs \"text\"")) +
                            ")");
      }
    } else if (type == kPlainText) {
      out.pages.push_back({part.name, 0, f.data});
      part.text = std::make_shared<const std::string>("[" + part.name + "]\n" + f.data);
    } else {
      out.images.push_back(part.name);
    }
    part.data = std::make_shared<const std::string>(std::move(f.data));
    out.parts.push_back(std::move(part));
  }
  return out;
}

}  // namespace structure::pipeline
