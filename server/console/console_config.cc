#include "server/console/console_config.h"

#include <optional>

#include <toml++/toml.h>

namespace structure::server {
namespace {

// "server.prices.\"<model>\"": the keys of one model's prices, in US dollars per million tokens.
void Price(config::TomlReader& r, const toml::table& t, const std::string& path, ModelPrice& out) {
  r.CheckKeys(t, path, {"input", "cached_input", "cache_write", "output"});
  for (const auto& [key, node] : t) {
    std::string k(key.str());
    double* field = k == "input"          ? &out.input
                    : k == "cached_input" ? &out.cached_input
                    : k == "cache_write"  ? &out.cache_write
                    : k == "output"       ? &out.output
                                          : nullptr;
    if (field == nullptr) continue;  // named by CheckKeys
    auto v = node.value<double>();
    if (!(node.is_number()) || !v || !(*v >= 0) || *v > 1e6) {
      return r.Fail(path + "." + k,
                    "must be a number of US dollars per million tokens, 0..1000000 (was " +
                        r.Written(node) + ")",
                    &node);
    }
    *field = *v;
  }
  if (out.cached_input < 0) out.cached_input = out.input;
  if (out.cache_write < 0) out.cache_write = out.input;
}

}  // namespace

Result<std::string> NormalizeUiBase(std::string_view base) {
  std::string b(base);
  if (b.empty() || b.front() != '/') b.insert(b.begin(), '/');
  if (b.back() != '/') b.push_back('/');
  for (char c : b) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '/' || c == '-' || c == '_' || c == '.' || c == '~';
    if (!ok) {
      return InvalidArgument(
          "must be a path prefix such as /structure/ (letters, digits, / - _ . ~; was \"" +
          std::string(base) + "\")");
    }
  }
  if (b.find("//") != std::string::npos || b.find("/./") != std::string::npos ||
      b.find("/../") != std::string::npos) {
    return InvalidArgument("must be a plain path prefix such as /structure/ (was \"" +
                           std::string(base) + "\")");
  }
  return b;
}

void ReadConsoleSettings(config::TomlReader& r, const toml::table& server, ConsoleSettings& out) {
  const std::string path = "server";
  std::optional<bool> flag;
  r.OptBool(server, "ui", path, flag);
  if (flag) out.ui = *flag;
  flag.reset();
  r.OptBool(server, "keep_prompts", path, flag);
  if (flag) out.keep_prompts = *flag;
  r.Whole(server, "recent_calls", path, 0, 1000000, out.recent_calls, /*interval=*/true);
  r.Whole(server, "recent_calls_bytes", path, 0, int64_t{1} << 34, out.recent_bytes,
          /*interval=*/true);
  r.Whole(server, "records_days", path, 1, 3650, out.records_days, /*interval=*/true);
  r.Whole(server, "records_rows", path, 1, int64_t{1} << 40, out.records_rows);
  if (const toml::node* n = server.get("ui_base")) {
    std::string given;
    r.String(server, "ui_base", path, given);
    if (n->is_string()) {
      auto base = NormalizeUiBase(given);
      if (!base.ok()) return r.Fail(path + ".ui_base", base.status().message(), n);
      out.ui_base = *base;
    }
  }
  if (const toml::node* n = server.get("prices")) {
    const toml::table* models = n->as_table();
    if (models == nullptr) {
      return r.Fail(path + ".prices", "must be a table ([server.prices.\"provider/model\"])", n);
    }
    for (const auto& [model, node] : *models) {
      const toml::table* t = node.as_table();
      std::string name(model.str());
      std::string where = path + ".prices.\"" + name + "\"";
      if (t == nullptr) return r.Fail(where, "must be a table", &node);
      if (name.find('/') == std::string::npos || name.front() == '/' || name.back() == '/') {
        return r.Fail(where,
                      "the name must be \"provider/model\" (a configured provider and its model)",
                      &node);
      }
      Price(r, *t, where, out.prices[name]);
    }
  }
}

}  // namespace structure::server
