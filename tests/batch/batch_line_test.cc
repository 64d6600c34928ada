#include "batch/batch_line.h"

#include <gtest/gtest.h>

namespace structure::batch {
namespace {

TEST(BatchLine, ParsesIdPromptAndSchemaName) {
  BatchLine line =
      ParseBatchLine(R"({"id": "a-1", "prompt": "Mike broke it", "schemaName": "contact"})", 3, {});
  ASSERT_TRUE(line.error.ok()) << line.error.message();
  ASSERT_TRUE(line.request.has_value());
  EXPECT_EQ(line.key, "\"a-1\"");
  EXPECT_EQ(line.id, Json("a-1"));
  EXPECT_EQ(line.line_no, 3u);
  EXPECT_EQ(line.request->prompt, "Mike broke it");
  EXPECT_EQ(line.request->mode, pipeline::SchemaMode::kNamed);
  EXPECT_EQ(line.request->schema_ref, "contact");
  EXPECT_EQ(line.request->priority, pipeline::Priority::kBulk);
}

TEST(BatchLine, IntegerIdsAndStringIdsAreDifferentKeys) {
  BatchLine a = ParseBatchLine(R"({"id": 7, "prompt": "x", "schemaName": "contact"})", 1, {});
  BatchLine b = ParseBatchLine(R"({"id": "7", "prompt": "x", "schemaName": "contact"})", 2, {});
  EXPECT_EQ(a.key, "7");
  EXPECT_EQ(b.key, "\"7\"");
}

TEST(BatchLine, FillsDefaultsOnlyWhereTheLineIsSilent) {
  LineDefaults d;
  d.schema_name = "invoice";
  d.max_loops = 5;
  d.tenant = "acme";
  BatchLine plain = ParseBatchLine(R"({"id": 1, "prompt": "p"})", 1, d);
  ASSERT_TRUE(plain.error.ok()) << plain.error.message();
  EXPECT_EQ(plain.request->schema_ref, "invoice");
  EXPECT_EQ(plain.request->settings.max_loops, 5);
  EXPECT_EQ(plain.request->tenant, "acme");
  BatchLine own = ParseBatchLine(
      R"({"id": 2, "prompt": "p", "schema": {"type": "object"}, "maxLoops": 2, "tenant": "t2"})", 2,
      d);
  ASSERT_TRUE(own.error.ok()) << own.error.message();
  EXPECT_EQ(own.request->mode, pipeline::SchemaMode::kJson);
  EXPECT_EQ(own.request->settings.max_loops, 2);
  EXPECT_EQ(own.request->tenant, "t2");
}

TEST(BatchLine, LinesWithoutASchemaShareTheDefaultInlineSchema) {
  LineDefaults d;
  d.schema = std::make_shared<const Json>(*ParseJson(R"({"type": "object"})"));
  BatchLine a = ParseBatchLine(R"({"id": 1, "prompt": "p"})", 1, d);
  BatchLine b = ParseBatchLine(R"({"id": 2, "prompt": "q", "arrayMode": false})", 2, d);
  ASSERT_TRUE(a.error.ok() && b.error.ok()) << a.error.message() << b.error.message();
  EXPECT_EQ(a.request->mode, pipeline::SchemaMode::kJson);
  EXPECT_EQ(a.request->schema, d.schema);  // shared, not copied per line
  EXPECT_EQ(b.request->schema, d.schema);
  BatchLine own = ParseBatchLine(R"({"id": 3, "prompt": "p", "schemaName": "contact"})", 3, d);
  ASSERT_TRUE(own.error.ok());
  EXPECT_EQ(own.request->mode, pipeline::SchemaMode::kNamed);
  // arrayMode wraps the default schema as an item schema for that line only.
  BatchLine list = ParseBatchLine(R"({"id": 4, "prompt": "p", "arrayMode": true})", 4, d);
  ASSERT_TRUE(list.error.ok()) << list.error.message();
  EXPECT_EQ(ToJson(*list.request->schema), R"({"type":"array","items":{"type":"object"}})");
  EXPECT_EQ(ToJson(*d.schema), R"({"type":"object"})");
}

TEST(BatchLine, MalformedJsonIsAnErrorKeyedByLineNumber) {
  BatchLine line = ParseBatchLine(R"({"id": "x", "prompt": )", 12, {});
  EXPECT_FALSE(line.error.ok());
  EXPECT_FALSE(line.request.has_value());
  EXPECT_EQ(line.key, "line:12");
  EXPECT_TRUE(line.id.is_null());
  EXPECT_NE(line.error.message().find("line 12"), std::string::npos) << line.error.message();
}

TEST(BatchLine, BadFieldIsAnErrorKeyedByIdNamingTheField) {
  BatchLine line =
      ParseBatchLine(R"({"id": "x", "prompt": "p", "schemaName": "c", "maxLoops": 12})", 4, {});
  EXPECT_FALSE(line.error.ok());
  EXPECT_EQ(line.key, "\"x\"");
  EXPECT_NE(line.error.message().find("maxLoops"), std::string::npos) << line.error.message();
  EXPECT_NE(line.error.message().find("line 4"), std::string::npos) << line.error.message();
}

TEST(BatchLine, CarriesThePerRequestSettings) {
  BatchLine line = ParseBatchLine(
      R"({"id": "s", "prompt": "p", "schemaText": "a name", "confidenceThreshold": 0.25,
          "requireProviderStrictOutput": false})",
      1, {});
  ASSERT_TRUE(line.error.ok()) << line.error.message();
  EXPECT_EQ(line.request->settings.confidence_threshold, 0.25);
  EXPECT_EQ(line.request->settings.require_provider_strict_output, false);
  BatchLine bad = ParseBatchLine(
      R"({"id": "t", "prompt": "p", "schemaText": "a", "confidenceThreshold": 2})", 2, {});
  EXPECT_EQ(bad.error.message(), "line 2: confidenceThreshold: must be a number 0..1 (was 2)");
}

