// What counts as a breaking change between two versions of one schema.
#include "registry/schema_compat.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace structure::registry {
namespace {

std::vector<std::string> Changes(const char* before, const char* after) {
  auto a = ParseJson(before);
  auto b = ParseJson(after);
  EXPECT_TRUE(a.ok() && b.ok()) << before << " / " << after;
  return BreakingChanges(*a, *b);
}

constexpr const char* kTicket = R"({"type":"object",
  "properties":{"name":{"type":"string","maxLength":40},
                "priority":{"type":"integer","minimum":1,"maximum":5},
                "tags":{"type":"array","items":{"type":"string"},"maxItems":5},
                "status":{"enum":["open","closed"]},
                "note":{"type":["string","null"]}},
  "required":["name"],"additionalProperties":false})";

TEST(SchemaCompatTest, CompatibleMinorStepsPass) {
  const char* compatible[] = {
      kTicket,
      // a new optional property, a relaxed bound, a wider type, a longer enum, a dropped required
      R"({"type":"object","properties":{"name":{"type":"string","maxLength":80},
          "priority":{"type":"number","minimum":0,"maximum":5},
          "tags":{"type":"array","items":{"type":"string"}},
          "status":{"enum":["open","closed","waiting"]},
          "note":{"type":["string","null","integer"]},"source":{"type":"string"}},
          "additionalProperties":false})",
      // descriptions change freely
      R"({"type":"object","description":"v1.3","properties":{"name":{"type":"string","maxLength":40,"description":"who"},
          "priority":{"type":"integer","minimum":1,"maximum":5},
          "tags":{"type":"array","items":{"type":"string"},"maxItems":5},
          "status":{"enum":["open","closed"]},"note":{"type":["string","null"]}},
          "required":["name"],"additionalProperties":false})",
  };
  for (const char* after : compatible) {
    EXPECT_EQ(Changes(kTicket, after), std::vector<std::string>{}) << after;
  }
  EXPECT_TRUE(Changes(R"({"exclusiveMinimum":1})", R"({"minimum":1})").empty());
  EXPECT_TRUE(Changes("false", R"({"type":"string"})").empty());
  EXPECT_TRUE(Changes(R"({"type":"string"})", "true").empty());
}

TEST(SchemaCompatTest, EachBreakingChangeIsNamedWhereItHappens) {
  struct Case {
    const char* before;
    const char* after;
    std::vector<std::string> says;
  };
  const Case cases[] = {
      {R"({"properties":{"a":{},"b":{}},"required":["a"]})",
       R"({"properties":{"a":{},"b":{}},"required":["a","b"]})",
       {"(root): property \"b\" is now required"}},
      {R"({"properties":{"a":{},"b":{}}})",
       R"({"properties":{"a":{}}})",
       {"(root): property \"b\" removed"}},
      {R"({"properties":{"p":{"type":"number"}}})",
       R"({"properties":{"p":{"type":"integer"}}})",
       {"/properties/p: type narrowed from \"number\" to \"integer\""}},
      {R"({"type":["string","null"]})",
       R"({"type":"string"})",
       {"(root): type narrowed from [\"string\",\"null\"] to \"string\""}},
      {R"({})", R"({"type":"object"})", {"(root): type narrowed from any to \"object\""}},
      {R"({"maximum":5})",
       R"({"maximum":3})",
       {"(root): upper bound lowered from maximum 5 to maximum 3"}},
      {R"({"minimum":1})",
       R"({"exclusiveMinimum":1})",
       {"(root): lower bound raised from minimum 1 to exclusiveMinimum 1"}},
      {R"({"type":"string"})", R"({"type":"string","minLength":2})", {"(root): minLength 2 added"}},
      {R"({"maxItems":5})", R"({"maxItems":4})", {"(root): maxItems lowered from 5 to 4"}},
      {R"({"multipleOf":2})", R"({"multipleOf":3})", {"(root): multipleOf changed from 2 to 3"}},
      {R"({"enum":["a","b"]})", R"({"enum":["a"]})", {"(root): no longer allows \"b\""}},
      {R"({"type":"string"})",
       R"({"type":"string","const":"x"})",
       {"(root): now allows only [\"x\"]"}},
      {R"({"type":"string"})",
       R"({"type":"string","pattern":"^a"})",
       {"(root): pattern \"^a\" added"}},
      {R"({"type":"string","format":"date"})",
       R"({"type":"string","format":"date-time"})",
       {"(root): format changed from \"date\" to \"date-time\""}},
      {R"({"type":"array"})",
       R"({"type":"array","uniqueItems":true})",
       {"(root): uniqueItems added"}},
      {R"({"properties":{"a":{}}})",
       R"({"properties":{"a":{}},"additionalProperties":false})",
       {"(root): additionalProperties closed: properties not listed are no longer accepted"}},
      {R"({"type":"array","items":{"type":"number"}})",
       R"({"type":"array","items":{"type":"integer"}})",
       {"/items: type narrowed from \"number\" to \"integer\""}},
      {R"({"$defs":{"a/b":{"maxLength":3}}})",
       R"({"$defs":{"a/b":{"maxLength":2}}})",
       {"/$defs/a~1b: maxLength lowered from 3 to 2"}},
      {R"({"type":"string"})", "false", {"(root): now rejects every value"}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Changes(c.before, c.after), c.says) << c.before << " -> " << c.after;
  }
}

TEST(SchemaCompatTest, ListsEveryChangeInAStableOrder) {
  auto changes = Changes(kTicket, R"({"type":"object",
    "properties":{"name":{"type":"string","maxLength":20},
                  "priority":{"type":"integer","minimum":1,"maximum":3},
                  "status":{"enum":["open"]},"note":{"type":"string"}},
    "required":["name","priority"],"additionalProperties":false})");
  EXPECT_EQ(changes, (std::vector<std::string>{
                         "(root): property \"priority\" is now required",
                         "/properties/name: maxLength lowered from 40 to 20",
                         "/properties/priority: upper bound lowered from maximum 5 to maximum 3",
                         "(root): property \"tags\" removed",
                         "/properties/status: no longer allows \"closed\"",
                         "/properties/note: type narrowed from [\"string\",\"null\"] to \"string\"",
                     }));
}

}  // namespace
}  // namespace structure::registry
