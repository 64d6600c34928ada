// The HTTP API end to end: `structure serve` (child process) -> engine -> `structure sim`
// (child process), driven with libcurl. Auth matrix, tenant isolation, limits, schema CRUD,
// metrics and the OpenAPI document; graceful shutdown is in shutdown_test.cc.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "base/json.h"
#include "tests/server/http_client.h"
#include "tests/server/server_fixture.h"

namespace structure::testing {
namespace {

const std::string kAcme = "Authorization: Bearer key-acme";
const std::string kGlobex = "X-API-Key: key-globex";

class HttpApiTest : public ServerFixture {};

TEST_F(HttpApiTest, HealthzAnswersWithoutAKey) {
  HttpReply r = Http("GET", Url("/healthz"));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, R"({"status":"ok"})");
}

TEST_F(HttpApiTest, StructureWithoutOrWithAWrongKeyIs401AndSaysWhy) {
  HttpReply none = Http("POST", Url("/v1/structure"), InlineCall("CASE-OK Mike, priority 2"));
  EXPECT_EQ(none.status, 401);
  EXPECT_NE(none.body.find("missing API key"), std::string::npos) << none.body;
  HttpReply wrong = Http("POST", Url("/v1/structure"), InlineCall("CASE-OK Mike, priority 2"),
                         {"Authorization: Bearer key-nobody"});
  EXPECT_EQ(wrong.status, 401);
  EXPECT_NE(wrong.body.find("invalid API key"), std::string::npos) << wrong.body;
  EXPECT_EQ(wrong.body.find("key-nobody"), std::string::npos) << "the key is echoed";
  HttpReply schemas = Http("GET", Url("/v1/schemas"));
  EXPECT_EQ(schemas.status, 401);
}

TEST_F(HttpApiTest, InlineCallReturnsTheValidatedObject) {
  HttpReply r =
      Http("POST", Url("/v1/structure"), InlineCall("Mike broke the build, priority 2"), {kAcme});
  ASSERT_EQ(r.status, 200) << r.body;
  Json j = *ParseJson(r.body);
  EXPECT_EQ(j.find("status")->as_string(), "ok") << r.body;
  EXPECT_EQ(j.find("schemaOrigin")->as_string(), "inline");
  EXPECT_EQ(j.find("iterations")->as_int(), 1);
  const Json* data = j.find("data");
  ASSERT_NE(data, nullptr);
  EXPECT_TRUE(data->find("name")->is_string());
  int64_t p = data->find("priority")->as_int();
  EXPECT_TRUE(p >= 1 && p <= 5) << r.body;
}

TEST_F(HttpApiTest, PerRequestSettingsReachTheCall) {
  std::string body = InlineCall("Mike broke the build, priority 2");
  body.insert(body.size() - 1, R"(,"requireProviderStrictOutput":false)");
  HttpReply r = Http("POST", Url("/v1/structure"), body, {kAcme});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_NE(r.body.find(R"("mode":"fallback")"), std::string::npos) << r.body;
  std::string bad = InlineCall("Mike");
  bad.insert(bad.size() - 1, R"(,"confidenceThreshold":-1)");
  HttpReply b = Http("POST", Url("/v1/structure"), bad, {kAcme});
  EXPECT_EQ(b.status, 400) << b.body;
  EXPECT_NE(b.body.find("confidenceThreshold: must be a number 0..1 (was -1)"), std::string::npos)
      << b.body;
}

TEST_F(HttpApiTest, ATenantsCheckCommandComesFromTheServerConfigOnly) {
  HttpReply acme = Http("POST", Url("/v1/structure"), InlineCall("CASE-CHECK who did it"), {kAcme});
  ASSERT_EQ(acme.status, 200) << acme.body;
  EXPECT_NE(acme.body.find(R"("name":"Mike")"), std::string::npos) << acme.body;
  EXPECT_NE(acme.body.find(R"("iterations":2)"), std::string::npos) << acme.body;
  HttpReply globex =
      Http("POST", Url("/v1/structure"), InlineCall("CASE-CHECK who did it"), {kGlobex});
  ASSERT_EQ(globex.status, 200) << globex.body;
  EXPECT_NE(globex.body.find(R"("name":"Bob")"), std::string::npos)
      << "globex has no check: " << globex.body;
  std::string body = InlineCall("CASE-OK x");
  body.insert(body.size() - 1, R"(,"check":"true")");
  HttpReply named = Http("POST", Url("/v1/structure"), body, {kAcme});
  EXPECT_EQ(named.status, 400) << named.body;
  EXPECT_NE(named.body.find("check: unknown field"), std::string::npos) << named.body;
}

TEST_F(HttpApiTest, StaleAndNeedAreResultsWith200) {
  HttpReply stale = Http("POST", Url("/v1/structure"), InlineCall("CASE-STALE Mike", 2), {kAcme});
  ASSERT_EQ(stale.status, 200) << stale.body;
  EXPECT_NE(stale.body.find(R"("status":"stale")"), std::string::npos) << stale.body;
  EXPECT_NE(stale.body.find("/priority: value must be <= 5 (was 9)"), std::string::npos)
      << stale.body;
  HttpReply need = Http("POST", Url("/v1/structure"), InlineCall("CASE-NEED Mike"), {kAcme});
  ASSERT_EQ(need.status, 200) << need.body;
  EXPECT_NE(need.body.find(R"("need":"the priority is not in the input")"), std::string::npos)
      << need.body;
}

TEST_F(HttpApiTest, AnotherProjectOrTenantIs403) {
  std::string call = InlineCall("Mike, priority 2");
  call.insert(1, R"("project":"payroll",)");
  HttpReply p = Http("POST", Url("/v1/structure"), call, {kAcme});
  EXPECT_EQ(p.status, 403) << p.body;
  std::string other = InlineCall("Mike, priority 2");
  other.insert(1, R"("tenant":"globex",)");
  HttpReply t = Http("POST", Url("/v1/structure"), other, {kAcme});
  EXPECT_EQ(t.status, 403) << t.body;
  EXPECT_EQ(Http("GET", Url("/v1/schemas?project=payroll"), "", {kAcme}).status, 403);
  EXPECT_EQ(Http("GET", Url("/v1/schemas/contact?project=payroll"), "", {kAcme}).status, 403);
  // The allowed project works.
  std::string ok = InlineCall("Mike, priority 2");
  ok.insert(1, R"("project":"billing",)");
  EXPECT_EQ(Http("POST", Url("/v1/structure"), ok, {kAcme}).status, 200);
}

TEST_F(HttpApiTest, LimitsAnswer413Or400WithTheField) {
  HttpReply prompt =
      Http("POST", Url("/v1/structure"), InlineCall(std::string(5000, 'x')), {kAcme});
  EXPECT_EQ(prompt.status, 413);
  EXPECT_NE(prompt.body.find(
                "prompt: 5000 bytes is over the limit of 4096 bytes (server.max_prompt_bytes)"),
            std::string::npos)
      << prompt.body;

  // A body over max_body_bytes is refused by the HTTP layer, in the same error shape.
  HttpReply over = Http("POST", Url("/v1/structure"), std::string(70000, ' '), {kAcme});
  EXPECT_EQ(over.status, 413);
  auto parsed = ParseJson(over.body);
  ASSERT_TRUE(parsed.ok()) << over.body;
  EXPECT_EQ(*parsed->find("status"), Json("error")) << over.body;
  EXPECT_EQ(*parsed->find("code"), Json("too_large")) << over.body;
  EXPECT_NE(
      over.body.find("request body too large: the limit is 65536 bytes (server.max_body_bytes)"),
      std::string::npos)
      << over.body;

  std::string big_schema = R"({"type":"object","description":")" + std::string(9000, 'd') + R"("})";
  HttpReply schema =
      Http("POST", Url("/v1/structure"), R"({"prompt":"x","schema":)" + big_schema + "}", {kAcme});
  EXPECT_EQ(schema.status, 413);
  EXPECT_NE(schema.body.find("schema: "), std::string::npos) << schema.body;

  std::string deep = R"({"type":"object"})";
  for (int i = 0; i < 10; ++i) deep = R"({"type":"object","properties":{"a":)" + deep + "}}";
  HttpReply depth =
      Http("POST", Url("/v1/structure"), R"({"prompt":"x","schema":)" + deep + "}", {kAcme});
  EXPECT_EQ(depth.status, 400);
  EXPECT_NE(depth.body.find("nested deeper than 8"), std::string::npos) << depth.body;

  HttpReply loops = Http("POST", Url("/v1/structure"), InlineCall("x", 7), {kAcme});
  EXPECT_EQ(loops.status, 400);
  EXPECT_NE(loops.body.find("maxLoops: must be an integer 1..5 (was 7)"), std::string::npos)
      << loops.body;

  HttpReply body = Http("POST", Url("/v1/structure"), std::string(70000, ' '), {kAcme});
  EXPECT_EQ(body.status, 413);

  HttpReply junk = Http("POST", Url("/v1/structure"), "{not json", {kAcme});
  EXPECT_EQ(junk.status, 400);
  EXPECT_NE(junk.body.find("body:1:"), std::string::npos) << junk.body;

  HttpReply unknown =
      Http("POST", Url("/v1/structure"), R"({"prompt":"x","schema":{},"bogus":1})", {kAcme});
  EXPECT_EQ(unknown.status, 400);
  EXPECT_NE(unknown.body.find("bogus: unknown field"), std::string::npos) << unknown.body;
}

TEST_F(HttpApiTest, WrongMethodIs405AndUnknownPathIs404) {
  HttpReply m = Http("GET", Url("/v1/structure"), "", {kAcme});
  EXPECT_EQ(m.status, 405);
  EXPECT_NE(m.headers.find("Allow: POST"), std::string::npos) << m.headers;
  EXPECT_EQ(Http("GET", Url("/v2/nothing"), "", {kAcme}).status, 404);
}

TEST_F(HttpApiTest, SchemaCrudWithTenantAndProjectOverrides) {
  const std::string schema =
      R"({"schema":{"type":"object","title":"Ticket","properties":{"name":{"type":"string"},"priority":{"type":"integer","minimum":1,"maximum":5}},"required":["name","priority"],"additionalProperties":false},"version":"1.0","manual":"A ticket."})";
  HttpReply put = Http("PUT", Url("/v1/schemas/ticket"), schema, {kAcme});
  ASSERT_EQ(put.status, 200) << put.body;
  EXPECT_NE(put.body.find(R"("origin":"registry:tenant:acme")"), std::string::npos) << put.body;

  HttpReply get = Http("GET", Url("/v1/schemas/ticket"), "", {kAcme});
  ASSERT_EQ(get.status, 200) << get.body;
  EXPECT_NE(get.body.find(R"("manual":"A ticket.")"), std::string::npos) << get.body;

  // A project override shadows the tenant's entry for that project only.
  std::string v11 = schema;
  v11.replace(v11.find("\"1.0\""), 5, "\"1.1\"");
  HttpReply pput = Http("PUT", Url("/v1/schemas/ticket?project=billing"), v11, {kAcme});
  ASSERT_EQ(pput.status, 200) << pput.body;
  HttpReply pget = Http("GET", Url("/v1/schemas/ticket?project=billing"), "", {kAcme});
  EXPECT_NE(pget.body.find(R"("origin":"registry:project:billing")"), std::string::npos)
      << pget.body;
  EXPECT_NE(pget.body.find(R"("version":"1.1")"), std::string::npos) << pget.body;
  HttpReply list = Http("GET", Url("/v1/schemas?project=billing"), "", {kAcme});
  ASSERT_EQ(list.status, 200);
  EXPECT_NE(list.body.find(R"("shadows":["registry:tenant:acme"])"), std::string::npos)
      << list.body;
  EXPECT_NE(list.body.find(R"("name":"contact")"), std::string::npos)
      << "bundled schemas are listed";

  // A breaking version is refused with the registry's message.
  std::string v2 = schema;
  v2.replace(v2.find("\"1.0\""), 5, "\"2.0\"");
  HttpReply breaking = Http("PUT", Url("/v1/schemas/ticket"), v2, {kAcme});
  EXPECT_EQ(breaking.status, 400) << breaking.body;
  // So is a breaking change published as a minor version: the answer names it and a new name.
  std::string narrower = schema;
  narrower.replace(narrower.find("\"1.0\""), 5, "\"1.2\"");
  narrower.replace(narrower.find("\"maximum\":5"), 11, "\"maximum\":3");
  HttpReply minor = Http("PUT", Url("/v1/schemas/ticket"), narrower, {kAcme});
  EXPECT_EQ(minor.status, 400) << minor.body;
  EXPECT_NE(
      minor.body.find("/properties/priority: upper bound lowered from maximum 5 to maximum 3"),
      std::string::npos)
      << minor.body;
  EXPECT_NE(minor.body.find("a breaking change needs a new name, e.g. ticket-v2"),
            std::string::npos)
      << minor.body;

  // A named call resolves along the cascade.
  HttpReply named = Http(
      "POST", Url("/v1/structure"),
      R"({"prompt":"Mike, priority 2","schema":"ticket","schemaMode":"named","project":"billing"})",
      {kAcme});
  ASSERT_EQ(named.status, 200) << named.body;
  EXPECT_NE(named.body.find(R"("schemaOrigin":"registry:project:billing")"), std::string::npos)
      << named.body;

  HttpReply del = Http("DELETE", Url("/v1/schemas/ticket?project=billing"), "", {kAcme});
  EXPECT_EQ(del.status, 204);
  HttpReply after = Http("GET", Url("/v1/schemas/ticket?project=billing"), "", {kAcme});
  EXPECT_NE(after.body.find(R"("origin":"registry:tenant:acme")"), std::string::npos) << after.body;
  EXPECT_EQ(Http("DELETE", Url("/v1/schemas/ticket?project=billing"), "", {kAcme}).status, 404);
}

TEST_F(HttpApiTest, PutRefusesSchemasThatCannotCompile) {
  struct Case {
    const char* body;
    const char* says;
  };
  const Case cases[] = {
      {R"({"schema":{"type":5},"version":"1.0"})", "/type"},
      {R"({"schema":{"$ref":"#/$defs/a","$defs":{"a":{"$ref":"#/$defs/a"}}},"version":"1.0"})",
       "$ref"},
      {R"({"schema":{"$ref":"#/$defs/missing"},"version":"1.0"})", "missing"},
      {R"({"schema":{"type":"string","pattern":"(unclosed"},"version":"1.0"})", "pattern"},
      {R"({"schema":{"type":"integer","minimum":"x"},"version":"1.0"})", "minimum"},
  };
  for (const Case& c : cases) {
    HttpReply put = Http("PUT", Url("/v1/schemas/broken"), c.body, {kAcme});
    EXPECT_EQ(put.status, 400) << c.body << " -> " << put.body;
    EXPECT_NE(put.body.find(c.says), std::string::npos) << c.body << " -> " << put.body;
  }
  EXPECT_EQ(Http("GET", Url("/v1/schemas/broken"), "", {kAcme}).status, 404);
}

TEST_F(HttpApiTest, AnotherTenantCannotTellThatASchemaNameExists) {
  const std::string schema = R"({"schema":{"type":"object"},"version":"1.0"})";
  ASSERT_EQ(Http("PUT", Url("/v1/schemas/secret-plan"), schema, {kAcme}).status, 200);
  HttpReply existing = Http("GET", Url("/v1/schemas/secret-plan"), "", {kGlobex});
  HttpReply missing = Http("GET", Url("/v1/schemas/secret-plax"), "", {kGlobex});
  EXPECT_EQ(existing.status, 404);
  EXPECT_EQ(missing.status, 404);
  std::string a = existing.body, b = missing.body;
  a.replace(a.find("secret-plan"), 11, "NAME");
  b.replace(b.find("secret-plax"), 11, "NAME");
  EXPECT_EQ(a, b);
  HttpReply list = Http("GET", Url("/v1/schemas"), "", {kGlobex});
  EXPECT_EQ(list.body.find("secret-plan"), std::string::npos);
  EXPECT_EQ(Http("DELETE", Url("/v1/schemas/secret-plan"), "", {kGlobex}).status, 404);
  HttpReply call = Http("POST", Url("/v1/structure"),
                        R"({"prompt":"x","schema":"secret-plan","schemaMode":"named"})", {kGlobex});
  EXPECT_EQ(call.status, 404);
  EXPECT_NE(call.body.find("unknown_schema"), std::string::npos) << call.body;
  EXPECT_EQ(call.body.find("acme"), std::string::npos) << call.body;
}

TEST_F(HttpApiTest, MetricsMoveAfterCalls) {
  const char* ok_series =
      R"(structure_calls_total{endpoint="structure",status="ok",schema_origin="inline"})";
  const char* stale_series =
      R"(structure_calls_total{endpoint="structure",status="stale",schema_origin="inline"})";
  const char* tokens = R"(structure_tokens_total{direction="input"})";
  const char* iterations = "structure_iterations_count";
  // The engine's per-schema metrics: every re-ask, by reason; a tenant's own schema counts
  // under "tenant", never by its name (/metrics needs no key: every tenant may read it).
  const char* schema_calls = R"(structure_schema_calls_total{schema="inline"})";
  const char* schema_stale = R"(structure_schema_results_total{schema="inline",status="stale"})";
  const char* reask = R"(structure_schema_reasks_total{schema="inline",reason="bounds"})";
  const char* schema_iter = R"(structure_schema_iterations_bucket{schema="inline",le="2"})";
  const char* schema_tokens = R"(structure_schema_tokens_total{schema="inline",kind="input"})";
  const char* override_calls = R"(structure_schema_calls_total{schema="tenant"})";
  const char* latency = "structure_provider_call_duration_seconds_count{provider=";
  const std::string schema =
      R"({"schema":{"type":"object","properties":{"name":{"type":"string"},"priority":{"type":"integer","minimum":1,"maximum":5}},"required":["name","priority"],"additionalProperties":false},"version":"1.0"})";
  ASSERT_EQ(Http("PUT", Url("/v1/schemas/metered-ticket"), schema, {kGlobex}).status, 200);
  std::string before = Metrics();
  ASSERT_EQ(Http("POST", Url("/v1/structure"), InlineCall("Mike, priority 2"), {kGlobex}).status,
            200);
  ASSERT_EQ(Http("POST", Url("/v1/structure"), InlineCall("CASE-STALE Mike", 2), {kGlobex}).status,
            200);
  EXPECT_EQ(Http("POST", Url("/v1/structure"), InlineCall("Mike"), {"X-API-Key: wrong"}).status,
            401);
  HttpReply named = Http(
      "POST", Url("/v1/structure"),
      R"({"prompt":"Mike, priority 2","schema":"metered-ticket","schemaMode":"named"})", {kGlobex});
  ASSERT_EQ(named.status, 200) << named.body;
  std::string after = Metrics();
  EXPECT_EQ(Value(after, ok_series), Value(before, ok_series) + 1) << after;
  EXPECT_EQ(Value(after, stale_series), Value(before, stale_series) + 1) << after;
  EXPECT_EQ(Value(after, iterations), Value(before, iterations) + 3) << after;
  EXPECT_GT(Value(after, tokens), Value(before, tokens));
  EXPECT_EQ(Value(after, schema_calls), Value(before, schema_calls) + 2) << after;
  EXPECT_EQ(Value(after, schema_stale), Value(before, schema_stale) + 1) << after;
  // CASE-STALE with maxLoops 2: the first answer is re-asked, the second ends the call.
  EXPECT_EQ(Value(after, reask), Value(before, reask) + 1) << after;
  EXPECT_EQ(Value(after, schema_iter), Value(before, schema_iter) + 2) << after;
  EXPECT_GT(Value(after, schema_tokens), Value(before, schema_tokens));
  EXPECT_EQ(Value(after, override_calls), Value(before, override_calls) + 1) << after;
  EXPECT_NE(after.find(latency), std::string::npos) << after;
  const char* unauth =
      R"(structure_http_responses_total{method="POST",route="/v1/structure",code="401"})";
  EXPECT_EQ(Value(after, unauth), Value(before, unauth) + 1) << after;
  EXPECT_NE(after.find("# TYPE structure_call_duration_seconds histogram"), std::string::npos);
  EXPECT_NE(after.find("# TYPE structure_schema_iterations histogram"), std::string::npos);
  // Tenant and project ids, and the names of their schemas, stay out of the unscoped metrics.
  EXPECT_EQ(after.find("acme"), std::string::npos);
  EXPECT_EQ(after.find("globex"), std::string::npos);
  EXPECT_EQ(after.find("metered-ticket"), std::string::npos) << after;
}

TEST_F(HttpApiTest, OpenApiDocumentListsEveryRoute) {
  HttpReply r = Http("GET", Url("/v1/openapi.json"));
  ASSERT_EQ(r.status, 200);
  auto doc = ParseJson(r.body);
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(doc->find("openapi")->as_string(), "3.1.0");
  const Json* paths = doc->find("paths");
  ASSERT_NE(paths, nullptr);
  for (const char* p : {"/v1/structure", "/v1/schemas", "/v1/schemas/{name}", "/healthz",
                        "/metrics", "/v1/openapi.json", "/v1/chat/completions", "/v1/responses",
                        "/v1/models", "/v1/models/{id}"}) {
    EXPECT_NE(paths->find(p), nullptr) << p;
  }
  for (const char* m : {"get", "put", "delete"})
    EXPECT_NE(paths->find("/v1/schemas/{name}")->find(m), nullptr) << m;
}

}  // namespace
}  // namespace structure::testing