TEST(BatchLine, RejectsNonObjectsAndOddIds) {
  for (const char* text :
       {"[1, 2]", "\"prompt\"", R"({"id": {"a": 1}, "prompt": "p", "schemaName": "c"})",
        R"({"id": 1.5, "prompt": "p", "schemaName": "c"})"}) {
    BatchLine line = ParseBatchLine(text, 9, {});
    EXPECT_FALSE(line.error.ok()) << text;
    EXPECT_EQ(line.key, "line:9") << text;
  }
}

TEST(BatchLine, MissingSchemaWithoutDefaultIsAnError) {
  BatchLine line = ParseBatchLine(R"({"id": "x", "prompt": "p"})", 1, {});
  EXPECT_FALSE(line.error.ok());
  EXPECT_EQ(line.key, "\"x\"");
}

TEST(BatchLine, BlankLines) {
  EXPECT_TRUE(IsBlankLine(""));
  EXPECT_TRUE(IsBlankLine(" \t\r\n"));
  EXPECT_FALSE(IsBlankLine(" {}"));
}

TEST(BatchLine, FormatsResultWithIdFirstOrLineNumber) {
  pipeline::StructureResult ok;
  ok.status = pipeline::Outcome::kOk;
  ok.data = Json::MakeObject();
  ok.data.set("a", 1);
  ok.schema_origin = "inline";
  ok.iterations = 1;
  std::string with_id = FormatResultLine(Json("r1"), 5, ok);
  EXPECT_EQ(with_id.rfind("{\"id\":\"r1\",\"status\":\"ok\",\"data\":{\"a\":1}", 0), 0u) << with_id;
  EXPECT_EQ(with_id.back(), '\n');
  EXPECT_EQ(with_id.find('\n'), with_id.size() - 1);
  std::string by_line = FormatResultLine(Json(), 5, BadLineResult(InvalidArgument("line 5: bad")));
  auto parsed = ParseJson(by_line);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(*parsed->find("line"), Json(5));
  EXPECT_EQ(*parsed->find("status"), Json("error"));
  EXPECT_EQ(*parsed->find("code"), Json("bad_request"));
  EXPECT_EQ(parsed->find("id"), nullptr);
}

TEST(BatchLine, SkipsAByteOrderMarkOnLineOneOnly) {
  const std::string bom = "\xEF\xBB\xBF";
  BatchLine first = ParseBatchLine(bom + R"({"id": 1, "prompt": "p", "schema": {}})", 1, {});
  EXPECT_TRUE(first.error.ok()) << first.error.message();
  EXPECT_EQ(first.id, Json(1));
  // Inside the file a byte order mark is a stray character, and the line says so.
  BatchLine later = ParseBatchLine(bom + R"({"id": 2, "prompt": "p", "schema": {}})", 2, {});
  EXPECT_FALSE(later.error.ok());
  EXPECT_NE(later.error.message().find("line 2"), std::string::npos) << later.error.message();
}

}  // namespace
}  // namespace structure::batch
