// Engines sharing a store (a private redis-server): a description built by one engine is reused
// by another (the shared builder cache), a store that is down costs no call and is reported
// once, and a password variable the config names but the environment lacks is a config error.
#include <gtest/gtest.h>

#include <fstream>
#include <mutex>

#include <curl/curl.h>

#include "base/json.h"
#include "base/read_file.h"
#include "structure/engine.h"
#include "tests/support/fake_tcp_server.h"
#include "tests/support/redis_server.h"
#include "tests/support/sim_process.h"

namespace structure {
namespace {

constexpr const char* kConfig = R"(
[structure]
model = "openai"
schemaBuilderModel = "plain"
[providers.openai]
kind = "openai"
model = "gpt-test"
[providers.openai.limits]
requests_per_minute = 60000
[providers.plain]
kind = "openai"
model = "plain-test"
profile = "json"
[aliases]
"default:fast" = "openai"
"default:analyze" = "openai"
)";

std::string HttpGet(const std::string& url) {
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

class EngineSharedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string err;
    sim_ = testing::StartSim(
        STRUCTURE_BINARY,
        {"--scenario", std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/engine/scenario.json"},
        &err);
    ASSERT_TRUE(sim_) << err;
    redis_ = testing::RedisServer::Start(&err);
    ASSERT_TRUE(redis_) << err;
  }

  Result<std::unique_ptr<Engine>> Make(const std::string& stores) {
    auto cfg = Config::Parse(std::string(kConfig) + stores, "engine_shared_test.toml");
    if (!cfg.ok()) return cfg.status();
    EngineOptions o;
    o.config = *cfg;
    o.base_url = sim_->base_url();
    o.database = ":memory:";  // each engine its own SQLite cache: only the store is shared
    o.log = [this](const std::string& line) {
      std::lock_guard<std::mutex> l(mu_);
      log_.push_back(line);
    };
    return Engine::Create(std::move(o));
  }

  std::string Stores() const { return "[stores]\nshared = \"" + redis_->url() + "\"\n"; }

  int64_t BuilderCalls() {
    auto stats = ParseJson(HttpGet(sim_->base_url() + "/stats"));
    const Json* rules = stats.ok() ? stats->find("rules") : nullptr;
    const Json* n = rules ? rules->find("builder-good") : nullptr;
    return n ? n->as_int() : 0;
  }

  static StructureResult Run(Engine& e, const std::string& description) {
    auto req = ParseRequest(*ParseJson(
        R"({"prompt":"CASE-OK Mike, priority two","schemaText":"name (string) and priority (integer 1-5), )" +
        description + "\"}"));
    EXPECT_TRUE(req.ok()) << req.status().message();
    return e.Run(*req);
  }

  std::vector<std::string> Log() {
    std::lock_guard<std::mutex> l(mu_);
    return log_;
  }

  std::unique_ptr<testing::ChildProcess> sim_;
  std::unique_ptr<testing::RedisServer> redis_;
  std::mutex mu_;
  std::vector<std::string> log_;
};

TEST_F(EngineSharedTest, ADescriptionBuiltByOneEngineIsReusedByAnother) {
  auto a = Make(Stores());
  auto b = Make(Stores());
  ASSERT_TRUE(a.ok() && b.ok()) << a.status().message() << b.status().message();
  int64_t before = BuilderCalls();
  StructureResult ra = Run(**a, "shared build");
  ASSERT_EQ(ra.status, Outcome::kOk) << ToJson(ResultToJson(ra));
  EXPECT_EQ(BuilderCalls(), before + 1);
  StructureResult rb = Run(**b, "shared build");
  ASSERT_EQ(rb.status, Outcome::kOk) << ToJson(ResultToJson(rb));
  EXPECT_EQ(rb.schema_origin, "inferred");
  EXPECT_EQ(BuilderCalls(), before + 1);  // b found a's answer in the store
  EXPECT_GT(ra.usage.input_tokens, rb.usage.input_tokens);
  EXPECT_NE(redis_->Query("KEYS structure:builder:*").find("structure:builder:"),
            std::string::npos);
  EXPECT_TRUE(Log().empty());
}

