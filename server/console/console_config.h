// Reading the console's keys of the [server] table (console_settings.h) from toml++.
#pragma once

#include <string>

#include <toml++/toml.h>

#include "config/toml_reader.h"
#include "server/console/console_settings.h"
#include "structure/status.h"

namespace structure::server {

// The [server] keys this reads.
inline constexpr const char* kConsoleKeys[] = {
    "ui",           "ui_base",      "keep_prompts", "recent_calls", "recent_calls_bytes",
    "records_days", "records_rows", "prices"};

// Reads the console's keys of `server` into `out`; a problem goes to `reader` (its status:
// "SOURCE:LINE:COL: server.KEY: what is wrong", as every key of the file).
void ReadConsoleSettings(config::TomlReader& reader, const toml::table& server,
                         ConsoleSettings& out);

}  // namespace structure::server
