// Reading the console's keys of the [server] table (console_settings.h) from toml++.
#pragma once

#include <string>

#include <toml++/toml.h>

#include "base/status.h"
#include "server/console/console_settings.h"

namespace structure::server {

// The [server] keys this reads.
inline constexpr const char* kConsoleKeys[] = {
    "ui", "ui_base", "keep_prompts", "recent_calls", "recent_calls_bytes", "prices"};

// Reads the console's keys of `server` into `out`. kInvalidArgument "SOURCE:LINE: server.KEY:
// what is wrong".
Status ReadConsoleSettings(const toml::table& server, const std::string& source,
                           ConsoleSettings& out);

}  // namespace structure::server
