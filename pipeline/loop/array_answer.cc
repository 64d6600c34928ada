#include "pipeline/loop/array_answer.h"

#include <algorithm>
#include <string>
#include <vector>

#include "pipeline/loop/extract_json.h"

namespace structure::pipeline {

namespace {

// "#..." local references of `node` rewritten for a schema moved under "/items"; hoisted
// definitions keep their paths.
void RewriteRefs(Json& node) {
  if (node.is_array()) {
    for (Json& e : node.as_array()) RewriteRefs(e);
    return;
  }
  if (!node.is_object()) return;
  for (auto& [key, value] : node.as_object()) {
    if (key == "$ref" && value.is_string()) {
      const std::string& ref = value.as_string();
      bool local = !ref.empty() && ref[0] == '#';
      bool hoisted = ref.rfind("#/$defs/", 0) == 0 || ref.rfind("#/definitions/", 0) == 0;
      if (local && !hoisted) value = Json("#/items" + ref.substr(1));
    } else if (key != "const" && key != "enum" && key != "default" && key != "examples") {
      RewriteRefs(value);  // schema keywords; literal values are left alone
    }
  }
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() &&
         (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' || s.front() == '\n')) {
    s.remove_prefix(1);
  }
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n')) {
    s.remove_suffix(1);
  }
  return s;
}

// The text inside a ``` fence (its info string, e.g. "jsonl", skipped); the text itself when it
// has none. A fence that was never closed (a cut-off answer) runs to the end.
std::string_view Unfenced(std::string_view text) {
  text = Trim(text);
  if (text.rfind("```", 0) != 0) return text;
  size_t eol = text.find('\n');
  if (eol == std::string_view::npos) return {};
  text.remove_prefix(eol + 1);
  size_t close = text.rfind("```");
  if (close != std::string_view::npos) text = text.substr(0, close);
  return text;
}

}  // namespace

bool IsArraySchema(const Json& schema) {
  if (!schema.is_object()) return false;
  const Json* type = schema.find("type");
  return type != nullptr && type->is_string() && type->as_string() == "array" &&
         schema.contains("items");
}

Json ArrayModeSchema(Json schema) {
  if (IsArraySchema(schema)) return schema;
  Json root = Json::MakeObject();
  if (schema.is_object() && !schema.contains("$id")) {
    if (const Json* dialect = schema.find("$schema")) {
      root.set("$schema", *dialect);
      schema.erase("$schema");
    }
    RewriteRefs(schema);
    for (const char* defs : {"$defs", "definitions"}) {
      if (const Json* d = schema.find(defs)) {
        root.set(defs, *d);
        schema.erase(defs);
      }
    }
  }
  root.set("type", "array");
  root.set("items", std::move(schema));
  return root;
}

size_t SeamOverlap(const Json::Array& kept, const Json::Array& next) {
  for (size_t k = std::min(kept.size(), next.size()); k > 0; --k) {
    if (std::equal(next.begin(), next.begin() + static_cast<std::ptrdiff_t>(k),
                   kept.end() - static_cast<std::ptrdiff_t>(k))) {
      return k;
    }
  }
  return 0;
}

std::optional<Json> ParseJsonLines(std::string_view text, bool truncated) {
  std::string_view body = Unfenced(text);
  std::vector<std::string_view> lines;
  while (!body.empty()) {
    size_t eol = body.find('\n');
    std::string_view line = Trim(body.substr(0, eol));
    if (!line.empty()) lines.push_back(line);
    if (eol == std::string_view::npos) break;
    body.remove_prefix(eol + 1);
  }
  Json records = Json::MakeArray();
  for (size_t i = 0; i < lines.size(); ++i) {
    auto v = ParseStrict(lines[i]);
    if (!v.ok()) {
      if (truncated && i + 1 == lines.size() && i > 0) break;  // the cut-off last line
      return std::nullopt;
    }
    records.push_back(std::move(*v));
  }
  if (records.size() == 0) return std::nullopt;
  if (records.size() == 1 && !records.as_array()[0].is_object()) return std::nullopt;
  return records;
}

Result<Json> RecoverArrayPrefix(std::string_view text) {
  size_t i = text.find('[');
  if (i == std::string_view::npos) return InvalidArgument("no JSON array in the answer");
  ++i;
  Json out = Json::MakeArray();
  auto skip = [&] {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' ||
                               text[i] == '\t' || text[i] == ',')) {
      ++i;
    }
  };
  while (true) {
    skip();
    if (i >= text.size() || text[i] == ']') break;
    // Find the element's end by scanning with string and bracket awareness.
    size_t start = i;
    int depth = 0;
    bool in_string = false;
    size_t end = std::string_view::npos;
    for (size_t k = start; k < text.size(); ++k) {
      char c = text[k];
      if (in_string) {
        if (c == '\\')
          ++k;
        else if (c == '"')
          in_string = false;
        if (!in_string && depth == 0) {
          end = k + 1;
          break;
        }
        continue;
      }
      if (c == '"') {
        in_string = true;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (depth == 0) {
          end = k;
          break;
        }
        if (--depth == 0) {
          end = k + 1;
          break;
        }
      } else if (c == ',' && depth == 0) {
        end = k;
        break;
      }
    }
    if (end == std::string_view::npos) break;  // the truncated tail
    auto v = ParseStrict(text.substr(start, end - start));
    if (!v.ok()) break;
    out.push_back(std::move(*v));
    i = end;
  }
  return out;
}

}  // namespace structure::pipeline
