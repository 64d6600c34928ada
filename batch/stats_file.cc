#include "batch/stats_file.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <system_error>

#include "base/output_file.h"

namespace structure::batch {
namespace {

std::string Folder(const std::string& path) {
  std::string dir = std::filesystem::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}

// The same file, where that matters: a device or FIFO (/dev/null) may take both.
bool SameFile(const std::string& a, const std::string& b) {
  if (b.empty() || b == "-") return false;
  std::error_code ec;
  auto kind = std::filesystem::status(a, ec).type();
  if (kind != std::filesystem::file_type::regular && kind != std::filesystem::file_type::not_found)
    return false;
  if (std::filesystem::equivalent(a, b, ec)) return true;
  return std::filesystem::weakly_canonical(a, ec) == std::filesystem::weakly_canonical(b, ec);
}

}  // namespace

Status CheckStatsPath(const std::string& path, const std::string& input,
                      const std::string& output) {
  if (path.empty()) return InvalidArgument("--stats: give a file name");
  if (SameFile(path, input)) return InvalidArgument("--stats " + path + ": is the input file");
  if (SameFile(path, output)) return InvalidArgument("--stats " + path + ": is the output file");
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return InvalidArgument("--stats " + path + ": is a directory");
  auto target = ResolveOutput(path);
  if (!target.ok()) return InvalidArgument("--stats " + target.status().message());
  if (target->in_place()) {
    if (access(target->path.c_str(), W_OK) != 0)
      return InvalidArgument("--stats " + path + ": not writable");
    return Status();
  }
  std::string dir = Folder(target->path);  // there: ResolveOutput checked it
  if (access(dir.c_str(), W_OK) != 0)
    return InvalidArgument("--stats " + path + ": cannot write in " + dir);
  if (target->kind == OutputKind::kRegular && access(target->path.c_str(), W_OK) != 0) {
    return InvalidArgument("--stats " + path + ": not writable");
  }
  return Status();
}

Json StatsDocument(const BatchReport& report, const pipeline::StatsSnapshot& stats) {
  Json run = Json::MakeObject();
  run.set("records", static_cast<int64_t>(report.run.total()));
  run.set("resumed", static_cast<int64_t>(report.resumed.total()));
  run.set("elapsedSeconds", report.elapsed_s);
  run.set("interrupted", report.interrupted);
  Json doc = pipeline::StatsToJson(stats);
  Json out = Json::MakeObject();
  out.set("run", std::move(run));
  for (const char* key : {"schemas", "providers"}) out.set(key, *doc.find(key));
  return out;
}

Status WriteStatsFile(const std::string& path, const BatchReport& report,
                      const pipeline::StatsSnapshot& stats) {
  return WriteStatsJson(path, StatsDocument(report, stats));
}

Status WriteStatsJson(const std::string& path, const Json& doc) {
  Status written = WriteOutputFile(path, ToJson(doc) + "\n");
  if (!written.ok()) return InvalidArgument("--stats " + path + ": " + written.message());
  return Status();
}

}  // namespace structure::batch
