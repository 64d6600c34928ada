#include "registry/schema_document.h"

#include <utility>

#include "registry/schema_version.h"

namespace structure::registry {

Result<SchemaDocument> ParseSchemaDocument(std::string_view text, const std::string& source,
                                           const DocumentLimits& limits) {
  if (text.size() > limits.max_schema_bytes) {
    return InvalidArgument(source + ": schema is " + std::to_string(text.size()) +
                           " bytes, the limit is " + std::to_string(limits.max_schema_bytes));
  }
  ParseOptions options;
  options.max_depth = limits.max_depth;
  options.source = source;
  Result<Json> parsed = ParseJson(text, options);
  if (!parsed.ok()) return parsed.status();
  SchemaDocument doc;
  doc.schema = std::move(parsed).value();
  if (doc.schema.is_bool()) return doc;
  if (!doc.schema.is_object()) {
    return InvalidArgument(source +
                           ": a schema must be a JSON object or a boolean (Draft 2020-12), "
                           "got a JSON " +
                           (doc.schema.is_array()    ? "array"
                            : doc.schema.is_string() ? "string"
                            : doc.schema.is_null()   ? "null"
                                                     : "number"));
  }
  if (const Json* v = doc.schema.find(kVersionKeyword)) {
    if (!v->is_string()) {
      return InvalidArgument(source + ": \"x-version\" must be a string \"MAJOR.MINOR\"");
    }
    Result<SchemaVersion> version = ParseSchemaVersion(v->as_string());
    if (!version.ok())
      return InvalidArgument(source + ": \"x-version\": " + version.status().message());
    doc.version = version->ToString();
    doc.schema.erase(kVersionKeyword);
  }
  return doc;
}

}  // namespace structure::registry
