// Large objects (the key index behind find/set/erase) and big integers in Json.
#include <gtest/gtest.h>

#include <string>

#include "base/json.h"

namespace structure {
namespace {

std::string Key(int i) { return "k" + std::to_string(i); }

TEST(JsonObjectTest, FindsEveryMemberOfALargeObject) {
  Json o = Json::MakeObject();
  for (int i = 0; i < 5000; ++i) o.set(Key(i), i);
  ASSERT_EQ(o.size(), 5000u);
  for (int i = 0; i < 5000; ++i) {
    const Json* v = static_cast<const Json&>(o).find(Key(i));
    ASSERT_NE(v, nullptr) << i;
    EXPECT_EQ(v->as_int(), i);
  }
  EXPECT_EQ(o.find("absent"), nullptr);
  EXPECT_EQ(o.as_object()[4321].first, Key(4321));  // insertion order kept
}

TEST(JsonObjectTest, SetReplacesInPlaceInALargeObject) {
  Json o = Json::MakeObject();
  for (int i = 0; i < 100; ++i) o.set(Key(i), i);
  o.set(Key(7), "seven");
  EXPECT_EQ(o.size(), 100u);
  EXPECT_EQ(o.as_object()[7].second.as_string(), "seven");
  o[Key(8)] = Json(true);
  EXPECT_TRUE(o.as_object()[8].second.as_bool());
}

TEST(JsonObjectTest, EraseKeepsLookupsRight) {
  Json o = Json::MakeObject();
  for (int i = 0; i < 100; ++i) o.set(Key(i), i);
  EXPECT_TRUE(o.erase(Key(10)));
  EXPECT_FALSE(o.erase(Key(10)));
  EXPECT_EQ(o.find(Key(10)), nullptr);
  ASSERT_NE(o.find(Key(99)), nullptr);
  EXPECT_EQ(o.find(Key(99))->as_int(), 99);
  for (int i = 11; i < 80; ++i) EXPECT_TRUE(o.erase(Key(i)));  // below the index size
  EXPECT_EQ(o.find(Key(85))->as_int(), 85);
}

TEST(JsonObjectTest, MembersChangedThroughTheVectorAreFound) {
  Json o = Json::MakeObject();
  for (int i = 0; i < 64; ++i) o.set(Key(i), i);
  o.as_object().emplace_back("late", Json(1));
  EXPECT_NE(static_cast<const Json&>(o).find("late"), nullptr);
  o.as_object().erase(o.as_object().begin());
  EXPECT_EQ(static_cast<const Json&>(o).find(Key(0)), nullptr);
  EXPECT_EQ(static_cast<const Json&>(o).find(Key(1))->as_int(), 1);
  o.set("later", 2);  // reindexes
  EXPECT_EQ(o.find(Key(63))->as_int(), 63);
  EXPECT_EQ(o.find("later")->as_int(), 2);
}

TEST(JsonObjectTest, ParsedDuplicateKeysKeepTheLastValueAtTheFirstPlace) {
  std::string text = "{";
  for (int i = 0; i < 200; ++i) text += "\"" + Key(i) + "\":" + std::to_string(i) + ",";
  text += "\"k5\":\"again\"}";
  auto parsed = ParseJson(text);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->size(), 200u);
  EXPECT_EQ(parsed->as_object()[5].second.as_string(), "again");
  EXPECT_EQ(*ParseJson(R"({"a":1,"a":2})"), *ParseJson(R"({"a":2})"));
}

TEST(JsonObjectTest, CopiesAndComparesLargeObjects) {
  Json a = Json::MakeObject();
  Json b = Json::MakeObject();
  for (int i = 0; i < 300; ++i) {
    a.set(Key(i), i);
    b.set(Key(299 - i), 299 - i);
  }
  EXPECT_EQ(a, b);  // key order is ignored
  Json c = a;
  c.set(Key(3), -1);
  EXPECT_NE(a, c);
  EXPECT_EQ(c.find(Key(250))->as_int(), 250);
  Json::Object members = a.as_object();
  members.push_back(members.front());  // a duplicate: find sees the first, as a scan would
  members.back().second = Json("dup");
  Json d(std::move(members));
  EXPECT_EQ(d.find(Key(0))->as_int(), 0);
}

TEST(JsonBigIntegerTest, IntegersBeyondInt64RoundTripExactly) {
  for (const char* text : {"9223372036854775808", "18446744073709551615", "-9223372036854775809",
                           "12345678910111213141516171819202122232425262728293031"}) {
    auto parsed = ParseJson(text);
    ASSERT_TRUE(parsed.ok()) << text;
    EXPECT_TRUE(parsed->is_integral());
    EXPECT_EQ(parsed->big_integer(), text);
    EXPECT_EQ(ToJson(*parsed), text);
    EXPECT_EQ(JsonTextSize(*parsed), std::string(text).size());
  }
  EXPECT_EQ(ToJson(Json(uint64_t{18446744073709551615u})), "18446744073709551615");
  EXPECT_EQ(ParseJson("9223372036854775807")->big_integer(), "");
  EXPECT_EQ(ParseJson("1e30")->big_integer(), "");
}

TEST(JsonBigIntegerTest, EqualityComparesTheDigits) {
  // Both round to the same double, but they are different integers.
  EXPECT_NE(*ParseJson("18446744073709551616"), *ParseJson("18446744073709551617"));
  EXPECT_EQ(*ParseJson("18446744073709551616"), *ParseJson("18446744073709551616"));
  EXPECT_NE(*ParseJson("9223372036854775808"), Json(int64_t{INT64_MAX}));
  EXPECT_EQ(*ParseJson("[18446744073709551616]"), *ParseJson("[18446744073709551616]"));
}

}  // namespace
}  // namespace structure
