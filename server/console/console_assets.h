// The console's built front end (server/console/dist), embedded in the binary at build time by
// cmake/embed_files.cmake, so `structure serve` stays one file.
#pragma once

#include <cstddef>
#include <string_view>

namespace structure::server {

struct EmbeddedFile {
  const char* path;          // relative to dist/: "index.html", "assets/console.js"
  const char* content_type;  // "text/javascript; charset=utf-8"
  const char* etag;          // strong ETag, quoted
  const char* data;
  size_t size;
};

extern const EmbeddedFile kEmbeddedFiles[];
extern const size_t kEmbeddedFileCount;

// The embedded file at `path` (relative to dist/), or nullptr.
const EmbeddedFile* FindConsoleFile(std::string_view path);

}  // namespace structure::server
