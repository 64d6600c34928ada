// Every wire format's request body is valid JSON (and valid UTF-8) whatever
// the text in it: tricky but valid text comes back byte for byte when the body is parsed, and
// bytes that are not UTF-8 (which the inputs never let through) come back as U+FFFD.
#include <gtest/gtest.h>

#include <string>

#include "base/utf8.h"
#include "providers/wire.h"
#include "tests/providers/golden.h"

namespace structure::providers {
namespace {

// Quotes, backslashes, every kind of control character (NUL included), DEL, the line and
// paragraph separators JavaScript once choked on, a BOM, combining marks, CJK, right-to-left
// text, astral-plane emoji with a ZWJ sequence, and text that looks like JSON or markup.
std::string TrickyText() {
  std::string s = "Ada \"the\" \\Countess\\ / ";
  for (int c = 0; c < 0x20; ++c) s += static_cast<char>(c);
  s += "\x7f \u2028 \u2029 \ufeff e\u0301 \u4e2d\u6587 \u05e9\u05dc\u05d5\u05dd ";
  s += "\U0001F469\u200D\U0001F52C \U0010FFFF {\"name\":\"x\"} </script> \\u0000 \\\"";
  return s;
}

bool HoldsString(const Json& v, const std::string& want) {
  if (v.is_string()) return v.as_string() == want || v.as_string().find(want) != std::string::npos;
  if (v.is_array()) {
    for (const Json& e : v.as_array()) {
      if (HoldsString(e, want)) return true;
    }
  }
  if (v.is_object()) {
    for (const auto& [k, e] : v.as_object()) {
      if (HoldsString(e, want)) return true;
    }
  }
  return false;
}

ProviderCall TrickyCall(const std::string& text) {
  ProviderCall c = testing::ToolCallHistory();
  c.system = text;
  c.turns.front().text = text;
  c.turns.back().text = text;  // the tool result
  Json args = Json::MakeObject();
  args.set("name", text);
  c.turns[1].tool_calls.front().arguments = ToJson(args);
  return c;
}

constexpr ProviderKind kKinds[] = {ProviderKind::kOpenAi,       ProviderKind::kAnthropic,
                                   ProviderKind::kGemini,       ProviderKind::kOllama,
                                   ProviderKind::kOpenAiCompat, ProviderKind::kOpenRouter};

Endpoint EndpointFor(ProviderKind kind) {
  Endpoint e;
  e.kind = kind;
  e.base_url = "http://127.0.0.1:9";
  e.api_key = "k";
  return e;
}

TEST(WireTextTest, TrickyValidTextRoundTripsThroughEveryWireFormat) {
  const std::string text = TrickyText();
  ASSERT_EQ(Utf8ErrorAt(text), std::string_view::npos);
  for (bool final_tool : {true, false}) {
    ProviderCall call = TrickyCall(text);
    call.final_tool = final_tool;
    for (ProviderKind kind : kKinds) {
      auto req = BuildRequest(call, EndpointFor(kind));
      ASSERT_TRUE(req.ok()) << static_cast<int>(kind) << ": " << req.status().ToString();
      EXPECT_EQ(Utf8ErrorAt(req->body), std::string_view::npos) << static_cast<int>(kind);
      auto body = ParseJson(req->body);
      ASSERT_TRUE(body.ok()) << static_cast<int>(kind) << ": " << body.status().ToString();
      EXPECT_TRUE(HoldsString(*body, text)) << static_cast<int>(kind) << ": " << req->body;
    }
  }
}

TEST(WireTextTest, BytesThatAreNotUtf8NeverReachTheBody) {
  // A truncated sequence, a lone continuation byte, an overlong '/', a surrogate, 0xFF.
  const std::string text =
      std::string("a\xe2\x82") + "b\x80" + "c\xc0\xaf" + "d\xed\xa0\x80" + "e\xff";
  ProviderCall call = TrickyCall(text);
  for (ProviderKind kind : kKinds) {
    auto req = BuildRequest(call, EndpointFor(kind));
    ASSERT_TRUE(req.ok()) << req.status().ToString();
    EXPECT_EQ(Utf8ErrorAt(req->body), std::string_view::npos) << static_cast<int>(kind);
    auto body = ParseJson(req->body);
    ASSERT_TRUE(body.ok()) << static_cast<int>(kind) << ": " << body.status().ToString();
    EXPECT_TRUE(HoldsString(*body, "a\ufffd\ufffdb\ufffdc\ufffd\ufffdd\ufffd\ufffd\ufffde\ufffd"))
        << static_cast<int>(kind) << ": " << req->body;
  }
}

}  // namespace
}  // namespace structure::providers
