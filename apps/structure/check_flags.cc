#include "apps/structure/check_flags.h"

namespace structure::apps {

void AddCheckFlags(std::vector<FlagSpec>& spec) {
  spec.push_back({"check", true,
                  "\"CMD ARGS\": semantic check run on every schema-valid answer (JSON on stdin, "
                  "the prompt in STRUCTURE_PROMPT; prints one violation per line, nothing to "
                  "accept)"});
  spec.push_back({"check-timeout-ms", true, "N: kill a check after N ms (default 10000)"});
}

Status ApplyCheckFlags(const Args& args, EngineOptions& options) {
  if (!args.has("check")) {
    if (args.has("check-timeout-ms")) return InvalidArgument("--check-timeout-ms needs --check");
    return Status::Ok();
  }
  CheckCommand check;
  check.command = args.get("check");
  bool blank = check.command.find_first_not_of(" \t\r\n") == std::string::npos;
  if (blank) return InvalidArgument("--check: the command is empty");
  if (args.has("check-timeout-ms")) {
    auto ms = args.GetInt("check-timeout-ms", check.timeout_ms);
    if (!ms.ok()) return ms.status();
    if (*ms < 1 || *ms > 3600000) {
      return InvalidArgument("--check-timeout-ms: must be 1..3600000 (was " + std::to_string(*ms) +
                             ")");
    }
    check.timeout_ms = static_cast<int>(*ms);
  }
  options.checks[""] = std::move(check);
  return Status::Ok();
}

}  // namespace structure::apps
