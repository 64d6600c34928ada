// Running the HTTP API until SIGTERM/SIGINT: stop accepting, let calls under way finish (up to
// the configured grace), then stop the engine.
#pragma once

#include "engine/engine.h"
#include "server/server_config.h"

namespace structure::server {

// Starts the engine and the server, prints "listening on HOST:PORT" on stdout, serves until
// SIGTERM or SIGINT, and returns the process exit code (0 after a graceful stop, 1 when the
// engine or the listener cannot start; the reason goes to stderr).
// Blocks SIGTERM/SIGINT in the calling thread (and so in every thread it starts).
int Serve(EngineOptions engine_options, const ServerConfig& config);

}  // namespace structure::server