TEST_F(EngineSharedTest, AStoreThatIsDownCostsNoCallAndIsReportedOnce) {
  redis_->Stop();
  auto a = Make(Stores());
  ASSERT_TRUE(a.ok()) << a.status().message();
  int64_t before = BuilderCalls();
  for (int i = 0; i < 3; ++i) {
    StructureResult r = Run(**a, "store down");
    ASSERT_EQ(r.status, Outcome::kOk) << ToJson(ResultToJson(r));
  }
  EXPECT_EQ(BuilderCalls(), before + 1);  // the local cache still works
  auto log = Log();
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0].rfind("shared store " + redis_->url() + " unreachable (", 0), 0u) << log[0];
  EXPECT_NE(log[0].find("a local share of 100 %"), std::string::npos) << log[0];
}

// A port that takes the connection and answers garbage (here an HTTP server's words) is no store
// that answers: one line says it is unreachable and why, none says it answers again, however
// often the client reconnects and the calls use it.
TEST_F(EngineSharedTest, AServerThatIsNotRedisIsLoggedOnceAndNeverAnswersAgain) {
  testing::FakeTcpServer fake("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
  std::string url = "redis://127.0.0.1:" + std::to_string(fake.port()) + "/0";
  auto a = Make("[stores]\nshared = \"" + url + "\"\n");
  ASSERT_TRUE(a.ok()) << a.status().message();
  for (int i = 0; i < 3; ++i) {
    StructureResult r = Run(**a, "not redis " + std::to_string(i));
    ASSERT_EQ(r.status, Outcome::kOk) << ToJson(ResultToJson(r));
  }
  // Bounded: reconnects come every 500 ms.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (fake.connections() < 6 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_GE(fake.connections(), 6);
  auto log = Log();
  size_t down = 0, up = 0;
  for (const auto& line : log) {
    if (line.find(" unreachable (") != std::string::npos) ++down;
    if (line.find(" answers again") != std::string::npos) ++up;
  }
  EXPECT_EQ(down, 1u);
  EXPECT_EQ(up, 0u);
  ASSERT_EQ(log.size(), 1u);
  EXPECT_NE(log[0].find("does not answer as Redis does"), std::string::npos) << log[0];
}

TEST_F(EngineSharedTest, ANamedPasswordVariableThatIsNotSetIsAConfigError) {
  unsetenv("STRUCTURE_TEST_UNSET_REDIS_PW");
  auto e = Make(Stores() + "shared_password_env = \"STRUCTURE_TEST_UNSET_REDIS_PW\"\n");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().code(), Code::kInvalidArgument);
  EXPECT_EQ(e.status().message(),
            "stores.shared_password_env: the variable STRUCTURE_TEST_UNSET_REDIS_PW is not set");
}

TEST_F(EngineSharedTest, ConfigCheckShowsTheStoreAndWhetherItAnswers) {
  std::string file =
      ::testing::TempDir() + "engine_shared_cc_" + std::to_string(getpid()) + ".toml";
  std::string out = file + ".out", err = file + ".err";
  std::ofstream(file) << Stores();
  auto check = [&] {
    std::string error;
    auto child = testing::ChildProcess::Spawn({STRUCTURE_BINARY, "config", "check", file},
                                              testing::ChildIo{"", out, err}, &error);
    EXPECT_TRUE(child) << error;
    EXPECT_EQ(child ? child->Wait() : -1, 0);  // a store that is down is no config error
    auto json = ParseJson(*ReadFile(out));
    EXPECT_TRUE(json.ok());
    return json.ok() ? *json->find("stores")->find("shared") : Json();
  };
  Json up = check();
  EXPECT_EQ(ToJson(*up.find("url")), "\"" + redis_->url() + "\"");
  EXPECT_TRUE(up.find("answers")->as_bool());
  redis_->Stop();
  Json down = check();
  EXPECT_FALSE(down.find("answers")->as_bool());
  EXPECT_NE(down.find("error")->as_string().find("refused"), std::string::npos) << ToJson(down);
  EXPECT_NE(ReadFile(err)->find("structure config check: the shared store does not answer: " +
                                redis_->url()),
            std::string::npos)
      << *ReadFile(err);
  for (const auto& f : {file, out, err}) std::remove(f.c_str());
}

}  // namespace
}  // namespace structure
