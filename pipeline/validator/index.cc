#include "pipeline/validator/index.h"

#include <cstdlib>
#include <cstring>

#include <simdjson.h>

#include "base/json_pointer.h"
#include "pipeline/validator/metaschemas.h"
#include "pipeline/validator/uri.h"

namespace structure::pipeline::validator_internal {
namespace {

constexpr std::string_view kSingleSchemaKeywords[] = {"additionalProperties",
                                                      "additionalItems",
                                                      "contains",
                                                      "not",
                                                      "if",
                                                      "then",
                                                      "else",
                                                      "propertyNames",
                                                      "unevaluatedItems",
                                                      "unevaluatedProperties",
                                                      "items"};
constexpr std::string_view kSchemaArrayKeywords[] = {"allOf", "anyOf", "oneOf", "prefixItems",
                                                     "items"};
constexpr std::string_view kSchemaMapKeywords[] = {
    "properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"};

template <size_t N>
bool In(const std::string_view (&list)[N], std::string_view key) {
  for (std::string_view k : list) {
    if (k == key) return true;
  }
  return false;
}

bool IsSchema(const Json& j) { return j.is_object() || j.is_bool(); }

}  // namespace

Draft DraftFromUri(std::string_view uri, bool* known) {
  *known = true;
  if (uri.find("draft/2020-12") != std::string_view::npos) return Draft::k2020_12;
  if (uri.find("draft/2019-09") != std::string_view::npos) return Draft::k2019_09;
  if (uri.find("draft-07") != std::string_view::npos) return Draft::kDraft7;
  if (uri.find("draft-06") != std::string_view::npos) return Draft::kDraft6;
  if (uri.find("draft-04") != std::string_view::npos ||
      uri.find("draft-03") != std::string_view::npos) {
    return Draft::kDraft4;
  }
  *known = false;
  return Draft::k2020_12;
}

SchemaIndex::SchemaIndex(CompiledSchema* out, const ValidatorOptions& options)
    : out_(out), options_(options) {}

Resource* SchemaIndex::NewResource(const std::string& uri) {
  out_->resources.emplace_back();
  out_->resources.back().uri = uri;
  return &out_->resources.back();
}

Dialect SchemaIndex::DialectOf(const Json& schema_value, const Dialect& inherited) {
  Dialect d = inherited;
  if (!schema_value.is_string()) return d;
  const std::string& uri = schema_value.as_string();
  bool known = false;
  Draft draft = DraftFromUri(uri, &known);
  d.validation_vocab = true;
  d.format_assertion = false;
  if (known) {
    d.draft = draft;
    return d;
  }
  // A custom meta-schema: its own $schema gives the draft, its $vocabulary the vocabularies.
  auto it = options_.resources.find(SplitFragment(uri).first);
  if (it == options_.resources.end() || !it->second.is_object()) return d;
  const Json& meta = it->second;
  if (const Json* s = meta.find("$schema"); s && s->is_string()) {
    d.draft = DraftFromUri(s->as_string(), &known);
  }
  if (const Json* vocab = meta.find("$vocabulary"); vocab && vocab->is_object()) {
    d.validation_vocab = false;
    for (const auto& [name, required] : vocab->as_object()) {
      if (name.ends_with("/vocab/validation")) d.validation_vocab = true;
      if (name.ends_with("/vocab/format-assertion")) d.format_assertion = true;
    }
  }
  return d;
}

Status SchemaIndex::AddDocument(const Json* document, const std::string& uri, bool is_root) {
  Dialect dialect;
  dialect.draft = options_.default_draft;
  std::string path = is_root ? "" : uri + "#";
  Resource* resource = NewResource(uri);
  uris_[uri] = document;
  return Walk(document, uri, path, dialect, 0, resource);
}

Status SchemaIndex::Walk(const Json* schema, const std::string& base_in, const std::string& path,
                         Dialect dialect, int depth, Resource* resource) {
  if (depth > static_cast<int>(options_.max_depth)) {
    return InvalidArgument("schema nesting deeper than " + std::to_string(options_.max_depth) +
                           " levels at " + (path.empty() ? "/" : path));
  }
  if (!schema->is_object()) {
    locations_.emplace(schema, Location{base_in, path, dialect, resource, depth});
    return Status::Ok();
  }
  std::string base = base_in;
  bool legacy = dialect.draft == Draft::kDraft7 || dialect.draft == Draft::kDraft6 ||
                dialect.draft == Draft::kDraft4;
  if (const Json* s = schema->find("$schema")) dialect = DialectOf(*s, dialect);
  legacy = dialect.draft == Draft::kDraft7 || dialect.draft == Draft::kDraft6 ||
           dialect.draft == Draft::kDraft4;
  bool has_ref = schema->contains("$ref");
  const Json* id = schema->find(dialect.draft == Draft::kDraft4 ? "id" : "$id");
  if (id && id->is_string() && !(legacy && has_ref)) {
    const std::string& id_text = id->as_string();
    if (legacy && !id_text.empty() && id_text[0] == '#') {
      uris_.emplace(base + id_text, schema);  // draft-07 plain-name fragment: an anchor
    } else {
      std::string resolved = SplitFragment(ResolveUri(base, id_text)).first;
      base = resolved;
      resource = NewResource(resolved);
      uris_.emplace(resolved, schema);
    }
  }
  if (const Json* anchor = schema->find("$anchor"); anchor && anchor->is_string() && !legacy) {
    uris_.emplace(base + "#" + anchor->as_string(), schema);
  }
  if (const Json* anchor = schema->find("$dynamicAnchor");
      anchor && anchor->is_string() && !legacy) {
    uris_.emplace(base + "#" + anchor->as_string(), schema);
    dynamic_anchors_.emplace_back(resource, anchor->as_string(), schema);
  }
  locations_.emplace(schema, Location{base, path, dialect, resource, depth});
  for (const auto& [key, value] : schema->as_object()) {
    if (key == "enum" || key == "const" || key == "default" || key == "examples") continue;
    std::string child_path = path;
    AppendPointerToken(child_path, key);
    if (In(kSchemaMapKeywords, key) && value.is_object()) {
      for (const auto& [name, sub] : value.as_object()) {
        if (!IsSchema(sub)) continue;
        std::string sub_path = child_path;
        AppendPointerToken(sub_path, name);
        STRUCTURE_RETURN_IF_ERROR(Walk(&sub, base, sub_path, dialect, depth + 1, resource));
      }
    } else if (In(kSchemaArrayKeywords, key) && value.is_array()) {
      const Json::Array& items = value.as_array();
      for (size_t i = 0; i < items.size(); ++i) {
        if (!IsSchema(items[i])) continue;
        std::string sub_path = child_path + "/" + std::to_string(i);
        STRUCTURE_RETURN_IF_ERROR(Walk(&items[i], base, sub_path, dialect, depth + 1, resource));
      }
    } else if (In(kSingleSchemaKeywords, key) && IsSchema(value)) {
      STRUCTURE_RETURN_IF_ERROR(Walk(&value, base, child_path, dialect, depth + 1, resource));
    }
  }
  return Status::Ok();
}

Result<const Json*> SchemaIndex::LoadDocument(const std::string& uri) {
  auto it = options_.resources.find(uri);
  const Json* loaded = nullptr;
  if (it != options_.resources.end()) {
    out_->documents.push_back(it->second);
    loaded = &out_->documents.back();
  } else if (const char* text = BuiltinMetaschema(uri)) {
    simdjson::dom::parser parser;
    simdjson::dom::element element;
    if (parser.parse(text, std::strlen(text)).get(element) != simdjson::SUCCESS) {
      return Internal("built-in meta-schema " + uri + " does not parse");
    }
    out_->documents.push_back(ElementToJson(element));
    loaded = &out_->documents.back();
  } else {
    return NotFound("unknown schema document " + uri);
  }
  STRUCTURE_RETURN_IF_ERROR(AddDocument(loaded, uri, false));
  return loaded;
}

Result<const Json*> SchemaIndex::Resolve(const std::string& uri) {
  auto [doc_uri, fragment] = SplitFragment(uri);
  const Json* resource = nullptr;
  if (auto it = uris_.find(doc_uri); it != uris_.end()) {
    resource = it->second;
  } else {
    Result<const Json*> loaded = LoadDocument(doc_uri);
    if (!loaded.ok()) return loaded.status();
    resource = *loaded;
  }
  if (fragment.empty()) return resource;
  if (fragment[0] != '/') {
    auto it = uris_.find(doc_uri + "#" + fragment);
    if (it == uris_.end()) return NotFound("no anchor \"" + fragment + "\" in " + doc_uri);
    return it->second;
  }
  std::vector<std::string> tokens;
  if (!ParsePointer(fragment, &tokens)) return InvalidArgument("bad JSON pointer in " + uri);
  const Json* current = resource;
  const Location* start = Find(resource);
  std::string path = start ? start->path : doc_uri + "#";
  for (const std::string& token : tokens) {
    AppendPointerToken(path, token);
    if (current->is_object()) {
      current = current->find(token);
    } else if (current->is_array()) {
      char* end = nullptr;
      unsigned long index = std::strtoul(token.c_str(), &end, 10);
      if (token.empty() || *end != '\0' || index >= current->size()) {
        current = nullptr;
      } else {
        current = &current->as_array()[index];
      }
    } else {
      current = nullptr;
    }
    if (current == nullptr)
      return NotFound("JSON pointer " + fragment + " not found in " + doc_uri);
  }
  if (!IsSchema(*current)) return InvalidArgument(uri + " does not point at a schema");
  if (!Find(current) && start) {
    STRUCTURE_RETURN_IF_ERROR(
        Walk(current, start->base, path, start->dialect, start->depth + 1, start->resource));
  }
  return current;
}

const Location* SchemaIndex::Find(const Json* schema) const {
  auto it = locations_.find(schema);
  return it == locations_.end() ? nullptr : &it->second;
}

}  // namespace structure::pipeline::validator_internal
