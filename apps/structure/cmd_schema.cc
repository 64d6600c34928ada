// `structure schema lower|check --provider PROFILE FILE`: lowers a schema for a provider profile,
// or says whether the provider would accept it as it is.
#include <cstdio>

#include "apps/structure/args.h"
#include "apps/structure/command.h"
#include "pipeline/lower.h"
#include "pipeline/profile.h"
#include "pipeline/strict_check.h"

namespace structure::apps {
namespace {

const std::vector<FlagSpec> kSpec = {
    {"provider", true, "PROFILE: openai-strict, anthropic-strict, gemini, gemini-legacy, ollama, vllm, json"},
    {"override", true, "JSON: profile overrides, e.g. '{\"max_depth\":5}'"},
};

struct Input {
  pipeline::Profile profile;
  Json schema;
};

// Exit code 2 and a message on stderr for anything that is not a usable request.
int Load(const char* cmd, const std::vector<std::string>& args, Input& in, bool& help) {
  auto parsed = Args::Parse(args, kSpec);
  if (!parsed.ok()) {
    std::fprintf(stderr, "structure %s: %s\n", cmd, parsed.status().message().c_str());
    return 2;
  }
  help = parsed->help();
  if (help) return 0;
  if (parsed->positional().size() != 1) {
    std::fprintf(stderr, "structure %s: expected exactly one FILE\n", cmd);
    return 2;
  }
  Result<pipeline::Profile> profile = pipeline::FindProfile(parsed->get("provider", "openai-strict"));
  if (profile.ok() && parsed->has("override")) {
    Result<Json> o = ParseJson(parsed->get("override"), {.max_depth = 16, .source = "--override"});
    if (!o.ok()) {
      std::fprintf(stderr, "structure %s: %s\n", cmd, o.status().message().c_str());
      return 2;
    }
    profile = pipeline::ApplyProfileOverrides(std::move(*profile), *o);
  }
  if (!profile.ok()) {
    std::fprintf(stderr, "structure %s: %s\n", cmd, profile.status().message().c_str());
    return 2;
  }
  const std::string& path = parsed->positional()[0];
  Result<std::string> text = ReadFile(path);
  if (!text.ok()) {
    std::fprintf(stderr, "structure %s: %s\n", cmd, text.status().message().c_str());
    return 2;
  }
  Result<Json> schema = ParseJson(*text, {.max_depth = 512, .source = path});
  if (!schema.ok()) {
    std::fprintf(stderr, "structure %s: %s\n", cmd, schema.status().message().c_str());
    return 2;
  }
  Status shape = pipeline::CheckIsSchema(*schema);
  if (!shape.ok()) {
    std::fprintf(stderr, "structure %s: %s: %s\n", cmd, path.c_str(), shape.message().c_str());
    return 2;
  }
  in.profile = std::move(*profile);
  in.schema = std::move(*schema);
  return 0;
}

int RunLower(const std::vector<std::string>& args) {
  Input in;
  bool help = false;
  if (int rc = Load("schema lower", args, in, help); rc != 0) return rc;
  if (help) {
    std::printf("%s", Usage("structure schema lower --provider PROFILE FILE",
                            "Lowers a JSON Schema into the form the provider's strict mode accepts "
                            "and prints\n{\"mode\",\"providerSchema\",\"dropped\",\"reason\"}. Exit 0 "
                            "when handled (strict or fallback), 2 when FILE is not a schema.",
                            kSpec)
                          .c_str());
    return 0;
  }
  Result<pipeline::Lowered> l = pipeline::Lower(in.schema, in.profile);
  if (!l.ok()) {
    std::fprintf(stderr, "structure schema lower: %s\n", l.status().message().c_str());
    return 2;
  }
  Json out = Json::MakeObject();
  out.set("mode", Json(l->strict ? "strict" : "fallback"));
  out.set("providerSchema", l->provider_schema);
  Json dropped = Json::MakeArray();
  for (const pipeline::Dropped& d : l->dropped)
    dropped.push_back(Json(Json::Object{{"path", Json(d.path)}, {"keyword", Json(d.keyword)}, {"value", d.value}}));
  out.set("dropped", std::move(dropped));
  out.set("reason", l->reason.empty() ? Json() : Json(l->reason));
  std::printf("%s\n", ToJson(out, true).c_str());
  return 0;
}

int RunCheck(const std::vector<std::string>& args) {
  Input in;
  bool help = false;
  if (int rc = Load("schema check", args, in, help); rc != 0) return rc;
  if (help) {
    std::printf("%s", Usage("structure schema check --provider PROFILE FILE",
                            "Says whether the provider would accept the schema as it is, and if "
                            "not, every reason.\nPrints {\"accepted\",\"reasons\"}; exit 0 when "
                            "accepted, 1 when not, 2 when FILE is not a schema.",
                            kSpec)
                          .c_str());
    return 0;
  }
  std::vector<std::string> reasons = pipeline::CheckProviderSchema(in.schema, in.profile);
  Json list = Json::MakeArray();
  for (const std::string& r : reasons) list.push_back(Json(r));
  Json out = Json::MakeObject();
  out.set("accepted", Json(reasons.empty()));
  out.set("reasons", std::move(list));
  std::printf("%s\n", ToJson(out, true).c_str());
  return reasons.empty() ? 0 : 1;
}

}  // namespace

STRUCTURE_COMMAND("schema lower", "lower a JSON Schema for a provider's strict mode", RunLower);
STRUCTURE_COMMAND("schema check", "say whether a provider accepts a schema as it is, and why not", RunCheck);

}  // namespace structure::apps
