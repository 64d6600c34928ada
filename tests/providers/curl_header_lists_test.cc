#include "providers/transport/curl_header_lists.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace structure::providers {
namespace {

std::vector<std::string> Lines(const curl_slist* list) {
  std::vector<std::string> out;
  for (; list != nullptr; list = list->next) out.emplace_back(list->data);
  return out;
}

TEST(CurlHeaderListsTest, OneSharedListPerHeaderSetWithAnEmptyExpect) {
  CurlHeaderLists lists;
  HttpHeaders a = {{"Content-Type", "application/json"}, {"Authorization", "Bearer k"}};
  bool owned = true;
  curl_slist* first = lists.For(a, &owned);
  EXPECT_FALSE(owned);
  EXPECT_EQ(Lines(first), (std::vector<std::string>{"Content-Type: application/json",
                                                    "Authorization: Bearer k", "Expect:"}));
  EXPECT_EQ(lists.For(a, &owned), first);
  EXPECT_FALSE(owned);
  HttpHeaders b = {{"Content-Type", "application/json"}, {"Authorization", "Bearer other"}};
  curl_slist* second = lists.For(b, &owned);
  EXPECT_NE(second, first);
  EXPECT_EQ(Lines(second)[1], "Authorization: Bearer other");
}

TEST(CurlHeaderListsTest, PastTheSharedSetsEachCallerOwnsItsList) {
  CurlHeaderLists lists;
  bool owned = true;
  for (size_t i = 0; i < CurlHeaderLists::kShared; ++i) {
    lists.For({{"X-N", std::to_string(i)}}, &owned);
    EXPECT_FALSE(owned) << i;
  }
  curl_slist* extra = lists.For({{"X-N", "extra"}}, &owned);
  EXPECT_TRUE(owned);
  EXPECT_EQ(Lines(extra), (std::vector<std::string>{"X-N: extra", "Expect:"}));
  curl_slist_free_all(extra);
  lists.For({{"X-N", "0"}}, &owned);  // a shared set stays shared
  EXPECT_FALSE(owned);
}

}  // namespace
}  // namespace structure::providers
