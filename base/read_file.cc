#include "base/read_file.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

namespace structure {

Result<std::string> ReadFile(const std::string& path, size_t max_bytes,
                             std::string_view limit_name) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return InvalidArgument(path + " is a directory, not a file");
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) return NotFound("cannot open " + path + ": " + std::strerror(errno));
  std::string text;
  char chunk[65536];
  for (;;) {
    size_t n = std::fread(chunk, 1, sizeof chunk, f.get());
    if (n > max_bytes - std::min(max_bytes, text.size())) {
      return InvalidArgument(path + ": larger than " + std::to_string(max_bytes) + " bytes (" +
                             std::string(limit_name) + "): stopped reading there");
    }
    text.append(chunk, n);
    if (n < sizeof chunk) break;
  }
  if (std::ferror(f.get())) return Unavailable("cannot read " + path + ": " + std::strerror(errno));
  return text;
}

}  // namespace structure
