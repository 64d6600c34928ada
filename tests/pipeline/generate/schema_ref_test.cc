// Local $ref resolution, and that it reads a pointer as the validator does.
#include "pipeline/generate/schema_ref.h"

#include <gtest/gtest.h>

#include "pipeline/validator/validator.h"

namespace structure::pipeline {
namespace {

const Json kRoot = *ParseJson(R"({
  "$defs": {"a/b": {"const": 1}, "m~n": {"const": 2}, "a b": {"const": 3}, "~": {"const": 4}},
  "items": [{"const": 5}]
})");

int ConstAt(std::string_view ref) {
  const Json* target = ResolveLocalRef(kRoot, ref);
  return target == nullptr ? -1 : static_cast<int>(target->find("const")->as_int());
}

TEST(SchemaRefTest, ResolvesEscapedAndPercentEncodedTokens) {
  EXPECT_EQ(ConstAt("#/$defs/a~1b"), 1);
  EXPECT_EQ(ConstAt("#/$defs/m~0n"), 2);
  EXPECT_EQ(ConstAt("#/$defs/a%20b"), 3);
  EXPECT_EQ(ConstAt("#/$defs/~0"), 4);
  EXPECT_EQ(ConstAt("#/items/0"), 5);
  EXPECT_EQ(ResolveLocalRef(kRoot, "#"), &kRoot);
}

TEST(SchemaRefTest, BadEscapesResolveToNothing) {
  // "~2" and a trailing "~" are no JSON pointer (RFC 6901 section 3); this resolver read "~2" as
  // "~" and the validator refused it.
  EXPECT_EQ(ConstAt("#/$defs/~2"), -1);
  EXPECT_EQ(ConstAt("#/$defs/~"), -1);
  EXPECT_EQ(ConstAt("#/$defs/a%2"), -1);
  EXPECT_EQ(ConstAt("#/items/x"), -1);
  EXPECT_EQ(ConstAt("#/items/1"), -1);
}

TEST(SchemaRefTest, TheValidatorRefusesWhatThisResolverCannotResolve) {
  for (const char* ref : {"#/$defs/~2", "#/$defs/~"}) {
    Json schema = kRoot;
    schema.set("$ref", ref);
    EXPECT_FALSE(CompileSchema(schema).ok()) << ref;
  }
  Json good = kRoot;
  good.set("$ref", "#/$defs/a~1b");
  EXPECT_TRUE(CompileSchema(good).ok());
}

}  // namespace
}  // namespace structure::pipeline
