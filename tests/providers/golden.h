// Test helpers for wire-format golden tests: sample calls, data files, golden comparison.
// Set STRUCTURE_UPDATE_GOLDEN=1 to rewrite golden request bodies from the current output.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "base/json.h"
#include "base/read_file.h"
#include "providers/call.h"
#include "providers/endpoint.h"
#include "providers/http.h"
#include "tests/providers/request_schema_check.h"

namespace structure::providers::testing {

inline std::string DataPath(const std::string& rel) {
  return std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/providers/" + rel;
}

inline std::string ReadData(const std::string& rel) {
  auto text = ReadFile(DataPath(rel));
  EXPECT_TRUE(text.ok()) << rel;
  return text.ok() ? *text : std::string();
}

// An endpoint of `kind` on a loopback port nothing listens on (the batch wire tests build and
// parse, they never send).
inline Endpoint TestEndpoint(ProviderKind kind, std::string api_key) {
  Endpoint e;
  e.kind = kind;
  e.base_url = "http://127.0.0.1:9";
  e.api_key = std::move(api_key);
  return e;
}

inline HttpResponse Reply(int status, std::string body) {
  HttpResponse r;
  r.status = status;
  r.body = std::move(body);
  return r;
}

inline Json PersonSchema() {
  auto s = ParseJson(R"({"type":"object","properties":{"name":{"type":"string"},
    "age":{"type":"integer"}},"required":["name","age"],"additionalProperties":false})");
  return *s;
}

// System prompt, one user turn, a strict schema, temperature 0.
inline ProviderCall BasicCall() {
  ProviderCall c;
  c.model = "test-model";
  c.system = "Extract the person.";
  c.turns.push_back(UserTurn("Ada Lovelace, 36, mathematician."));
  c.schema = PersonSchema();
  c.schema_name = "person";
  c.max_tokens = 256;
  c.temperature = 0.0;
  return c;
}

// Final-tool mode with the need tool, and a history holding a rejected tool call.
inline ProviderCall ToolCallHistory() {
  ProviderCall c = BasicCall();
  c.final_tool = true;
  c.final_tool_name = "submit_person";
  c.need = NeedChannel::kTool;
  c.need_schema = *ParseJson(R"({"type":"object","properties":{"missing":{"type":"string"}},
    "required":["missing"],"additionalProperties":false})");
  Turn assistant;
  assistant.role = Role::kAssistant;
  assistant.tool_calls.push_back(
      ToolCall{"call_1", "submit_person", R"({"name":"Ada","age":-1})", ""});
  c.turns.push_back(assistant);
  Turn tool;
  tool.role = Role::kTool;
  tool.text = "/age: value must be >= 0 (was -1)";
  tool.tool_call_id = "call_1";
  tool.tool_name = "submit_person";
  tool.is_error = true;
  c.turns.push_back(tool);
  return c;
}

// A re-ask after a reply that was cut off before any text: an empty assistant turn between the
// user's text and the reason.
inline ProviderCall ReaskAfterEmptyReply() {
  ProviderCall c = BasicCall();
  Turn empty;
  empty.role = Role::kAssistant;
  c.turns.push_back(empty);
  c.turns.push_back(UserTurn("The answer was cut off; answer more concisely."));
  return c;
}

// No schema: plain JSON mode.
inline ProviderCall PlainJsonCall() {
  ProviderCall c = BasicCall();
  c.schema = Json();
  c.temperature.reset();
  return c;
}

// Compares a built body with tests/data/providers/<rel> as JSON values (key order ignored), and
// checks it against the published request schema of its format (the folder of `rel`).
inline void ExpectGolden(const std::string& rel, const std::string& body) {
  auto got = ParseJson(body);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  for (const std::string& issue : PublishedSchemaIssues(rel.substr(0, rel.find('/')), body)) {
    ADD_FAILURE() << rel << ": " << issue;
  }
  if (const char* u = std::getenv("STRUCTURE_UPDATE_GOLDEN"); u && std::string(u) == "1") {
    std::ofstream(DataPath(rel)) << ToJson(*got, /*pretty=*/true) << "\n";
    return;
  }
  auto want = ParseJson(ReadData(rel));
  ASSERT_TRUE(want.ok()) << rel << ": " << want.status().ToString();
  EXPECT_EQ(*got, *want) << rel << "\n got: " << ToJson(*got, true);
}

inline HttpResponse Response(int status, const std::string& body, HttpHeaders headers = {}) {
  HttpResponse r;
  r.status = status;
  r.body = body;
  r.headers = std::move(headers);
  return r;
}

inline std::string HeaderValue(const HttpRequest& r, const std::string& name) {
  for (const auto& [k, v] : r.headers) {
    if (k == name) return v;
  }
  return {};
}

}  // namespace structure::providers::testing
