#include "pipeline/files/pdf_text.h"

#include <poppler-document.h>
#include <poppler-global.h>
#include <poppler-page.h>

#include <cctype>
#include <climits>
#include <memory>
#include <mutex>

#include "base/utf8.h"

namespace structure::pipeline {
namespace {

// Poppler reports syntax errors on stderr by default; the caller gets one clear error instead.
void Quiet(const std::string&, void*) {}

void SilencePoppler() {
  static std::once_flag once;
  std::call_once(once, [] { poppler::set_debug_error_function(Quiet, nullptr); });
}

// A complete PDF ends with "%%EOF" (ISO 32000-1 section 7.5.5), perhaps followed by line ends;
// readers look for it in the last 1024 bytes.
bool EndsWithEof(std::string_view bytes) {
  std::string_view tail = bytes.substr(bytes.size() > 1024 ? bytes.size() - 1024 : 0);
  return tail.find("%%EOF") != std::string_view::npos;
}

std::string Error(std::string_view name, std::string_view what) {
  std::string message(name);
  message += ": the PDF ";
  message += what;
  return message;
}

// Poppler's text as valid UTF-8 (an invalid sequence becomes U+FFFD).
std::string ValidUtf8(const std::vector<char>& raw) {
  std::string_view text(raw.data(), raw.size());
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    size_t n = Utf8SequenceLength(text, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

}  // namespace

bool PdfText::has_text() const {
  for (const std::string& p : pages) {
    for (char c : p) {
      if (std::isalnum(static_cast<unsigned char>(c)) || static_cast<unsigned char>(c) >= 0x80)
        return true;
    }
  }
  return false;
}

Result<PdfText> ReadPdfText(std::string_view bytes, std::string_view name, int max_pages) {
  SilencePoppler();
  if (bytes.size() > static_cast<size_t>(INT_MAX))
    return InvalidArgument(Error(name, "is too large to read"));
  if (!EndsWithEof(bytes))
    return InvalidArgument(
        Error(name, "is truncated (it does not end with %%EOF); attach the complete file"));
  std::unique_ptr<poppler::document> doc(
      poppler::document::load_from_raw_data(bytes.data(), static_cast<int>(bytes.size())));
  if (doc == nullptr) {
    // Poppler cannot tell "wrong password" from "damaged" here: look for the encryption
    // dictionary the trailer names.
    if (bytes.find("/Encrypt") != std::string_view::npos)
      return InvalidArgument(
          Error(name,
                "is encrypted; remove the password (e.g. qpdf --decrypt in.pdf out.pdf) "
                "and attach it again"));
    return InvalidArgument(Error(name, "cannot be read: it is damaged or not a PDF"));
  }
  if (doc->is_locked() || doc->is_encrypted())
    return InvalidArgument(
        Error(name,
              "is encrypted; remove the password (e.g. qpdf --decrypt in.pdf out.pdf) and "
              "attach it again"));
  int pages = doc->pages();
  if (pages <= 0) return InvalidArgument(Error(name, "has no pages"));
  if (pages > max_pages)
    return InvalidArgument(Error(
        name,
        "has " + std::to_string(pages) + " pages, over the limit of " + std::to_string(max_pages)));
  PdfText out;
  out.pages.reserve(static_cast<size_t>(pages));
  for (int i = 0; i < pages; ++i) {
    std::unique_ptr<poppler::page> page(doc->create_page(i));
    if (page == nullptr) {
      out.pages.emplace_back();
      continue;
    }
    out.pages.push_back(
        ValidUtf8(page->text(poppler::rectf(), poppler::page::raw_order_layout).to_utf8()));
  }
  return out;
}

std::string PdfTextForModel(const PdfText& text, std::string_view name) {
  std::string out;
  out += "[";
  out += name;
  out += ", its text layer]\n";
  for (size_t i = 0; i < text.pages.size(); ++i) {
    out += "[page " + std::to_string(i + 1) + "]\n";
    out += text.pages[i];
    if (!text.pages[i].empty() && text.pages[i].back() != '\n') out += '\n';
  }
  return out;
}

}  // namespace structure::pipeline
