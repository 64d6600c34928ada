#include "providers/endpoint.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "tests/providers/fake_env.h"

namespace structure::providers {
namespace {

TEST(EndpointTest, TakesKeysFromTheSdkVariables) {
  auto env = FakeEnv({{"OPENAI_API_KEY", "a"},
                      {"ANTHROPIC_API_KEY", "b"},
                      {"GOOGLE_API_KEY", "c"},
                      {"OPENROUTER_API_KEY", "d"}});
  EXPECT_EQ(EndpointFromEnv(ProviderKind::kOpenAi, "", env)->api_key, "a");
  EXPECT_EQ(EndpointFromEnv(ProviderKind::kAnthropic, "", env)->api_key, "b");
  EXPECT_EQ(EndpointFromEnv(ProviderKind::kGemini, "", env)->api_key, "c");
  EXPECT_EQ(EndpointFromEnv(ProviderKind::kOpenRouter, "", env)->api_key, "d");
  EXPECT_EQ(EndpointFromEnv(ProviderKind::kOpenAi, "", env)->base_url, "https://api.openai.com");
}

TEST(EndpointTest, PrefersGeminiKeyOverGoogleKey) {
  auto env = FakeEnv({{"GEMINI_API_KEY", "g"}, {"GOOGLE_API_KEY", "c"}});
  EXPECT_EQ(EndpointFromEnv(ProviderKind::kGemini, "", env)->api_key, "g");
}

TEST(EndpointTest, MissingKeyIsUnauthenticatedUnlessBaseUrlOverridden) {
  auto env = FakeEnv({});
  auto e = EndpointFromEnv(ProviderKind::kAnthropic, "", env);
  EXPECT_EQ(e.status().code(), Code::kUnauthenticated);
  EXPECT_NE(e.status().message().find("ANTHROPIC_API_KEY"), std::string::npos);
  auto sim = EndpointFromEnv(ProviderKind::kAnthropic, "http://127.0.0.1:4000/v1/", env);
  ASSERT_TRUE(sim.ok());
  EXPECT_EQ(sim->base_url, "http://127.0.0.1:4000");
}

TEST(EndpointTest, OllamaHostAcceptsHostPortOrUrl) {
  EXPECT_EQ(
      EndpointFromEnv(ProviderKind::kOllama, "", FakeEnv({{"OLLAMA_HOST", "gpu:1234"}}))->base_url,
      "http://gpu:1234");
  EXPECT_EQ(EndpointFromEnv(ProviderKind::kOllama, "", FakeEnv({}))->base_url,
            "http://127.0.0.1:11434");
}

TEST(EndpointTest, LocalServersDefaultToTheirOwnPorts) {
  EXPECT_EQ(EndpointFromEnv(ProviderKind::kVllm, "", FakeEnv({}))->base_url,
            "http://127.0.0.1:8000");
  EXPECT_EQ(EndpointFromEnv(ProviderKind::kLlamaCpp, "", FakeEnv({}))->base_url,
            "http://127.0.0.1:8080");
  EXPECT_EQ(EndpointFromEnv(ProviderKind::kLlamafile, "", FakeEnv({}))->base_url,
            "http://127.0.0.1:8080");
}

TEST(EndpointTest, ParsesProviderNames) {
  EXPECT_EQ(*ParseProviderKind("openai-compatible"), ProviderKind::kOpenAiCompat);
  EXPECT_EQ(*ParseProviderKind("vllm"), ProviderKind::kVllm);
  EXPECT_EQ(*ParseProviderKind("llamacpp"), ProviderKind::kLlamaCpp);
  EXPECT_EQ(*ParseProviderKind("llamafile"), ProviderKind::kLlamafile);
  EXPECT_EQ(*ParseProviderKind("google"), ProviderKind::kGemini);
  EXPECT_EQ(ParseProviderKind("bard").status().code(), Code::kInvalidArgument);
  EXPECT_EQ(NormalizeBaseUrl("http://h/v1beta/"), "http://h");
}

// A provider's api_key_env is read instead of the SDK's variable, and named when unset.
TEST(EndpointTest, AConfiguredKeyVariableReplacesTheSdkOne) {
  auto env = FakeEnv({{"MY_KEY", "k"}});
  auto e = EndpointFromEnv(ProviderKind::kOpenAi, "", env, "MY_KEY");
  ASSERT_TRUE(e.ok()) << e.status().message();
  EXPECT_EQ(e->api_key, "k");
  auto missing =
      EndpointFromEnv(ProviderKind::kOpenAi, "", FakeEnv({{"OPENAI_API_KEY", "x"}}), "MY_KEY");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "no API key: set MY_KEY");
  EXPECT_EQ(KeyEnvFor(ProviderKind::kGemini, "", FakeEnv({{"GOOGLE_API_KEY", "g"}})),
            "GOOGLE_API_KEY");
  EXPECT_EQ(KeyEnvFor(ProviderKind::kGemini, "", FakeEnv({})), "GEMINI_API_KEY");
  EXPECT_EQ(KeyEnvFor(ProviderKind::kOllama, "", FakeEnv({})), "");
  EXPECT_EQ(ParseProviderKind("openai-compatible").value(), ProviderKind::kOpenAiCompat);
}

TEST(EndpointTest, BaseUrlsMustBeHttpUrls) {
  for (const char* good : {"http://127.0.0.1:8089", "https://api.openai.com", "http://h:1/v1",
                           "HTTPS://Host/prefix/", "http://[::1]:8000", "http://localhost"}) {
    EXPECT_TRUE(CheckBaseUrl(good).ok()) << good << ": " << CheckBaseUrl(good).message();
  }
  for (const char* bad :
       {"", "not-a-url", "ftp://h", "http://", "http://:80", "http://h:0", "http://h:65536",
        "http://h:8o", "http://h:", "http://h x", "http://h/?q=1", "http://h/#f", "http://u:p@h",
        "http://[::1", "http://[]:80", "http://h\x01"}) {
    Status st = CheckBaseUrl(bad);
    EXPECT_FALSE(st.ok()) << bad;
    EXPECT_EQ(st.message().rfind("not an http(s) URL: '", 0), 0u) << st.message();
  }
}

TEST(EndpointTest, LoopbackHostsAreRecognised) {
  for (const char* url :
       {"http://127.0.0.1:9/v1", "http://localhost:8000", "http://[::1]:80", "http://127.1.2.3"}) {
    EXPECT_TRUE(IsLoopbackUrl(url)) << url;
  }
  for (const char* url :
       {"https://api.openai.com", "http://localhost.example.com", "http://10.0.0.1", "x"}) {
    EXPECT_FALSE(IsLoopbackUrl(url)) << url;
  }
}

// One description of the key for `structure providers` and `config check` (they used to
// disagree: config check said "not set" for a provider relying on the SDK's variable).
TEST(EndpointTest, DescribeKeyNamesTheVariableReadAndItsState) {
  auto env = FakeEnv({{"OPENAI_API_KEY", "sk"}, {"MY_KEY", ""}});
  KeyStatus sdk = DescribeKey(ProviderKind::kOpenAi, "", "", env);
  EXPECT_EQ(sdk.variable, "OPENAI_API_KEY");
  EXPECT_EQ(sdk.state, KeyState::kSet);
  KeyStatus own = DescribeKey(ProviderKind::kOpenAi, "MY_KEY", "", env);
  EXPECT_EQ(own.variable, "MY_KEY");
  EXPECT_EQ(own.state, KeyState::kNotSet);
  EXPECT_EQ(DescribeKey(ProviderKind::kAnthropic, "", "http://127.0.0.1:8089", env).state,
            KeyState::kNotNeeded);
  KeyStatus ollama = DescribeKey(ProviderKind::kOllama, "", "", env);
  EXPECT_EQ(ollama.variable, "");
  EXPECT_EQ(ollama.state, KeyState::kNotNeeded);
  EXPECT_EQ(KeyStateName(KeyState::kNotSet), "not set");
  EXPECT_EQ(DescribeKey(ProviderKind::kGemini, "", "", FakeEnv({{"GOOGLE_API_KEY", "g"}})).variable,
            "GOOGLE_API_KEY");
}

}  // namespace
}  // namespace structure::providers
