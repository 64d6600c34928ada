// `structure schema lower|check --provider PROFILE FILE`: lowers a schema for a provider profile,
// or says whether the provider would accept it as it is.
#include <cstdio>

#include "apps/structure/args.h"
#include "apps/structure/command.h"
#include "base/json_arg.h"
#include "base/read_file.h"
#include "config/builtin_providers.h"
#include "pipeline/lowering/lower.h"
#include "pipeline/lowering/profile.h"
#include "pipeline/lowering/split_plan.h"
#include "pipeline/lowering/strict_check.h"
#include "pipeline/schema_stage.h"

namespace structure::apps {
namespace {

constexpr const char* kDefaultProfile = "openai-strict";

const std::vector<FlagSpec> kSpec = {
    {"provider", true,
     "PROFILE: openai-strict (default), anthropic-strict, gemini, gemini-legacy, ollama, vllm, "
     "llamacpp, json; "
     "or a built-in provider name (openai, anthropic, ...) for its profile"},
    {"override", true, "JSON: profile overrides, e.g. '{\"max_depth\":5}'"},
    {"allow-unresolved-refs", false,
     "a $ref that cannot be resolved accepts any value instead of an error"},
};

struct Input {
  pipeline::Profile profile;
  Json schema;
};

int Fail(const char* cmd, const std::string& message) {
  std::fprintf(stderr, "structure %s: %s\n", cmd, message.c_str());
  return 2;
}

// The profile and the schema FILE the parsed arguments name; errors are a usage problem.
Result<Input> ReadInput(const char* cmd, const Args& parsed) {
  if (parsed.positional().size() != 1) {
    return InvalidArgument("give exactly one schema FILE: structure " + std::string(cmd) +
                           " FILE [--provider NAME] (" +
                           std::to_string(parsed.positional().size()) + " given)");
  }
  std::string name = parsed.get("provider", kDefaultProfile);
  Result<pipeline::Profile> profile = pipeline::FindProfile(name);
  if (!profile.ok()) {
    // `--provider openai`, as run and batch take it: the built-in provider's profile.
    if (auto builtin = config::BuiltinProvider(name)) {
      std::fprintf(stderr, "structure %s: provider %s: using profile %s\n", cmd, name.c_str(),
                   builtin->profile.c_str());
      profile = pipeline::FindProfile(builtin->profile);
    } else {
      std::string names;
      for (const auto& n : config::BuiltinProviderNames()) names += (names.empty() ? "" : ", ") + n;
      profile = Status(profile.status().code(),
                       "--provider: " + profile.status().message() + "; or a provider: " + names);
    }
  }
  if (profile.ok() && parsed.has("override")) {
    Result<Json> o = ParseJson(parsed.get("override"), {.max_depth = 16, .source = "--override"});
    if (!o.ok()) return o.status();
    profile = pipeline::ApplyProfileOverrides(std::move(*profile), *o);
  }
  if (!profile.ok()) return profile.status();
  auto arg = ReadJsonArg(parsed.positional()[0], "the schema", kMaxSchemaBytes, "the schema limit");
  if (!arg.ok()) return arg.status();
  const std::string& path = arg->source;
  Result<Json> schema = ParseJson(arg->text, {.max_depth = 512, .source = path});
  if (!schema.ok()) return schema.status();
  Status shape = pipeline::CheckIsSchema(*schema);
  if (!shape.ok()) return InvalidArgument(path + ": " + shape.message());
  // The same verdict as run, batch, the server and validate: a schema the engine cannot honour
  // (unresolvable $ref, a pattern no engine runs, a $ref cycle) is refused here too.
  pipeline::ValidatorOptions check;
  check.allow_unresolved_refs = parsed.has("allow-unresolved-refs");
  auto compiled = pipeline::CheckSchema(*schema, check);
  if (!compiled.ok()) return InvalidArgument(path + ": " + compiled.status().message());
  return Input{std::move(*profile), std::move(*schema)};
}

// `structure <cmd> --provider PROFILE FILE`: parses the arguments, reads the input they name and
// runs `act` on it.
int RunOnInput(const char* cmd, const std::vector<std::string>& args, int (*act)(const Input&),
               const std::string& description) {
  int exit_code = 0;
  auto parsed = ParseOrHelp(cmd, args, kSpec,
                            "structure " + std::string(cmd) +
                                " --provider PROFILE FILE   (FILE: a schema file, or '{...}')",
                            description, exit_code);
  if (!parsed) return exit_code;
  Result<Input> in = ReadInput(cmd, *parsed);
  if (!in.ok()) return Fail(cmd, in.status().message());
  if (!parsed->has("provider")) {
    std::fprintf(stderr, "structure %s: no --provider given: using profile %s\n", cmd,
                 kDefaultProfile);
  }
  return act(*in);
}

Json DroppedJson(const std::vector<pipeline::Dropped>& list) {
  Json dropped = Json::MakeArray();
  for (const pipeline::Dropped& d : list)
    dropped.push_back(Json(
        Json::Object{{"path", Json(d.path)}, {"keyword", Json(d.keyword)}, {"value", d.value}}));
  return dropped;
}

Json Strings(const std::vector<std::string>& list) {
  Json out = Json::MakeArray();
  for (const std::string& s : list) out.push_back(Json(s));
  return out;
}

// A split: the limit that forced it, each part's fields and lowered schema (what is sent, need
// channel included), and the constraints checked on the merged answer.
Json SplitJson(const pipeline::SplitPlan& plan) {
  Json out = Json::MakeObject();
  out.set("mode", Json("split"));
  out.set("forcedBy", Json(plan.forced_by.text));
  Json parts = Json::MakeArray();
  for (const pipeline::SplitPart& p : plan.parts) {
    Json part = Json::MakeObject();
    part.set("pointers", Strings(p.pointers));
    if (!p.as_text.empty()) part.set("asJsonText", Strings(p.as_text));
    part.set("providerSchema", p.lowered.need.schema);
    if (p.lowered.need.tool.is_object()) part.set("needTool", p.lowered.need.tool);
    part.set("dropped", DroppedJson(p.lowered.dropped));
    parts.push_back(std::move(part));
  }
  out.set("parts", std::move(parts));
  Json cross = Json::MakeArray();
  for (const pipeline::CrossConstraint& c : plan.cross)
    cross.push_back(Json(Json::Object{{"keyword", Json(c.constraint.keyword)},
                                      {"at", Json(c.constraint.at)},
                                      {"pointers", Strings(c.constraint.pointers)}}));
  out.set("crossPartConstraints", std::move(cross));
  return out;
}

int PrintLowered(const Input& in) {
  Result<pipeline::Lowering> l = pipeline::LowerOrSplit(in.schema, in.profile);
  if (!l.ok()) return Fail("schema lower", l.status().message());
  if (l->is_split()) {
    std::printf("%s\n", ToJson(SplitJson(l->split), true).c_str());
    return 0;
  }
  const pipeline::Lowered& w = l->whole;
  Json out = Json::MakeObject();
  out.set("mode", Json(w.strict ? "strict" : "fallback"));
  out.set("providerSchema", w.provider_schema);
  out.set("dropped", DroppedJson(w.dropped));
  out.set("reason", w.reason.empty() ? Json() : Json(w.reason));
  std::printf("%s\n", ToJson(out, true).c_str());
  return 0;
}

int PrintChecked(const Input& in) {
  std::vector<std::string> reasons = pipeline::CheckProviderSchema(in.schema, in.profile);
  Json list = Json::MakeArray();
  for (const std::string& r : reasons) list.push_back(Json(r));
  Json out = Json::MakeObject();
  out.set("accepted", Json(reasons.empty()));
  out.set("reasons", std::move(list));
  // What the engine does with it: whole, split (and which limit forced it), or fallback.
  if (Result<pipeline::Lowering> l = pipeline::LowerOrSplit(in.schema, in.profile); l.ok()) {
    Json engine = Json::MakeObject();
    if (l->is_split()) {
      engine.set("mode", Json("split"));
      engine.set("forcedBy", Json(l->split.forced_by.text));
      engine.set("parts", Json(static_cast<int64_t>(l->split.parts.size())));
    } else {
      engine.set("mode", Json(l->whole.strict ? "strict" : "fallback"));
      if (!l->whole.reason.empty()) engine.set("reason", Json(l->whole.reason));
    }
    out.set("engine", std::move(engine));
  }
  std::printf("%s\n", ToJson(out, true).c_str());
  return reasons.empty() ? 0 : 1;
}

int RunLower(const std::vector<std::string>& args) {
  return RunOnInput(
      "schema lower", args, PrintLowered,
      "Lowers a JSON Schema into the form the provider's strict mode accepts "
      "and prints\n{\"mode\",\"providerSchema\",\"dropped\",\"reason\"}; a schema past the "
      "provider's limits\nprints {\"mode\":\"split\",\"forcedBy\",\"parts\":[{\"pointers\","
      "\"providerSchema\",...}],\"crossPartConstraints\"}.\nExit 0 when handled (strict, split "
      "or fallback), 2 when FILE is not a schema the engine can honour.");
}

int RunCheck(const std::vector<std::string>& args) {
  return RunOnInput("schema check", args, PrintChecked,
                    "Says whether the provider would accept the schema as it is, and if "
                    "not, every reason,\nand what the engine does with it (strict, split and "
                    "the limit that forced it, or fallback).\nPrints {\"accepted\",\"reasons\","
                    "\"engine\"}; exit 0 when accepted, 1 when not, 2 when FILE is not a schema.");
}

}  // namespace

STRUCTURE_COMMAND("schema lower", "lower a JSON Schema for a provider's strict mode", RunLower);
STRUCTURE_COMMAND("schema check", "say whether a provider accepts a schema as it is, and why not",
                  RunCheck);

}  // namespace structure::apps
