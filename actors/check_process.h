// One check command's child process for CheckRunner: starting it (posix_spawn of /bin/sh -c,
// its own process group, default signal dispositions, only stdin/stdout/stderr inherited) and
// reading its verdict from the exit status and the output.
#pragma once

#include <sys/types.h>

#include <string>

#include "actors/check_runner.h"

namespace structure::actors {

struct CheckChild {
  pid_t pid = -1;
  int in = -1;              // our end of its stdin (a socket, so a write never raises SIGPIPE)
  int out = -1;             // its stdout
  int err = -1;             // its stderr
  int pidfd = -1;           // readable when it exits; -1 where the kernel has no pidfd_open
  std::string prompt_file;  // STRUCTURE_PROMPT_FILE, removed when the check ends
};

// kFailedPrecondition "check command could not start: ..." when it cannot be started.
Result<CheckChild> SpawnCheck(const std::string& command, const std::string& prompt);

// The verdict of a check that ended with `status` (from waitpid): its stdout lines (blank ones
// dropped, invalid UTF-8 replaced) when it exited 0, else a kFailedPrecondition that says how
// it failed, with the first line of its stderr.
CheckVerdict VerdictOf(int status, bool timed_out, int timeout_ms, const std::string& out,
                       const std::string& err);

void RemovePromptFile(CheckChild& child);

}  // namespace structure::actors
