// The EngineTest fixture, shared by the end-to-end tests of the structure call (engine_test.cc
// and the engine_*_test.cc files split from it by theme): one `structure sim` per suite on
// tests/data/engine/scenario.json (one scenario rule per path) and a fresh engine per test.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include <curl/curl.h>

#include "registry/schema_registry.h"
#include "structure/engine.h"
#include "tests/support/engine_fixture.h"
#include "tests/support/sim_process.h"
#include "tests/support/ticket_schema.h"

namespace structure::testing {

inline constexpr const char* kEngineTestConfig = R"(
[structure]
model = "openai"
schemaBuilderModel = "plain"

[providers.openai]
kind = "openai"
model = "gpt-test"
[providers.anthropic]
kind = "anthropic"
model = "claude-test"
[providers.gemini]
kind = "gemini"
model = "gemini-test"
[providers.legacy]
kind = "gemini"
model = "gemini-test"
profile = "gemini-legacy"
[providers.ollama]
kind = "ollama"
model = "llama-test"
[providers.compat]
kind = "openai-compatible"
model = "local-test"
[providers.openrouter]
kind = "openrouter"
model = "router/test"
[providers.vllm]
kind = "vllm"
model = "vllm-test"
[providers.llamacpp]
kind = "llamacpp"
model = "llamacpp-test"
[providers.llamafile]
kind = "llamafile"
model = "llamafile-test"
[providers.plain]
kind = "openai"
model = "plain-test"
profile = "json"
[providers.anthropic_nocache]
kind = "anthropic"
model = "claude-test"
[providers.anthropic_nocache.profile_overrides]
prompt_cache = false
[providers.gemini_batch]
kind = "gemini"
model = "gemini-2.5-flash"
[providers.gemini_batch.profile_overrides]
batch_schema_field = "responseSchema"

[aliases]
"default:fast" = "openai"
"default:analyze" = "openai"

[tenants.lax.settings]
requireProviderStrictOutput = false
confidenceThreshold = 0.5
)";

class EngineTest : public EngineFixture<EngineTest> {
 public:
  static std::unique_ptr<ChildProcess> StartSuiteSim(std::string* error) {
    return StartSim(
        STRUCTURE_BINARY,
        {"--scenario", std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/engine/scenario.json"},
        error);
  }

 protected:
  void SetUp() override { StartEngineWithConfig(kEngineTestConfig, "engine_test.toml"); }

  StructureResult Run(const std::string& json_request) {
    auto req = ParseRequest(*ParseJson(json_request));
    EXPECT_TRUE(req.ok()) << req.status().message();
    return engine_->Run(*req);
  }

  StructureResult RunInline(const std::string& prompt, const std::string& extra = "") {
    return Run(R"({"prompt":")" + prompt + R"(","schema":)" + kTicketSchemaText + extra + "}");
  }

  // How often a scenario rule answered, from the simulator's /stats.
  static int64_t RuleHits(const std::string& rule) {
    auto stats = ParseJson(HttpGet(sim_->base_url() + "/stats"));
    if (!stats.ok()) return -1;
    const Json* rules = stats->find("rules");
    const Json* n = rules ? rules->find(rule) : nullptr;
    return n ? n->as_int() : 0;
  }

 private:
  static std::string HttpGet(const std::string& url) {
    std::string body;
    CURL* c = curl_easy_init();
    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(
        c, CURLOPT_WRITEFUNCTION, +[](char* p, size_t s, size_t n, void* out) {
          static_cast<std::string*>(out)->append(p, s * n);
          return s * n;
        });
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &body);
    curl_easy_perform(c);
    curl_easy_cleanup(c);
    return body;
  }
};

// A registry schema whose manual makes the stable prefix long enough to cache; `tag` keeps it
// apart from other tests' prefixes in the shared simulator.
inline void PutLongManualSchema(registry::SchemaRegistry& reg, const std::string& tenant,
                                const std::string& tag, size_t bytes = 8000) {
  std::string manual = "# cached-ticket " + tag + "\n";
  while (manual.size() < bytes) manual += "Each ticket names the person and the priority. ";
  const std::string schema =
      R"({"type":"object","properties":{"name":{"type":"string"},"priority":{"enum":["low","high"]}},"required":["name","priority"],"additionalProperties":false})";
  ASSERT_TRUE(reg.Put({tenant, ""}, {"cached-ticket", "1.0", schema, manual}).ok());
}

}  // namespace structure::testing
