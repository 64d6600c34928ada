#include "registry/bundled_schemas.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <system_error>
#include <utility>
#include <vector>

#include "base/read_file.h"
#include "registry/schema_name.h"

namespace structure::registry {
namespace {

namespace fs = std::filesystem;

constexpr char kSchemaSuffix[] = ".json";
constexpr char kManualSuffix[] = ".manual.md";
constexpr char kDefaultVersion[] = "1.0";

// Reads a file after checking its size, so a huge file is refused before it is read.
Result<std::string> ReadBounded(const fs::path& path, size_t max_bytes, bool* exists) {
  std::error_code ec;
  *exists = fs::is_regular_file(path, ec);
  if (!*exists) return std::string();
  uintmax_t size = fs::file_size(path, ec);
  if (ec) return NotFound(path.string() + ": cannot stat: " + ec.message());
  if (size > max_bytes) {
    return InvalidArgument(path.string() + ": file is " + std::to_string(size) +
                           " bytes, the limit is " + std::to_string(max_bytes));
  }
  return ReadFile(path.string(), kMaxSchemaBytes, "the schema limit");
}

Result<RegisteredSchema> LoadOne(const fs::path& json_path, const std::string& name,
                                 const DocumentLimits& limits, size_t max_manual_bytes) {
  bool exists = false;
  Result<std::string> text = ReadBounded(json_path, limits.max_schema_bytes, &exists);
  if (!text.ok()) return text.status();
  Result<SchemaDocument> doc = ParseSchemaDocument(*text, json_path.string(), limits);
  if (!doc.ok()) return doc.status();

  fs::path manual_path = json_path.parent_path() / (name + kManualSuffix);
  Result<std::string> manual = ReadBounded(manual_path, max_manual_bytes, &exists);
  if (!manual.ok()) return manual.status();

  RegisteredSchema entry;
  entry.name = name;
  entry.schema = std::move(doc->schema);
  entry.version = doc->version.empty() ? kDefaultVersion : doc->version;
  entry.manual = std::move(manual).value();
  entry.origin = kBundledOrigin;
  return entry;
}

}  // namespace

Result<std::map<std::string, RegisteredSchema>> LoadBundledSchemas(const std::string& dir,
                                                                   const DocumentLimits& limits,
                                                                   size_t max_manual_bytes) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return NotFound("bundled schema directory \"" + dir +
                    "\" does not exist or is not a directory");
  }
  // Sorted, so that the first error reported does not depend on directory order.
  std::vector<fs::path> files;
  fs::directory_iterator it(dir, ec);
  if (ec) return NotFound("cannot read bundled schema directory \"" + dir + "\": " + ec.message());
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec)
      return NotFound("cannot read bundled schema directory \"" + dir + "\": " + ec.message());
    const fs::path& p = it->path();
    std::string file = p.filename().string();
    if (file.empty() || file[0] == '_' || file[0] == '.') continue;
    if (p.extension() != kSchemaSuffix) continue;
    std::error_code type_ec;
    if (!it->is_regular_file(type_ec)) continue;
    files.push_back(p);
  }
  std::sort(files.begin(), files.end());

  std::map<std::string, RegisteredSchema> out;
  for (const fs::path& p : files) {
    std::string name = p.stem().string();
    Status valid = ValidateSchemaName(name);
    if (!valid.ok()) return InvalidArgument(p.string() + ": " + valid.message());
    Result<RegisteredSchema> entry = LoadOne(p, name, limits, max_manual_bytes);
    if (!entry.ok()) return entry.status();
    out.emplace(name, std::move(entry).value());
  }
  return out;
}

}  // namespace structure::registry
