#include "server/console/console_assets.h"

namespace structure::server {

const EmbeddedFile* FindConsoleFile(std::string_view path) {
  for (size_t i = 0; i < kEmbeddedFileCount; ++i) {
    if (path == kEmbeddedFiles[i].path) return &kEmbeddedFiles[i];
  }
  return nullptr;
}

}  // namespace structure::server
