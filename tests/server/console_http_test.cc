// The console of `structure serve` over HTTP (spawned sim + serve): the page and its headers,
// the trace answered only when asked, the console endpoints scoped to the key's tenant, the
// schema check and versions routes, the path prefix and `ui = false`.
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <iterator>

#include "base/json.h"
#include "tests/server/server_fixture.h"

namespace structure::testing {
namespace {

const std::string kAcme = "Authorization: Bearer key-acme";
const std::string kGlobex = "X-API-Key: key-globex";

class ConsoleHttpTest : public ServerFixture {};

std::string Header(const HttpReply& r, const std::string& name) {
  std::string lower = r.headers;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  size_t at = lower.find("\n" + name + ":");
  if (at == std::string::npos) return "";
  size_t start = at + name.size() + 2;
  size_t end = r.headers.find('\r', start);
  std::string v = r.headers.substr(start, end - start);
  while (!v.empty() && v.front() == ' ') v.erase(0, 1);
  return v;
}

Json Body(const HttpReply& r) {
  auto j = ParseJson(r.body);
  EXPECT_TRUE(j.ok()) << r.body;
  return j.ok() ? *j : Json();
}

TEST_F(ConsoleHttpTest, ThePageIsServedWithACspThatAllowsNoInlineScript) {
  HttpReply page = Http("GET", Url("/ui/"));
  EXPECT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("assets/console.js"), std::string::npos);
  std::string csp = Header(page, "content-security-policy");
  EXPECT_NE(csp.find("script-src 'self'"), std::string::npos) << csp;
  EXPECT_EQ(csp.find("unsafe-inline"), std::string::npos) << csp;
  EXPECT_EQ(Header(page, "x-content-type-options"), "nosniff");
  EXPECT_EQ(Header(page, "referrer-policy"), "no-referrer");

  HttpReply js = Http("GET", Url("/ui/assets/console.js"));
  EXPECT_EQ(js.status, 200);
  EXPECT_EQ(Header(js, "content-type"), "text/javascript; charset=utf-8");
  std::string etag = Header(js, "etag");
  ASSERT_FALSE(etag.empty());
  EXPECT_EQ(Http("GET", Url("/ui/assets/console.js"), "", {"If-None-Match: " + etag}).status, 304);

