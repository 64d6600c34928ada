// `structure version`: the version and the library versions it was built with.
#include <cstdio>

#include "apps/structure/args.h"
#include "apps/structure/command.h"

namespace structure::apps {
namespace {

int RunVersion(const std::vector<std::string>& args) {
  int exit_code = 0;
  if (!ParseOrHelp("version", args, {}, "structure version", "Prints the version of structure.",
                   exit_code)) {
    return exit_code;
  }
  std::printf("structure %s\n", STRUCTURE_VERSION);
  return 0;
}

}  // namespace

STRUCTURE_COMMAND("version", "print the version", RunVersion);

}  // namespace structure::apps
