// `structure validate --schema FILE`: validates JSON instances read from stdin (one per line)
// and writes one result line per instance. Exit 0 all valid, 1 any invalid, 2 bad schema/usage.
#include <cstdio>
#include <iostream>
#include <string>

#include "apps/structure/args.h"
#include "apps/structure/command.h"
#include "pipeline/validator/validator.h"

namespace structure::apps {
namespace {

std::string ErrorsLine(const pipeline::ValidationResult& result) {
  if (result.valid) return R"({"valid":true})";
  Json errors = Json::MakeArray();
  for (const pipeline::ValidationError& e : result.errors) {
    Json item = Json::MakeObject();
    item.set("instancePath", e.instance_path);
    item.set("schemaPath", e.schema_path);
    item.set("keyword", e.keyword);
    item.set("params", e.params);
    item.set("message", e.message);
    errors.push_back(std::move(item));
  }
  Json line = Json::MakeObject();
  line.set("valid", false);
  line.set("errors", std::move(errors));
  return ToJson(line);
}

int RunValidate(const std::vector<std::string>& args) {
  const std::vector<FlagSpec> spec = {
      {"schema", true, "FILE: the JSON Schema (draft 2020-12; draft-07/04 by $schema)"},
      {"no-format", false, "treat `format` as an annotation instead of an assertion"},
      {"first-error", false, "report only the first error of each instance (faster)"},
      {"strict", false, "reject schemas with malformed keywords instead of skipping them"}};
  int exit_code = 0;
  auto parsed = ParseOrHelp(
      "validate", args, spec, "structure validate --schema FILE < instances.jsonl",
      "Validates one JSON value per stdin line against the schema and prints one line per\n"
      "value: {\"valid\":true} or {\"valid\":false,\"errors\":[...]}. A line that is not JSON\n"
      "is reported as {\"valid\":false,\"error\":\"...\"}. Exit 0 when every value is valid,\n"
      "1 when any is not, 2 for a bad schema or usage.",
      exit_code);
  if (!parsed) return exit_code;
  if (!parsed->positional().empty()) {
    std::fprintf(stderr, "structure validate: unexpected argument '%s' (instances come from stdin)\n",
                 parsed->positional()[0].c_str());
    return 2;
  }
  if (!parsed->has("schema")) {
    std::fprintf(stderr, "structure validate: --schema FILE is required (instances come from stdin)\n");
    return 2;
  }
  std::string path = parsed->get("schema");
  auto text = ReadFile(path);
  if (!text.ok()) {
    std::fprintf(stderr, "structure validate: %s\n", text.status().message().c_str());
    return 2;
  }
  ParseOptions parse_options;
  parse_options.source = path;
  auto schema = ParseJson(*text, parse_options);
  if (!schema.ok()) {
    std::fprintf(stderr, "structure validate: %s\n", schema.status().message().c_str());
    return 2;
  }
  pipeline::ValidatorOptions options;
  options.assert_format = !parsed->has("no-format");
  options.strict = parsed->has("strict");
  auto validator = pipeline::CompileSchema(*schema, options);
  if (!validator.ok()) {
    std::fprintf(stderr, "structure validate: %s: %s\n", path.c_str(), validator.status().message().c_str());
    return 2;
  }
  for (const std::string& warning : (*validator)->warnings()) {
    std::fprintf(stderr, "structure validate: warning: %s\n", warning.c_str());
  }
  bool all_errors = !parsed->has("first-error");
  bool any_invalid = false;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto result = (*validator)->ValidateText(line, all_errors);
    if (!result.ok()) {
      any_invalid = true;
      Json out = Json::MakeObject();
      out.set("valid", false);
      out.set("error", result.status().message());
      std::cout << ToJson(out) << '\n';
      continue;
    }
    any_invalid = any_invalid || !result->valid;
    std::cout << ErrorsLine(*result) << '\n';
  }
  std::cout.flush();
  return any_invalid ? 1 : 0;
}

}  // namespace

STRUCTURE_COMMAND("validate", "validate JSON lines from stdin against a JSON Schema", RunValidate);

}  // namespace structure::apps
