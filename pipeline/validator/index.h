// Internal: the index of schema documents used while compiling. It walks every document once,
// records for each schema object its base URI, dialect, resource and schema path, registers
// $id resources and ($dynamic)anchors, and resolves absolute URIs (with JSON-pointer or anchor
// fragments) to schema locations. Built-in meta-schemas load on first reference.
#pragma once

#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "base/json.h"
#include "pipeline/validator/schema.h"
#include "pipeline/validator/validator.h"
#include "structure/status.h"

namespace structure::pipeline::validator_internal {

struct Dialect {
  Draft draft = Draft::k2020_12;
  bool validation_vocab = true;   // false when a custom meta-schema leaves it out
  bool format_assertion = false;  // the format-assertion vocabulary is required
};

struct Location {
  std::string base;  // absolute base URI in effect (no fragment)
  std::string path;  // schema path for errors
  Dialect dialect;
  Resource* resource = nullptr;
  int depth = 0;
};

class SchemaIndex {
 public:
  SchemaIndex(CompiledSchema* out, const ValidatorOptions& options);

  // Indexes a document stored in out->documents under its retrieval URI ("" for the root).
  Status AddDocument(const Json* document, const std::string& uri, bool is_root);

  // Resolves an absolute URI; loads option resources and built-in meta-schemas on demand.
  Result<const Json*> Resolve(const std::string& uri);

  // The location record of an indexed schema (nullptr when the walk never reached it).
  const Location* Find(const Json* schema) const;

  // ($dynamicAnchor name, schema) pairs of every indexed resource.
  const std::vector<std::tuple<Resource*, std::string, const Json*>>& dynamic_anchors() const {
    return dynamic_anchors_;
  }

 private:
  Status Walk(const Json* schema, const std::string& base, const std::string& path, Dialect dialect,
              int depth, Resource* resource);
  Status WalkChild(const Json* child, const std::string& base, const std::string& path,
                   std::string_view key, const Dialect& dialect, int depth, Resource* resource);
  Dialect DialectOf(const Json& schema_value, const Dialect& inherited);
  Result<const Json*> LoadDocument(const std::string& uri);
  Resource* NewResource(const std::string& uri);

  CompiledSchema* out_;
  const ValidatorOptions& options_;
  std::unordered_map<const Json*, Location> locations_;
  std::unordered_map<std::string, const Json*> uris_;  // resources and "uri#anchor"
  std::vector<std::tuple<Resource*, std::string, const Json*>> dynamic_anchors_;
};

Draft DraftFromUri(std::string_view schema_uri, bool* known);

}  // namespace structure::pipeline::validator_internal
