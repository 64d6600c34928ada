// A PDF's text layer, read locally with poppler's C++ API (Debian libpoppler-cpp-dev), one
// string per page. It checks a PDF before any provider sees it (truncated, encrypted, too many
// pages, unreadable), feeds evidence (a quote is located on a page) and replaces the PDF where a
// provider takes no documents or the caller asks for text.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "structure/status.h"

namespace structure::pipeline {

struct PdfText {
  std::vector<std::string> pages;  // page i's text (valid UTF-8), in reading order
  bool has_text() const;           // false: a scan (no page has a letter or digit)
};

// kInvalidArgument saying what is wrong, for a file `name`:
//   "invoice.pdf: the PDF is truncated (it does not end with %%EOF); attach the complete file"
//   "invoice.pdf: the PDF is encrypted; remove the password (qpdf --decrypt in.pdf out.pdf)"
//   "invoice.pdf: the PDF has 5000 pages, over the limit of 1000"
//   "invoice.pdf: the PDF cannot be read: it is damaged or not a PDF"
// Bounded: at most `max_pages` pages are read, poppler's parser limits object nesting.
Result<PdfText> ReadPdfText(std::string_view bytes, std::string_view name, int max_pages);

// The text layer as one text for a model: each page after a line "[page N]" (1-based).
std::string PdfTextForModel(const PdfText& text, std::string_view name);

}  // namespace structure::pipeline
