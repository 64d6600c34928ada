#include "server/server_config.h"

#include <set>

#include <toml++/toml.h>

#include "base/id.h"
#include "base/json.h"
#include "base/read_file.h"
#include "config/toml_reader.h"
#include "server/console/console_config.h"

namespace structure::server {
namespace {

using config::TomlReader;

// Integer settings say their whole range ("must be 1..64 (was 0)").
template <typename T>
void Int(TomlReader& r, const toml::table& t, const char* key, const std::string& path, T& out,
         int64_t min, int64_t max) {
  r.Whole(t, key, path, min, max, out, /*interval=*/true);
}

ApiKey Key(TomlReader& r, const toml::table& t, const std::string& path) {
  ApiKey k;
  r.CheckKeys(t, path, {"name", "sha256", "tenant", "projects"});
  r.String(t, "name", path, k.name);
  r.String(t, "sha256", path, k.sha256);
  r.String(t, "tenant", path, k.tenant);
  bool hex = k.sha256.size() == 64;
  for (char c : k.sha256) hex = hex && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
  if (!hex) r.Fail(path + ".sha256", "must be 64 lowercase hex digits (sha256sum of the key)", &t);
  if (k.tenant.empty()) r.Fail(path + ".tenant", "required, a non-empty string", &t);
  if (std::string problem = IdProblem(k.tenant); !k.tenant.empty() && !problem.empty())
    r.Fail(path + ".tenant", "the tenant id " + problem, &t);
  if (const toml::node* p = t.get("projects")) {
    const toml::array* a = p->as_array();
    if (a == nullptr) return r.Fail(path + ".projects", "must be an array of strings", p), k;
    for (const auto& e : *a) {
      if (!e.is_string()) return r.Fail(path + ".projects", "must be an array of strings", p), k;
      k.projects.push_back(*e.value<std::string>());
      std::string problem = k.projects.back() == "*" ? "" : IdProblem(k.projects.back());
      if (!problem.empty()) return r.Fail(path + ".projects", "the project id " + problem, p), k;
    }
  }
  if (k.name.empty()) k.name = k.tenant;
  return k;
}

void ReadTenants(TomlReader& r, const toml::node& tenants, const std::string& path,
                 ServerConfig& c) {
  const toml::table* all = tenants.as_table();
  if (all == nullptr) return r.Fail(path, "must be a table ([server.tenants.ID])", &tenants);
  for (const auto& [id, node] : *all) {
    std::string tp = path + "." + std::string(id.str());
    if (std::string problem = IdProblem(id.str()); !problem.empty())
      return r.Fail(tp, "the tenant id " + problem, &node);
    const toml::table* t = node.as_table();
    if (t == nullptr) return r.Fail(tp, "must be a table", &node);
    r.CheckKeys(*t, tp, {"check", "check_timeout_ms"});
    TenantCheck check;
    r.String(*t, "check", tp, check.command);
    Int(r, *t, "check_timeout_ms", tp, check.timeout_ms, 1, 3600000);
    if (t->get("check") != nullptr && check.command.find_first_not_of(" \t") == std::string::npos) {
      r.Fail(tp + ".check", "must be a command, not empty", t->get("check"));
    }
    if (t->get("check_timeout_ms") != nullptr && t->get("check") == nullptr) {
      r.Fail(tp + ".check_timeout_ms", "needs check", t->get("check_timeout_ms"));
    }
    if (!check.command.empty()) c.checks[std::string(id.str())] = std::move(check);
  }
}

void ReadKeys(TomlReader& r, const toml::node& keys, const std::string& path, ServerConfig& c) {
  const toml::array* a = keys.as_array();
  if (a == nullptr) return r.Fail(path, "must be an array of tables ([[server.keys]])", &keys);
  std::set<std::string> seen;
  for (size_t i = 0; i < a->size(); ++i) {
    std::string kp = path + "[" + std::to_string(i) + "]";
    const toml::table* t = (*a)[i].as_table();
    if (t == nullptr) return r.Fail(kp, "must be a table", &(*a)[i]);
    ApiKey k = Key(r, *t, kp);
    if (!seen.insert(k.sha256).second) r.Fail(kp + ".sha256", "duplicate key", t);
    c.keys.push_back(std::move(k));
  }
}

void Read(TomlReader& r, const toml::table& server, ServerConfig& c) {
  const std::string path = "server";
  std::vector<std::string_view> known = {"listen",
                                         "threads",
                                         "batch_window_us",
                                         "stop_grace_ms",
                                         "max_body_bytes",
                                         "max_prompt_bytes",
                                         "header_timeout_ms",
                                         "body_timeout_ms",
                                         "idle_timeout_ms",
                                         "max_connections",
                                         "max_requests_per_connection",
                                         "max_schema_bytes",
                                         "max_schema_depth",
                                         "min_loops",
                                         "max_loops",
                                         "max_inflight",
                                         "write_timeout_ms",
                                         "stream_keepalive_ms",
                                         "send_buffer_bytes",
                                         "health_connections",
                                         "keys",
                                         "tenants"};
  known.insert(known.end(), std::begin(kConsoleKeys), std::end(kConsoleKeys));
  r.CheckKeys(server, path, known);
  if (!r.status().ok()) return;
  ReadConsoleSettings(r, server, c.console);
  std::string listen;
  r.String(server, "listen", path, listen);
  if (!listen.empty() && r.status().ok()) {
    Status st = ParseListen(listen, c);
    if (!st.ok()) r.Fail(path + ".listen", st.message(), server.get("listen"));
  }
  Int(r, server, "threads", path, c.threads, 1, 64);
  Int(r, server, "batch_window_us", path, c.batch_window_us, 0, 100000);
  Int(r, server, "stop_grace_ms", path, c.stop_grace_ms, 0, 600000);
  ServerLimits& l = c.limits;
  Int(r, server, "max_body_bytes", path, l.max_body_bytes, 1024, int64_t{1} << 30);
  Int(r, server, "max_prompt_bytes", path, l.max_prompt_bytes, 1, int64_t{1} << 30);
  Int(r, server, "max_schema_bytes", path, l.max_schema_bytes, 2, int64_t{1} << 30);
  Int(r, server, "max_schema_depth", path, l.max_schema_depth, 1, 512);
  Int(r, server, "min_loops", path, l.min_loops, 1, 10);
  Int(r, server, "max_loops", path, l.max_loops, 1, 10);
  Int(r, server, "max_inflight", path, l.max_inflight, 1, 1000000);
  Int(r, server, "header_timeout_ms", path, l.header_timeout_ms, 100, 3600000);
  Int(r, server, "body_timeout_ms", path, l.body_timeout_ms, 100, 3600000);
  Int(r, server, "idle_timeout_ms", path, l.idle_timeout_ms, 100, 3600000);
  Int(r, server, "write_timeout_ms", path, l.write_timeout_ms, 100, 3600000);
  Int(r, server, "send_buffer_bytes", path, l.send_buffer_bytes, 4096, int64_t{1} << 30);
  Int(r, server, "health_connections", path, l.health_connections, 0, 1000);
  Int(r, server, "stream_keepalive_ms", path, l.stream_keepalive_ms, 10, 3600000);
  Int(r, server, "max_connections", path, l.max_connections, 1, 10000000);
  Int(r, server, "max_requests_per_connection", path, l.max_requests_per_connection, 1, 100000000);
  if (l.min_loops > l.max_loops) r.Fail(path + ".min_loops", "must be <= max_loops", &server);
  if (const toml::node* tenants = server.get("tenants"))
    ReadTenants(r, *tenants, path + ".tenants", c);
  if (const toml::node* keys = server.get("keys")) ReadKeys(r, *keys, path + ".keys", c);
}

Result<toml::table> Parse(std::string_view text, const std::string& source) {
  try {
    return toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    return InvalidArgument(source + ":" + std::to_string(b.line) + ":" + std::to_string(b.column) +
                           ": " + std::string(e.description()));
  }
}

Result<ServerConfig> FromTable(const toml::table& root, std::string_view text,
                               const std::string& source) {
  ServerConfig c;
  TomlReader r(source, text);
  const toml::node* n = root.get("server");
  if (n == nullptr) return c;
  const toml::table* t = n->as_table();
  if (t == nullptr) {
    r.Fail("server", "must be a table ([server])", n);
    return r.status();
  }
  Read(r, *t, c);
  if (!r.status().ok()) return r.status();
  return c;
}

}  // namespace

Status ParseListen(std::string_view listen, ServerConfig& config) {
  size_t colon = listen.rfind(':');
  std::string_view host = colon == std::string_view::npos ? "" : listen.substr(0, colon);
  std::string_view port = colon == std::string_view::npos ? listen : listen.substr(colon + 1);
  if (port.empty() || port.size() > 5)
    return InvalidArgument("expected HOST:PORT (was '" + std::string(listen) + "')");
  int value = 0;
  for (char c : port) {
    if (c < '0' || c > '9')
      return InvalidArgument("expected HOST:PORT (was '" + std::string(listen) + "')");
    value = value * 10 + (c - '0');
  }
  if (value > 65535)
    return InvalidArgument("port must be 0..65535 (was " + std::string(port) + ")");
  if (!host.empty()) config.host = std::string(host);
  config.port = static_cast<uint16_t>(value);
  return Status::Ok();
}

Result<ServerConfig> ParseServerConfig(std::string_view toml_text, const std::string& source) {
  auto root = Parse(toml_text, source);
  if (!root.ok()) return root.status();
  return FromTable(*root, toml_text, source);
}

Result<ServeConfigFile> LoadServeConfigFile(const std::string& path) {
  auto text = ReadFile(path, kMaxConfigBytes, "the config file limit");
  if (!text.ok()) return text.status();
  auto root = Parse(*text, path);
  if (!root.ok()) return root.status();
  ServeConfigFile file;
  if (root->get("server") != nullptr) {
    auto server = FromTable(*root, *text, path);
    if (!server.ok()) return server.status();
    file.server = std::move(*server);
  }
  file.text = std::move(*text);
  return file;
}

}  // namespace structure::server
