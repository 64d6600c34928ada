// The message for a key a config table does not know, so that a typo or a misplaced secret says
// what to write instead: "unknown key (did you mean maxLoops?)", "unknown key (known: model,
// maxLoops, ...)", and for a secret written into the file (api_key, password, ...) where the
// table names its variable instead: "unknown key: a key is never written in the config file;
// put it in an environment variable and name the variable with api_key_env = \"...\"".
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace structure::config {

std::string UnknownKeyMessage(std::string_view key, const std::vector<std::string_view>& known);

}  // namespace structure::config
