// Settings of `structure serve`: listen address, request limits and API keys, read from the
// [server] table of a TOML file (see examples/server.toml and docs/server.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/console/console_settings.h"
#include "structure/status.h"

namespace structure::server {

// One API key. Only its SHA-256 is stored; the tenant it acts for and the projects it may use
// ("*" = every project of the tenant). The tenant level (no project) is always allowed.
struct ApiKey {
  std::string name;    // for logs and metrics; never the key
  std::string sha256;  // lowercase hex digest of the key
  std::string tenant;
  std::vector<std::string> projects;
};

struct ServerLimits {
  size_t max_body_bytes = 2 * 1024 * 1024;  // larger bodies: 413
  size_t max_prompt_bytes = 256 * 1024;     // 413
  size_t max_schema_bytes = 256 * 1024;     // 413
  size_t max_schema_depth = 32;             // 400
  int min_loops = 1;                        // maxLoops outside [min_loops, max_loops]: 400
  int max_loops = 10;
  size_t max_inflight = 256;  // structure calls under way; more get 429
  // Connections (http::ServerOptions): read deadlines, the cap and keep-alive reuse.
  int header_timeout_ms = 10000;      // connection open (or first byte) .. header complete
  int body_timeout_ms = 30000;        // header .. body complete
  int idle_timeout_ms = 60000;        // keep-alive: answer .. next request
  int write_timeout_ms = 30000;       // a write the client takes nothing of: then it is dropped
  size_t send_buffer_bytes = 262144;  // kernel send buffer per connection (SO_SNDBUF)
  // A streamed answer (stream: true) sends a keep-alive comment this often while the call runs.
  int stream_keepalive_ms = 15000;
  size_t max_connections = 10000;             // at the cap the oldest idle one is closed
  size_t max_requests_per_connection = 1000;  // then Connection: close
  size_t health_connections = 2;              // over max_connections, kept for GET /healthz
};

// A tenant's semantic check command (structure/check.h): [server.tenants.<id>] check = "CMD",
// check_timeout_ms = N. Only the server's config sets it, never a request.
struct TenantCheck {
  std::string command;
  int timeout_ms = 10000;
};

struct ServerConfig {
  std::string host = "127.0.0.1";
  uint16_t port = 8080;
  int threads = 1;             // event-loop threads
  int batch_window_us = 1000;  // the event loop's batch window under load (base/batch_window.h)
  int stop_grace_ms = 30000;   // SIGTERM: how long in-flight calls may still finish
  ServerLimits limits;
  std::vector<ApiKey> keys;
  std::map<std::string, TenantCheck> checks;  // by tenant id
  ConsoleSettings console;                    // the web console at /ui (docs/console.md)
};

// Parses the [server] table of a TOML document; other top-level tables are ignored. A document
// without [server] gives the defaults (and no keys). kInvalidArgument names the key, e.g.
// "server.toml: server.keys[1].sha256: must be 64 lowercase hex digits".
Result<ServerConfig> ParseServerConfig(std::string_view toml_text, const std::string& source);

// A config file as `structure serve` reads it: the whole text goes to config::ParseConfig (which
// leaves [server] alone, so its errors keep the file's line numbers) and the [server] table is
// read here.
struct ServeConfigFile {
  std::string text;
  std::optional<ServerConfig> server;  // when the file has a [server] table
};

// Reads `path`. kNotFound when unreadable; kInvalidArgument for bad TOML or a bad [server] table.
Result<ServeConfigFile> LoadServeConfigFile(const std::string& path);

// Parses "HOST:PORT" (or ":PORT", "PORT") into config.host/port.
Status ParseListen(std::string_view listen, ServerConfig& config);

}  // namespace structure::server
