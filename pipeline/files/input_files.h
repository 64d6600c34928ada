// A request's attached files made ready for one provider kind, before any call: each file's
// media type told from its bytes (and checked against a declared type and the name's
// extension), the size limits, what the provider takes (providers/file_parts.h), and each PDF
// read locally (pdf_text.h): its text layer goes to providers that take no documents, to
// files_as text, and to evidence.
#pragma once

#include <string>
#include <vector>

#include "providers/call.h"
#include "providers/endpoint.h"
#include "structure/request.h"
#include "structure/status.h"

namespace structure::pipeline {

// One page of a PDF's text layer (or a whole text file, page 0) that quotes are located in.
struct FilePage {
  std::string file;  // the file's name
  int page = 0;      // 1-based; 0 for a text file
  std::string text;
};

struct PreparedFiles {
  std::vector<providers::FilePart> parts;  // in the request's order, for the first user turn
  std::vector<FilePage> pages;             // text that evidence locates quotes in
  // Files the model reads that have no text to check quotes against: images, and PDFs without
  // a text layer (scans) sent as they are. Their names, for evidence marked unchecked.
  std::vector<std::string> images;
  std::vector<std::string> scans;
  std::vector<std::string> notes;  // e.g. "report.pdf: sent as its text layer (ollama takes no
                                   // documents)"
};

// kInvalidArgument naming the file (its name, else "files[i]"), what is wrong and what to do:
//   "files[0] (scan.png): image/webp cannot go to ollama, which takes PNG and JPEG (PDFs as
//    their text layer); convert the file or route the request to another provider"
// The files' bytes move into the parts.
Result<PreparedFiles> PrepareFiles(std::vector<InputFile> files, providers::ProviderKind kind,
                                   FilesAs files_as, const FileLimits& limits = {});

}  // namespace structure::pipeline
