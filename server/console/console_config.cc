#include "server/console/console_config.h"

#include <toml++/toml.h>

namespace structure::server {
namespace {

Status Bad(const std::string& source, const toml::node* node, const std::string& key,
           const std::string& what) {
  std::string where = source;
  if (node != nullptr && node->source().begin.line > 0) {
    where += ":" + std::to_string(node->source().begin.line);
  }
  return InvalidArgument(where + ": server." + key + ": " + what);
}

Status Bool(const toml::table& t, const char* key, const std::string& source, bool& out) {
  const toml::node* n = t.get(key);
  if (n == nullptr) return Status::Ok();
  if (!n->is_boolean()) return Bad(source, n, key, "must be true or false");
  out = *n->value<bool>();
  return Status::Ok();
}

Status Size(const toml::table& t, const char* key, const std::string& source, size_t& out,
            int64_t max) {
  const toml::node* n = t.get(key);
  if (n == nullptr) return Status::Ok();
  auto v = n->value<int64_t>();
  if (!n->is_integer() || !v) return Bad(source, n, key, "must be an integer");
  if (*v < 0 || *v > max) {
    return Bad(source, n, key,
               "must be 0.." + std::to_string(max) + " (was " + std::to_string(*v) + ")");
  }
  out = static_cast<size_t>(*v);
  return Status::Ok();
}

Status Price(const toml::table& t, const std::string& model, const std::string& source,
             ModelPrice& out) {
  const std::string path = "prices.\"" + model + "\"";
  for (const auto& [key, node] : t) {
    std::string k(key.str());
    double* field = k == "input"          ? &out.input
                    : k == "cached_input" ? &out.cached_input
                    : k == "cache_write"  ? &out.cache_write
                    : k == "output"       ? &out.output
                                          : nullptr;
    if (field == nullptr) {
      return Bad(source, &node, path + "." + k,
                 "unknown key (expected input, cached_input, cache_write, output)");
    }
    auto v = node.value<double>();
    if (!(node.is_number()) || !v || !(*v >= 0) || *v > 1e6) {
      return Bad(source, &node, path + "." + k,
                 "must be a number of US dollars per million tokens, 0..1000000");
    }
    *field = *v;
  }
  if (out.cached_input < 0) out.cached_input = out.input;
  if (out.cache_write < 0) out.cache_write = out.input;
  return Status::Ok();
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

Status ReadConsoleSettings(const toml::table& server, const std::string& source,
                           ConsoleSettings& out) {
  STRUCTURE_RETURN_IF_ERROR(Bool(server, "ui", source, out.ui));
  STRUCTURE_RETURN_IF_ERROR(Bool(server, "keep_prompts", source, out.keep_prompts));
  STRUCTURE_RETURN_IF_ERROR(Size(server, "recent_calls", source, out.recent_calls, 1000000));
  STRUCTURE_RETURN_IF_ERROR(
      Size(server, "recent_calls_bytes", source, out.recent_bytes, int64_t{1} << 34));
  if (const toml::node* n = server.get("ui_base")) {
    if (!n->is_string()) return Bad(source, n, "ui_base", "must be a string");
    auto base = NormalizeUiBase(*n->value<std::string>());
    if (!base.ok()) return Bad(source, n, "ui_base", base.status().message());
    out.ui_base = *base;
  }
  if (const toml::node* n = server.get("prices")) {
    const toml::table* models = n->as_table();
    if (models == nullptr) {
      return Bad(source, n, "prices", "must be a table ([server.prices.\"provider/model\"])");
    }
    for (const auto& [model, node] : *models) {
      const toml::table* t = node.as_table();
      std::string name(model.str());
      if (t == nullptr) return Bad(source, &node, "prices.\"" + name + "\"", "must be a table");
      if (name.find('/') == std::string::npos || name.front() == '/' || name.back() == '/') {
        return Bad(source, &node, "prices.\"" + name + "\"",
                   "the name must be \"provider/model\" (a configured provider and its model)");
      }
      STRUCTURE_RETURN_IF_ERROR(Price(*t, name, source, out.prices[name]));
    }
  }
  return Status::Ok();
}

}  // namespace structure::server
