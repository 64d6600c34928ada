// Semantic checks: rules about an answer that a JSON Schema cannot state ("every report id
// belongs to the same group"). A check runs after the answer validated against the schema; its
// violations go back to the model as the reason for the next attempt, like schema errors.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "structure/json.h"

namespace structure {

// A check in C++: the violations of `data` (the schema-valid answer), one line each; an empty
// vector accepts the answer. It runs on an engine thread while the request is in flight, so it
// must be thread-safe and quick, and it must not throw (an exception ends the request with
// ErrorCode::kInternal).
using SemanticCheck = std::function<std::vector<std::string>(const Json& data)>;

// A check outside C++: a command run by `/bin/sh -c COMMAND` in its own process group, once per
// schema-valid answer, with
//   stdin                  the answer as compact JSON, then end of file;
//   STRUCTURE_PROMPT       the request's prompt (a prompt over 128 KiB or holding a NUL byte is
//                          written to a temporary file named by STRUCTURE_PROMPT_FILE instead);
//   stdout                 one violation per line; blank lines are ignored; nothing accepts.
// Exit status 0 gives the verdict. A non-zero status, a signal, or running past `timeout_ms`
// (the process group is then killed) ends the request with ErrorCode::kCheckFailed.
struct CheckCommand {
  std::string command;
  int timeout_ms = 10000;  // > 0
};

}  // namespace structure
