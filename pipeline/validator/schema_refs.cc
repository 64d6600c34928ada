#include "pipeline/validator/schema_refs.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "base/read_file.h"

namespace structure::pipeline {
namespace {

namespace fs = std::filesystem;

// The files a --ref path names: itself, or the *.json files below a folder, sorted.
Result<std::vector<fs::path>> RefFiles(const std::string& flag, const fs::path& path) {
  std::error_code ec;
  fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) {
    return InvalidArgument(flag + ": " + path.string() + " does not exist");
  }
  if (!fs::is_directory(status)) return std::vector<fs::path>{path};
  std::vector<fs::path> files;
  fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == ".json" && it->is_regular_file(ec)) files.push_back(it->path());
  }
  if (ec) return InvalidArgument(flag + ": cannot list " + path.string() + ": " + ec.message());
  if (files.empty())
    return InvalidArgument(flag + ": " + path.string() + " has no .json file in it");
  std::sort(files.begin(), files.end());
  return files;
}

// The `$id` a document declares for itself, when it is an absolute URI (without fragment).
std::string OwnId(const Json& doc) {
  if (!doc.is_object()) return "";
  const Json* id = doc.find("$id");
  if (id == nullptr) {
    const Json* dialect = doc.find("$schema");
    if (dialect != nullptr && dialect->is_string() &&
        dialect->as_string().find("draft-04") != std::string::npos) {
      id = doc.find("id");
    }
  }
  if (id == nullptr || !id->is_string()) return "";
  std::string uri = id->as_string();
  if (size_t hash = uri.find('#'); hash != std::string::npos) uri.resize(hash);
  return uri.find(':') != std::string::npos ? uri : "";
}

}  // namespace

Status LoadSchemaRefs(const std::vector<std::string>& refs, std::map<std::string, Json>* resources,
                      size_t max_bytes, std::string_view limit_name) {
  std::map<std::string, std::string> source;  // URI -> file it came from
  for (const std::string& ref : refs) {
    const std::string flag = "--ref " + (ref.empty() ? std::string("''") : ref);
    std::string base;
    std::string path = ref;
    if (size_t eq = ref.find('='); eq != std::string::npos && ref.find("://") < eq) {
      base = ref.substr(0, eq);
      path = ref.substr(eq + 1);
    }
    if (path.empty())
      return InvalidArgument(flag + ": needs a file or folder (--ref PATH or --ref URL=PATH)");
    auto files = RefFiles(flag, path);
    if (!files.ok()) return files.status();
    const bool folder = files->size() != 1 || (*files)[0] != fs::path(path);
    if (folder && !base.empty() && base.back() != '/') base += '/';
    for (const fs::path& file : *files) {
      auto text = ReadFile(file.string(), max_bytes, limit_name);
      if (!text.ok()) return InvalidArgument(flag + ": " + text.status().message());
      ParseOptions options;
      options.source = file.string();
      auto doc = ParseJson(*text, options);
      if (!doc.ok()) return InvalidArgument(flag + ": " + doc.status().message());
      std::string uri;
      if (!base.empty()) {
        uri = folder ? base + fs::relative(file, path).generic_string() : base;
      } else {
        uri = OwnId(*doc);
        if (uri.empty()) {
          return InvalidArgument(
              flag + ": " + file.string() +
              " has no absolute $id, so no $ref can name it; give it a URL with --ref URL=" + path);
        }
      }
      auto [it, added] = source.emplace(uri, file.string());
      if (!added && fs::weakly_canonical(it->second) != fs::weakly_canonical(file)) {
        return InvalidArgument(flag + ": " + file.string() + " and " + it->second + " both claim " +
                               uri);
      }
      (*resources)[uri] = *std::move(doc);
    }
  }
  return Status::Ok();
}

}  // namespace structure::pipeline
