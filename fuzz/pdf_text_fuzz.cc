// libFuzzer target: the PDF text layer reader (pipeline/files/pdf_text.h, poppler's C++ API)
// and the file checks around it (media type, PrepareFiles for a kind that reads PDFs natively
// and one that takes their text). Checks: every page's text is valid UTF-8, and what reads as a
// PDF with text reads again the same.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "base/utf8.h"
#include "pipeline/files/input_files.h"
#include "pipeline/files/pdf_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  auto text = structure::pipeline::ReadPdfText(bytes, "fuzz.pdf", 50);
  if (text.ok()) {
    for (const std::string& page : text->pages) {
      if (structure::Utf8ErrorAt(page) != std::string_view::npos) std::abort();
    }
    auto again = structure::pipeline::ReadPdfText(bytes, "fuzz.pdf", 50);
    if (!again.ok() || again->pages != text->pages) std::abort();
  }
  for (auto kind :
       {structure::providers::ProviderKind::kOpenAi, structure::providers::ProviderKind::kOllama}) {
    std::vector<structure::InputFile> files{{"fuzz.pdf", "", bytes}};
    (void)structure::pipeline::PrepareFiles(std::move(files), kind, structure::FilesAs::kNative);
  }
  return 0;
}