  HttpReply redirect = Http("GET", Url("/ui"));
  EXPECT_EQ(redirect.status, 308);
  EXPECT_EQ(Header(redirect, "location"), "ui/");
  EXPECT_EQ(Http("GET", Url("/ui/nothing.js")).status, 404);
  EXPECT_EQ(Http("POST", Url("/ui/"), "{}").status, 405);
  EXPECT_EQ(Http("GET", Url("/uix")).status, 404);
}

TEST_F(ConsoleHttpTest, TheTraceIsAnsweredOnlyWhenAsked) {
  std::string body = InlineCall("Mike broke the build, priority 2");
  Json plain = Body(Http("POST", Url("/v1/structure"), body, {kAcme}));
  EXPECT_EQ(plain.find("trace"), nullptr) << "the server traces for its ring, but answers it only "
                                             "when asked";
  body.insert(body.size() - 1, R"(,"trace":true)");
  Json traced = Body(Http("POST", Url("/v1/structure"), body, {kAcme}));
  const Json* trace = traced.find("trace");
  ASSERT_NE(trace, nullptr) << ToJson(traced);
  EXPECT_EQ(trace->find("provider")->as_string(), "simulator");
  const auto& rounds = trace->find("rounds")->as_array();
  ASSERT_EQ(rounds.size(), static_cast<size_t>(traced.find("iterations")->as_int()));
  EXPECT_EQ(rounds.back().find("verdict")->as_string(), "accepted");
  EXPECT_TRUE(rounds.front().find("schema")->is_object());
}

TEST_F(ConsoleHttpTest, TheConsoleEndpointsSeeOnlyTheKeysTenant) {
  EXPECT_EQ(Http("GET", Url("/v1/console/info")).status, 401);
  Json info = Body(Http("GET", Url("/v1/console/info"), "", {kAcme}));
  EXPECT_EQ(info.find("tenant")->as_string(), "acme");
  EXPECT_EQ(ToJson(*info.find("projects")), R"(["billing"])");
  std::string text = ToJson(info);
  EXPECT_EQ(text.find("api_key"), std::string::npos);
  EXPECT_EQ(text.find("http://"), std::string::npos) << "no base URL reaches the browser";

  Json done =
      Body(Http("POST", Url("/v1/structure"), InlineCall("CASE-STALE acme only", 2), {kAcme}));
  ASSERT_EQ(done.find("status")->as_string(), "stale") << ToJson(done);
  Json mine = Body(Http("GET", Url("/v1/console/calls?limit=5"), "", {kAcme}));
  const auto& calls = mine.find("calls")->as_array();
  ASSERT_FALSE(calls.empty());
  const Json& last = calls.front();
  EXPECT_EQ(last.find("status")->as_string(), "stale");
  EXPECT_EQ(last.find("schema")->as_string(), "inline");
  EXPECT_FALSE(last.find("issues")->as_array().empty()) << ToJson(last);
  EXPECT_EQ(last.find("prompt"), nullptr) << "no prompt is kept by default";
  std::string id = std::to_string(last.find("id")->as_int());

  Json theirs = Body(Http("GET", Url("/v1/console/calls"), "", {kGlobex}));
  for (const auto& c : theirs.find("calls")->as_array()) {
    EXPECT_NE(c.find("id")->as_int(), last.find("id")->as_int());
  }
  EXPECT_EQ(Http("GET", Url("/v1/console/calls/" + id), "", {kGlobex}).status, 404);
  HttpReply own = Http("GET", Url("/v1/console/calls/" + id), "", {kAcme});
  EXPECT_EQ(own.status, 200);
  EXPECT_EQ(Body(own).find("prompt"), nullptr);
  EXPECT_EQ(Http("GET", Url("/v1/console/calls/x1"), "", {kAcme}).status, 404);
  EXPECT_EQ(Http("GET", Url("/v1/console/calls?limit=0"), "", {kAcme}).status, 400);

  Json stats = Body(Http("GET", Url("/v1/console/stats"), "", {kAcme}));
  EXPECT_GE(stats.find("schemas")->find("inline")->find("calls")->as_int(), 1);
  EXPECT_EQ(stats.find("providers"), nullptr);
  Json other = Body(Http("GET", Url("/v1/console/stats"), "", {kGlobex}));
  const Json* inline_other = other.find("schemas")->find("inline");
  EXPECT_TRUE(inline_other == nullptr || inline_other->find("calls")->as_int() == 0);
  EXPECT_EQ(Http("POST", Url("/v1/console/info"), "{}", {kAcme}).status, 405);
  EXPECT_EQ(Http("GET", Url("/v1/console/nothing"), "", {kAcme}).status, 404);
}

TEST_F(ConsoleHttpTest, TheSchemaCheckSaysWhatAPutWouldAnswerAndVersionsListThePuts) {
  Json current = Body(Http("GET", Url("/v1/schemas/event"), "", {kGlobex}));
  Json schema = *current.find("schema");
  Json props = *schema.find("properties");
  props.set("color", Json(Json::Object{{"type", Json("string")}}));
  schema.set("properties", props);
  Json put = Json::MakeObject();
  put.set("schema", schema);
  put.set("version", "1.1");
  Json ok = Body(Http("POST", Url("/v1/schemas/event/check"), ToJson(put), {kGlobex}));
  EXPECT_TRUE(ok.find("accepted")->as_bool()) << ToJson(ok);
  EXPECT_TRUE(ok.find("validator")->find("ok")->as_bool());
  const auto& providers = ok.find("providers")->as_array();
  ASSERT_FALSE(providers.empty());
  EXPECT_EQ(providers[0].find("mode")->as_string(), "strict") << ToJson(providers[0]);
  EXPECT_EQ(Http("GET", Url("/v1/schemas/event?level=exact"), "", {kGlobex}).status, 404)
      << "a check stores nothing";

  Json required = *schema.find("required");
  required.push_back(Json("color"));
  schema.set("required", required);
  put.set("schema", schema);
  Json refused = Body(Http("POST", Url("/v1/schemas/event/check"), ToJson(put), {kGlobex}));
  EXPECT_FALSE(refused.find("accepted")->as_bool());
  EXPECT_NE(refused.find("problem")->as_string().find("event-v2"), std::string::npos)
      << ToJson(refused);
  HttpReply breaking = Http("PUT", Url("/v1/schemas/event"), ToJson(put), {kGlobex});
  EXPECT_EQ(breaking.status, 400);
  // The check's problem is the PUT's error, word for word (compared unescaped).
  auto answer = ParseJson(breaking.body);
  ASSERT_TRUE(answer.ok()) << breaking.body;
  EXPECT_NE(ToJson(*answer->find("errors")).find(ToJson(*refused.find("problem")).substr(1, 40)),
            std::string::npos)
      << breaking.body << "\n"
      << ToJson(refused);

  Json bad = Json::MakeObject();
  bad.set("schema", Json(Json::Object{{"type", Json(5)}}));
  bad.set("version", "1.1");
  Json invalid = Body(Http("POST", Url("/v1/schemas/event/check"), ToJson(bad), {kGlobex}));
  EXPECT_FALSE(invalid.find("validator")->find("ok")->as_bool());
  EXPECT_EQ(Http("POST", Url("/v1/schemas/event/check"), "[1]", {kGlobex}).status, 400);

  put.set("schema", *current.find("schema"));
  ASSERT_EQ(Http("PUT", Url("/v1/schemas/event"), ToJson(put), {kGlobex}).status, 200);
  Json versions = Body(Http("GET", Url("/v1/schemas/event/versions"), "", {kGlobex}));
  ASSERT_EQ(versions.find("versions")->as_array().size(), 1u);
  EXPECT_EQ(versions.find("versions")->as_array()[0].find("version")->as_string(), "1.1");
  Json acme = Body(Http("GET", Url("/v1/schemas/event/versions"), "", {kAcme}));
  EXPECT_TRUE(acme.find("versions")->as_array().empty()) << "another tenant's history is its own";
  EXPECT_EQ(Http("GET", Url("/v1/schemas/event/other"), "", {kAcme}).status, 404);
  EXPECT_EQ(Http("POST", Url("/v1/schemas/event/versions"), "{}", {kAcme}).status, 405);
}

// A serve of its own with `extra` appended to the fixture's [server] table.
std::unique_ptr<ChildProcess> ServeWith(const std::string& sim_url, const std::string& extra,
                                        const std::vector<std::string>& flags,
                                        const std::string& name) {
  std::ifstream in(DataFile("server.toml"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  text.insert(text.find("max_loops = 5") + 13, "\n" + extra);
  std::string path = ::testing::TempDir() + name + ".toml";
  std::ofstream(path) << text;
  std::vector<std::string> argv = {STRUCTURE_BINARY, "serve",   "--config",   path,
                                   "--port",         "0",       "--base-url", sim_url,
                                   "--database",     ":memory:"};
  argv.insert(argv.end(), flags.begin(), flags.end());
  std::string error;
  auto p = ChildProcess::StartListening(argv, std::chrono::seconds(60), &error);
  EXPECT_NE(p, nullptr) << error;
  return p;
}

TEST_F(ConsoleHttpTest, BehindAPathPrefixEveryRouteAnswersUnderIt) {
  auto serve = ServeWith(sim_->base_url(), "", {"--ui-base", "/structure/"}, "console_prefix");
  ASSERT_NE(serve, nullptr);
  std::string root = serve->base_url();
  EXPECT_EQ(Http("GET", root + "/structure/ui/").status, 200);
  EXPECT_EQ(Http("GET", root + "/structure/v1/console/info", "", {kAcme}).status, 200);
  EXPECT_EQ(Http("GET", root + "/structure/healthz").status, 200);
  EXPECT_EQ(Http("GET", root + "/ui/").status, 200) << "and without it";
  EXPECT_EQ(Http("GET", root + "/structurex/ui/").status, 404);
}

TEST_F(ConsoleHttpTest, UiFalseTurnsTheConsoleOff) {
  auto serve = ServeWith(sim_->base_url(), "ui = false", {}, "console_off");
  ASSERT_NE(serve, nullptr);
  EXPECT_EQ(Http("GET", serve->base_url() + "/ui/").status, 404);
  EXPECT_EQ(Http("GET", serve->base_url() + "/v1/console/info", "", {kAcme}).status, 404);
  EXPECT_EQ(Http("GET", serve->base_url() + "/healthz").status, 200);
}

TEST_F(ConsoleHttpTest, KeptPromptsComeBackWithTheirCall) {
  auto serve = ServeWith(sim_->base_url(), "keep_prompts = true", {}, "console_keep");
  ASSERT_NE(serve, nullptr);
  std::string body = R"({"prompt":"Mike <script>x</script>, priority 2","schema":)" +
                     std::string(kTicketSchema) + "}";
  ASSERT_EQ(Http("POST", serve->base_url() + "/v1/structure", body, {kAcme}).status, 200);
  Json list = Body(Http("GET", serve->base_url() + "/v1/console/calls", "", {kAcme}));
  std::string id = std::to_string(list.find("calls")->as_array().at(0).find("id")->as_int());
  Json call = Body(Http("GET", serve->base_url() + "/v1/console/calls/" + id, "", {kAcme}));
  EXPECT_EQ(call.find("prompt")->as_string(), "Mike <script>x</script>, priority 2");
  EXPECT_EQ(call.find("result")->find("status")->as_string(), "ok");
  EXPECT_NE(call.find("result")->find("trace"), nullptr);
}

}  // namespace
}  // namespace structure::testing
