// `structure version`: the version and the library versions it was built with.
#include <cstdio>

#include "apps/structure/args.h"
#include "apps/structure/command.h"

namespace structure::apps {
namespace {

int RunVersion(const std::vector<std::string>& args) {
  auto parsed = Args::Parse(args, {});
  if (!parsed.ok()) {
    std::fprintf(stderr, "structure version: %s\n", parsed.status().message().c_str());
    return 2;
  }
  if (parsed->help()) {
    std::printf("%s", Usage("structure version", "Prints the version of structure.", {}).c_str());
    return 0;
  }
  std::printf("structure %s\n", STRUCTURE_VERSION);
  return 0;
}

}  // namespace

STRUCTURE_COMMAND("version", "print the version", RunVersion);

}  // namespace structure::apps
