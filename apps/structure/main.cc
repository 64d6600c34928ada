// `structure`: git-style dispatch to the registered subcommands. A two-word command such as
// "schema lower" is matched before a one-word command of the same first word. `structure help
// CMD` shows CMD's --help, `structure --version` the version.
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "apps/structure/command.h"

namespace {

void PrintHelp() {
  std::printf(
      "structure: free text in, one schema-valid JSON object out (or an honest 'need more "
      "input').\n\nusage: structure <command> [flags]   (structure <command> --help for its "
      "flags)\n\ncommands:\n");
  for (const auto& c : structure::apps::Commands()) std::printf("  %-16s %s\n", c.name, c.summary);
}

int Dispatch(std::vector<std::string> args) {
  // `structure --version` is `structure version`; `structure help CMD ...` is
  // `structure CMD ... --help`.
  if (!args.empty() && (args[0] == "--version" || args[0] == "-V")) args[0] = "version";
  if (args.size() >= 2 && args[0] == "help") {
    args.erase(args.begin());
    args.push_back("--help");
  }
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    PrintHelp();
    return args.empty() ? 2 : 0;
  }
  const auto& commands = structure::apps::Commands();
  if (args.size() >= 2) {
    std::string two = args[0] + " " + args[1];
    for (const auto& c : commands) {
      if (two == c.name) return c.run(std::vector<std::string>(args.begin() + 2, args.end()));
    }
  }
  for (const auto& c : commands) {
    if (args[0] == c.name) return c.run(std::vector<std::string>(args.begin() + 1, args.end()));
  }
  // A group word ("schema", "config"): alone or with --help it lists its subcommands; with
  // anything else it says which subcommand is unknown.
  bool group = false;
  bool help = args.size() >= 2 && (args[1] == "--help" || args[1] == "-h");
  for (const auto& c : commands) {
    if (std::strncmp(c.name, args[0].c_str(), args[0].size()) == 0 &&
        c.name[args[0].size()] == ' ') {
      FILE* out = help ? stdout : stderr;
      if (!group && args.size() >= 2 && !help) {
        std::fprintf(stderr, "structure %s: unknown subcommand '%s'\n\n", args[0].c_str(),
                     args[1].c_str());
      }
      if (!group) std::fprintf(out, "usage: structure %s <subcommand>\n\n", args[0].c_str());
      std::fprintf(out, "  %-16s %s\n", c.name, c.summary);
      group = true;
    }
  }
  if (group) return help ? 0 : 2;
  std::fprintf(stderr, "structure: unknown command '%s' (see structure --help)\n", args[0].c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  // A file-size limit (ulimit -f) makes a write fail with EFBIG, reported as any write error,
  // instead of killing the process in the middle of an output line.
  std::signal(SIGXFSZ, SIG_IGN);
  int rc = Dispatch(std::vector<std::string>(argv + 1, argv + argc));
  // What a command printed must have reached stdout (not a full disk, /dev/full, a closed
  // descriptor): a lost result is an output error (exit 2), never a silent success.
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "structure: cannot write the output (stdout): %s\n", std::strerror(errno));
    return 2;
  }
  return rc;
}
