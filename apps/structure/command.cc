#include "apps/structure/command.h"

#include <algorithm>
#include <cstring>

namespace structure::apps {

namespace {
std::vector<Command>& Registry() {
  static std::vector<Command> commands;
  return commands;
}
}  // namespace

bool RegisterCommand(const Command& command) {
  auto& commands = Registry();
  commands.push_back(command);
  std::sort(commands.begin(), commands.end(),
            [](const Command& a, const Command& b) { return std::strcmp(a.name, b.name) < 0; });
  return true;
}

const std::vector<Command>& Commands() { return Registry(); }

}  // namespace structure::apps
