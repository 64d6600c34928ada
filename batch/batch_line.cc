#include "batch/batch_line.h"

namespace structure::batch {

std::string KeyForId(const Json& id) { return ToJson(id); }

std::string KeyForLine(uint64_t line_no) { return "line:" + std::to_string(line_no); }

bool IsBlankLine(std::string_view text) {
  for (char c : text) {
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return false;
  }
  return true;
}

namespace {

bool HasSchema(const Json& body) {
  return body.contains("schema") || body.contains("schemaName") || body.contains("schemaText");
}

// The defaults a line leaves out, except an inline schema (ParseRequest takes that apart).
void ApplyDefaults(const LineDefaults& d, Json& body) {
  if (!HasSchema(body) && !d.schema) {
    if (!d.schema_name.empty()) {
      body.set("schemaName", d.schema_name);
    } else if (!d.schema_text.empty()) {
      body.set("schemaText", d.schema_text);
    }
  }
  if (d.max_loops && !body.contains("maxLoops")) body.set("maxLoops", *d.max_loops);
  if (!d.tenant.empty() && !body.contains("tenant")) body.set("tenant", d.tenant);
  if (!d.project.empty() && !body.contains("project")) body.set("project", d.project);
  if (!d.model.empty() && !body.contains("model")) body.set("model", d.model);
  if (!d.priority.empty() && !body.contains("priority")) body.set("priority", d.priority);
  if (!d.evidence.empty() && !body.contains("evidence")) body.set("evidence", d.evidence);
}

}  // namespace

BatchLine ParseBatchLine(std::string_view text, uint64_t line_no, const LineDefaults& defaults) {
  BatchLine line;
  line.line_no = line_no;
  line.key = KeyForLine(line_no);
  std::string where = "line " + std::to_string(line_no);
  ParseOptions po;
  po.source = where;
  po.max_depth = 128;
  auto body = ParseJson(text, po);
  if (!body.ok()) {
    line.error = InvalidArgument(body.status().message());
    return line;
  }
  if (!body->is_object()) {
    line.error =
        InvalidArgument(where + ": must be a JSON object {\"id\", \"prompt\", \"schema\"...}");
    return line;
  }
  if (const Json* id = body->find("id")) {
    if (!id->is_string() && !id->is_int()) {
      line.error = InvalidArgument(where + ": id: must be a string or an integer");
      return line;
    }
    line.id = *id;
    line.key = KeyForId(*id);
    body->erase("id");
  }
  bool default_schema = !HasSchema(*body);
  ApplyDefaults(defaults, *body);
  auto request = pipeline::ParseRequest(*body, {}, default_schema ? defaults.schema : nullptr);
  if (!request.ok()) {
    line.error = InvalidArgument(where + ": " + request.status().message());
    return line;
  }
  line.request = std::move(*request);
  return line;
}

std::string FormatResultLine(const Json& id, uint64_t line_no, pipeline::StructureResult result) {
  // {"id":ID, + the result object's members: the record's identity comes first.
  std::string text =
      id.is_null() ? "{\"line\":" + std::to_string(line_no) : "{\"id\":" + ToJson(id);
  std::string body = ToJson(pipeline::ResultToJson(std::move(result)));
  if (body.size() > 2) text += ',';
  text.append(body, 1, std::string::npos);
  text.push_back('\n');
  return text;
}

pipeline::StructureResult BadLineResult(const Status& error) {
  return pipeline::ErrorResult("bad_request", error.message());
}

}  // namespace structure::batch
