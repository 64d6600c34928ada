#include "batch/batch_line.h"

#include "base/base64.h"
#include "base/json_arg.h"
#include "base/read_file.h"
#include "pipeline/validator/validator.h"

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
  if (d.call_timeout_ms && !body.contains("callTimeoutMs"))
    body.set("callTimeoutMs", *d.call_timeout_ms);
  if (!d.tenant.empty() && !body.contains("tenant")) body.set("tenant", d.tenant);
  if (!d.project.empty() && !body.contains("project")) body.set("project", d.project);
  if (!d.model.empty() && !body.contains("model")) body.set("model", d.model);
  if (!d.priority.empty() && !body.contains("priority")) body.set("priority", d.priority);
  if (!d.evidence.empty() && !body.contains("evidence")) body.set("evidence", d.evidence);
}

// A record's {"path": P} files read from disk (P relative to the working directory) into
// {"name": its base name, "data": base64}; what ParseRequest then checks like any other file.
// "" or the problem, naming the file.
std::string ReadFilePaths(Json& body) {
  Json* files = body.find("files");
  if (files == nullptr || !files->is_array()) return "";
  FileLimits limits;
  for (size_t i = 0; i < files->as_array().size(); ++i) {
    Json& f = files->as_array()[i];
    const Json* path = f.is_object() ? f.find("path") : nullptr;
    if (path == nullptr) continue;
    std::string field = "files[" + std::to_string(i) + "].path";
    if (!path->is_string() || path->as_string().empty()) return field + ": must be a file name";
    std::string p = path->as_string();
    Result<std::string> bytes = ReadFile(p, limits.max_file_bytes, "the limit for one file");
    if (!bytes.ok()) return field + ": " + bytes.status().message();
    if (bytes->empty()) return field + ": " + p + " is empty";
    Json read = Json::MakeObject();
    read.set("name",
             f.find("name") != nullptr ? *f.find("name") : Json(p.substr(p.rfind('/') + 1)));
    read.set("data", Base64Encode(*bytes));
    if (const Json* t = f.find("mediaType")) read.set("mediaType", *t);
    f = std::move(read);
  }
  return "";
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
  auto fail = [&](std::string problem) {
    line.error = InvalidArgument(where + ": " + problem);
    line.problem = std::move(problem);
    return std::move(line);
  };
  // A byte order mark some editors put at the start of a UTF-8 file is not part of record 1.
  if (line_no == 1 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  auto body = ParseJson(text, po);
  if (!body.ok()) {
    line.error = InvalidArgument(body.status().message());
    line.problem = body.status().message();
    return line;
  }
  if (!body->is_object()) return fail("must be a JSON object {\"id\", \"prompt\", \"schema\"...}");
  if (const Json* id = body->find("id")) {
    if (!id->is_string() && !id->is_int()) return fail("id: must be a string or an integer");
    line.id = *id;
    line.key = KeyForId(*id);
    body->erase("id");
  }
  bool default_schema = !HasSchema(*body);
  ApplyDefaults(defaults, *body);
  if (std::string e = ReadFilePaths(*body); !e.empty()) return fail(e);
  auto request = pipeline::ParseRequest(*body, {}, default_schema ? defaults.schema : nullptr);
  if (!request.ok()) return fail(request.status().message());
  line.request = std::move(*request);
  return line;
}

Result<std::shared_ptr<const Json>> LoadDefaultSchema(const std::string& value) {
  auto arg = ReadJsonArg(value, "--schema", kMaxSchemaBytes, "the schema limit");
  if (!arg.ok()) return arg.status();
  ParseOptions po;
  po.source = arg->source;
  auto schema = ParseJson(arg->text, po);
  if (!schema.ok()) return schema.status();
  const std::string where = arg->is_inline ? "--schema" : "--schema " + arg->source;
  Status checked = pipeline::CheckInlineSchema(*schema);
  if (!checked.ok()) return InvalidArgument(where + ": " + checked.message());
  auto compiled = pipeline::CompileSchema(*schema);
  if (!compiled.ok()) return InvalidArgument(where + ": " + compiled.status().message());
  return std::make_shared<const Json>(std::move(*schema));
}

Status CheckDefaults(const LineDefaults& defaults) {
  LineDefaults probe = defaults;
  if (!probe.schema && probe.schema_name.empty() && probe.schema_text.empty()) {
    probe.schema = std::make_shared<const Json>(Json::MakeObject());
  }
  BatchLine line = ParseBatchLine(R"({"prompt": "-"})", 0, probe);
  if (line.error.ok()) return Status::Ok();
  return InvalidArgument("the default flags: " + line.problem);
}

BatchLine LineTooLong(uint64_t line_no, size_t max_bytes) {
  BatchLine line;
  line.line_no = line_no;
  line.key = KeyForLine(line_no);
  line.error =
      InvalidArgument("line " + std::to_string(line_no) + ": longer than " +
                      std::to_string(max_bytes) + " bytes (the limit of one input line): not read");
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
  return pipeline::ErrorResult(ErrorCode::kBadRequest, error.message());
}

}  // namespace structure::batch
