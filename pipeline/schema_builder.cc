#include "pipeline/schema_builder.h"

#include "base/hash.h"
#include "base/hex.h"

namespace structure::pipeline {

namespace {

constexpr const char* kMetaSchema = R"json({
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "title": "schema-builder-output",
  "type": "object",
  "properties": {
    "schema": {"$ref": "#/$defs/node"},
    "confidence": {"type": "number", "minimum": 0, "maximum": 1,
                   "description": "How sure you are that the schema captures the description."},
    "clarifyingQuestions": {"type": "array", "items": {"type": "string"},
                            "description": "Questions to ask when the description is ambiguous; empty when it is clear."}
  },
  "required": ["schema", "confidence", "clarifyingQuestions"],
  "additionalProperties": false,
  "$defs": {
    "node": {
      "type": "object",
      "properties": {
        "type": {"enum": ["object", "array", "string", "number", "integer", "boolean"]},
        "title": {"type": "string"},
        "description": {"type": "string"},
        "enum": {"type": "array", "items": {"type": ["string", "number", "integer", "boolean"]}, "minItems": 1},
        "pattern": {"type": "string"},
        "format": {"enum": ["date-time", "date", "time", "duration", "email", "hostname", "ipv4", "ipv6", "uuid", "uri"]},
        "minimum": {"type": "number"},
        "maximum": {"type": "number"},
        "minLength": {"type": "integer", "minimum": 0},
        "maxLength": {"type": "integer", "minimum": 0},
        "minItems": {"type": "integer", "minimum": 0},
        "maxItems": {"type": "integer", "minimum": 0},
        "items": {"$ref": "#/$defs/node"},
        "properties": {"type": "object", "additionalProperties": {"$ref": "#/$defs/node"}},
        "required": {"type": "array", "items": {"type": "string"}},
        "additionalProperties": {"const": false}
      },
      "required": ["type"],
      "additionalProperties": false
    }
  }
})json";

}  // namespace

const Json& BuilderMetaSchema() {
  static const Json kSchema = *ParseJson(kMetaSchema);
  return kSchema;
}

std::string BuilderSystemPrompt() {
  return "Convert the user's description of a record into a JSON Schema (Draft 2020-12). Use "
         "only the keywords the output format allows. Every object lists its properties, names "
         "the required ones and sets additionalProperties to false. Put units, conventions and "
         "examples into descriptions. Set confidence to how sure you are that the schema "
         "captures the description; when the description is ambiguous, ask in "
         "clarifyingQuestions instead of guessing.";
}

std::string NormalizeDescription(std::string_view text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::string DescriptionKey(std::string_view normalized) {
  // FNV-1a and a variant of it with another basis and an added constant: two independent 64-bit
  // hashes; the cache compares the stored text as well.
  uint64_t b = 0x84222325cbf29ce4ULL;
  for (unsigned char c : normalized) b = Fnv1a64Word(c, b) + 0x9e3779b97f4a7c15ULL;
  return Hex64(Fnv1a64(normalized)) + Hex64(b);
}

std::string BuilderPrompt(const std::string& description) {
  return "Description of the record:\n" + description;
}

StructureRequest BuilderRequest(const std::string& description) {
  StructureRequest r;
  r.prompt = BuilderPrompt(description);
  r.mode = SchemaMode::kJson;
  static const auto kMeta = std::make_shared<const Json>(BuilderMetaSchema());
  r.schema = kMeta;
  return r;
}

const ResolvedSchema& BuilderSchema() {
  static const ResolvedSchema kSchema = *ResolveSchema(BuilderMetaSchema(), "builder");
  return kSchema;
}

void ConfigureBuilderPlan(LoopPlan& plan) { plan.task = BuilderSystemPrompt(); }

void ConfigureBuilderLoop(LoopSpec& spec) {
  spec.max_loops = 2;
  if (spec.plan->task.empty()) {
    auto plan = std::make_shared<LoopPlan>(*spec.plan);
    ConfigureBuilderPlan(*plan);
    spec.plan = std::move(plan);
  }
  spec.semantic_check = [](const Json& out) -> std::vector<std::string> {
    const Json* schema = out.find("schema");
    if (schema == nullptr) return {};
    auto compiled = CompileSchema(*schema);
    if (!compiled.ok())
      return {"/schema: not a usable JSON Schema: " + compiled.status().message()};
    // The validator tolerates bad patterns in third-party schemas (with a warning); a schema we
    // build ourselves must not have any.
    std::vector<std::string> lines;
    for (const auto& w : (*compiled)->warnings())
      lines.push_back("/schema: not a usable JSON Schema: " + w);
    return lines;
  };
}

BuilderDecision DecideBuilderResult(const StructureResult& loop_result, double threshold) {
  BuilderDecision d;
  d.status = loop_result.status;
  d.need = loop_result.need;
  if (loop_result.status != Outcome::kOk) return d;
  const Json& out = loop_result.data;
  d.confidence = out.find("confidence")->as_double();
  std::string questions;
  if (const Json* q = out.find("clarifyingQuestions"); q != nullptr && q->is_array()) {
    for (const auto& item : q->as_array()) {
      if (!item.is_string() || item.as_string().empty()) continue;
      if (!questions.empty()) questions += " ";
      questions += item.as_string();
    }
  }
  if (!questions.empty() || d.confidence < threshold) {
    d.status = Outcome::kNeedMoreInput;
    d.need = !questions.empty()
                 ? questions
                 : "the schema description is too ambiguous to build a schema from (confidence " +
                       std::to_string(d.confidence).substr(0, 4) +
                       "); please describe the fields "
                       "and their types more precisely";
    return d;
  }
  d.schema = *out.find("schema");
  return d;
}

}  // namespace structure::pipeline
