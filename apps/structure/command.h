// The `structure` binary's git-style subcommands. Each command lives in its own cmd_<name>.cc
// and registers itself with a static STRUCTURE_COMMAND(...) line; main() dispatches.
#pragma once

#include <string>
#include <vector>

namespace structure::apps {

struct Command {
  const char* name;     // "validate", or "schema lower" for a two-word command
  const char* summary;  // one line for `structure --help`
  int (*run)(const std::vector<std::string>& args);  // args after the command name
};

bool RegisterCommand(const Command& command);
const std::vector<Command>& Commands();

}  // namespace structure::apps

#define STRUCTURE_COMMAND_CAT2(a, b) a##b
#define STRUCTURE_COMMAND_CAT(a, b) STRUCTURE_COMMAND_CAT2(a, b)
#define STRUCTURE_COMMAND(name, summary, fn)                        \
  static const bool STRUCTURE_COMMAND_CAT(kRegistered_, __LINE__) = \
      ::structure::apps::RegisterCommand(::structure::apps::Command{name, summary, fn})
