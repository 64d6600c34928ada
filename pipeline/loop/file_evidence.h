// Evidence over attached files. Quotes are located in one text: the prompt, then each page of
// each PDF's text layer (and each text file), joined by blank lines; a located quote is then
// placed on its page: "file", "page" (1-based; 0 for a text file) and its offsets within that
// page's text. Files with no text to check (images, scanned PDFs) make a quote found nowhere
// "unchecked" instead of ungrounded: the model may have read it there.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/json.h"
#include "pipeline/files/input_files.h"

namespace structure::pipeline {

// One stretch of the evidence text: the prompt (page < 0) or one file page.
struct TextSegment {
  std::string file;
  int page = -1;
  size_t byte_begin = 0;
  size_t cp_begin = 0;
};

struct EvidenceText {
  std::string text;
  std::vector<TextSegment> segments;  // in order of byte_begin
};

// The prompt followed by the files' pages.
EvidenceText MakeEvidenceText(std::string_view prompt, const PreparedFiles& files);

// Rewrites each entry of `evidence` (pointer -> {byteStart, byteEnd, cpStart, cpEnd, ...}) that
// lies in a file page: adds "file" and "page" and makes the offsets the page's own. Entries in
// the prompt are left as they are.
void PlaceOnPages(Json& evidence, const EvidenceText& text);

// The evidence entry of a quote that could not be checked: {"quote", "match": "unchecked",
// "kind": "image" | "scan", "file" (when one file could hold it)}.
Json UncheckedEntry(const std::string& quote, const PreparedFiles& files);

}  // namespace structure::pipeline
