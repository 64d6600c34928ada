// The extra CPU of evidence per call, on the path a call runs: the content loop's
// Start and OnReply on a real plan (openai-strict) for each bundled schema, with evidence off
// (the answer alone) and report (the answer in the evidence form, every leaf quoted). The
// answers are generated instances of the schemas; the prompt states every value, so every
// leaf is located and matched. Compare the off and report rows of the same schema (one run).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "base/json_pointer.h"
#include "base/read_file.h"
#include "pipeline/generate/generate.h"
#include "pipeline/loop/content_loop.h"
#include "pipeline/lowering/profile.h"
#include "pipeline/schema_stage.h"

namespace {

using namespace structure;
using namespace structure::pipeline;

struct Case {
  LoopSpec spec;
  providers::ProviderReply reply;
};

// Walks the leaves: the prompt states each value, the claims quote it.
void Leaves(const Json& v, const std::string& path, std::string& prompt, Json& claims) {
  if (v.is_object()) {
    for (const auto& [k, c] : v.as_object())
      Leaves(c, path + "/" + EscapePointerToken(k), prompt, claims);
  } else if (v.is_array()) {
    for (size_t i = 0; i < v.size(); ++i)
      Leaves(v.as_array()[i], path + "/" + std::to_string(i), prompt, claims);
  } else if (!v.is_null()) {
    std::string text = v.is_string() ? v.as_string() : ToJson(v);
    prompt += "The record says " + text + ". ";
    Json c = Json::MakeObject();
    c.set("path", Json(path));
    c.set("quote", Json(text));
    claims.push_back(std::move(c));
  }
}

Case* MakeCase(const std::string& name, config::EvidenceMode mode) {
  auto text = ReadFile(std::string(STRUCTURE_SOURCE_DIR) + "/registry/schemas/" + name + ".json");
  auto schema = text.ok() ? ParseJson(*text) : Result<Json>(text.status());
  if (!schema.ok()) {
    std::fprintf(stderr, "%s: %s\n", name.c_str(), schema.status().message().c_str());
    std::exit(1);
  }
  auto resolved = ResolveSchema(*schema, "registry:bundled");
  auto data = GenerateInstance(*schema, 7);
  if (!resolved.ok() || !data.ok()) std::exit(1);
  PlanOptions options;
  options.evidence = mode;
  auto plan = MakeLoopPlan(*resolved, *FindProfile("openai-strict"), options);
  if (!plan.ok()) std::exit(1);
  auto* c = new Case();  // lives for the whole run
  std::string prompt;
  Json claims = Json::MakeArray();
  Leaves(*data, "", prompt, claims);
  c->spec.plan = *plan;
  c->spec.prompt = prompt;
  c->spec.model = "m";
  Json answer = *data;
  if (mode != config::EvidenceMode::kOff) {
    Json form = Json::MakeObject();
    form.set("answer", std::move(answer));
    form.set("evidence", std::move(claims));
    answer = std::move(form);
  }
  Json envelope = Json::MakeObject();
  envelope.set("result", std::move(answer));
  envelope.set("_need", Json());
  c->reply.content = ToJson(envelope);
  return c;
}

void BM_Call(benchmark::State& state, const std::string& name, config::EvidenceMode mode) {
  Case* c = MakeCase(name, mode);
  for (auto _ : state) {
    LoopState st;
    Start(c->spec, st);
    Step s = OnReply(c->spec, st, c->reply);
    const auto* f = std::get_if<Finish>(&s);
    if (f == nullptr || f->result.status != Outcome::kOk ||
        (mode != config::EvidenceMode::kOff && f->result.ungrounded.size() != 0)) {
      if (f != nullptr) {
        std::fprintf(stderr, "%s: ungrounded %s in %s\n", name.c_str(),
                     ToJson(f->result.ungrounded).c_str(), ToJson(f->result.data).c_str());
      }
      state.SkipWithError("the answer was not accepted with every leaf grounded");
      break;
    }
    benchmark::DoNotOptimize(s);
  }
}

}  // namespace

int main(int argc, char** argv) {
  for (const char* name : {"contact", "event", "insight-record", "invoice", "meeting-notes",
                           "support-ticket", "user-action-record"}) {
    for (auto mode : {config::EvidenceMode::kOff, config::EvidenceMode::kReport}) {
      std::string label =
          std::string("call/") + name + (mode == config::EvidenceMode::kOff ? "/off" : "/report");
      benchmark::RegisterBenchmark(label.c_str(), BM_Call, std::string(name), mode)
          ->Unit(benchmark::kMicrosecond);
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
