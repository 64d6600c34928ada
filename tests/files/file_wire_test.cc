// Files on the wire: each provider gets the PDF and the PNG in its own documented part, base64
// bytes identical to the files, before the prompt text; every body conforms to the provider's
// published request schema (tests/data/request_schemas).
#include <gtest/gtest.h>

#include "base/base64.h"
#include "base/json_pointer.h"
#include "providers/wire.h"
#include "tests/providers/golden.h"
#include "tests/providers/request_schema_check.h"
#include "tests/support/pdf_maker.h"

namespace structure::providers {
namespace {

std::string Pdf() {
  return structure::testing::MakePdf({structure::testing::PdfTextPage({"Invoice 7"})});
}

ProviderCall CallWithFiles() {
  ProviderCall c = testing::BasicCall();
  FilePart pdf{"invoice.pdf", "application/pdf", std::make_shared<const std::string>(Pdf()),
               nullptr, 1};
  FilePart png{"logo.png", "image/png",
               std::make_shared<const std::string>(structure::testing::TinyPng()), nullptr, 0};
  c.turns[0].files = {pdf, png};
  return c;
}

Json Body(ProviderKind kind, const ProviderCall& call) {
  Endpoint e;
  e.kind = kind;
  e.base_url = "http://127.0.0.1:9";
  e.api_key = "k";
  auto req = BuildRequest(call, e);
  EXPECT_TRUE(req.ok()) << req.status().message();
  auto body = ParseJson(req.ok() ? req->body : "{}");
  return body.ok() ? *body : Json();
}

// The value at a JSON pointer ("/messages/1/content/0/type"), or null.
const Json& At(const Json& root, std::string_view pointer) {
  static const Json kNull;
  const Json* at = &root;
  auto tokens = SplitPointer(pointer);
  if (!tokens) return kNull;
  for (const std::string& t : *tokens) {
    if (at->is_array()) {
      size_t i = static_cast<size_t>(std::stoul(t));
      if (i >= at->as_array().size()) return kNull;
      at = &at->as_array()[i];
    } else {
      at = at->find(t);
      if (at == nullptr) return kNull;
    }
  }
  return *at;
}

std::string Str(const Json& root, std::string_view pointer) {
  const Json& v = At(root, pointer);
  return v.is_string() ? v.as_string() : "(" + ToJson(v) + ")";
}

std::string Decoded(const std::string& text) {
  auto bytes = Base64Decode(text);
  return bytes ? *bytes : "(not base64)";
}

std::string AfterPrefix(const std::string& url, const std::string& prefix) {
  EXPECT_EQ(url.substr(0, prefix.size()), prefix);
  return url.substr(std::min(prefix.size(), url.size()));
}

TEST(FileWireTest, OpenAiChatFileAndImageUrlPartsBeforeTheText) {
  for (ProviderKind kind : {ProviderKind::kOpenAi, ProviderKind::kOpenRouter}) {
    Json body = Body(kind, CallWithFiles());
    ASSERT_EQ(At(body, "/messages/1/content").size(), 3u) << ToJson(body);
    EXPECT_EQ(Str(body, "/messages/1/content/0/type"), "file");
    EXPECT_EQ(Str(body, "/messages/1/content/0/file/filename"), "invoice.pdf");
    EXPECT_EQ(Decoded(AfterPrefix(Str(body, "/messages/1/content/0/file/file_data"),
                                  "data:application/pdf;base64,")),
              Pdf());
    EXPECT_EQ(Str(body, "/messages/1/content/1/type"), "image_url");
    EXPECT_EQ(Decoded(AfterPrefix(Str(body, "/messages/1/content/1/image_url/url"),
                                  "data:image/png;base64,")),
              structure::testing::TinyPng());
    EXPECT_EQ(Str(body, "/messages/1/content/2/type"), "text");
    EXPECT_EQ(Str(body, "/messages/1/content/2/text"), "Ada Lovelace, 36, mathematician.");
  }
}

// A model on OpenAI's Responses API (gpt-5.2 and later): input_file and input_image parts, with
// the same data URLs, before an input_text part.
TEST(FileWireTest, OpenAiResponsesInputFileAndInputImagePartsBeforeTheText) {
  ProviderCall call = CallWithFiles();
  call.model = "gpt-5.4";
  Endpoint e;
  e.kind = ProviderKind::kOpenAi;
  e.base_url = "http://127.0.0.1:9";
  e.api_key = "k";
  auto req = BuildRequest(call, e);
  ASSERT_TRUE(req.ok()) << req.status().message();
  EXPECT_NE(req->url.find("/v1/responses"), std::string::npos) << req->url;
  // Not checked against the published CreateResponse here: a user message with a content list
  // matches both EasyInputMessage and InputMessage there, which its oneOf refuses (the parts
  // themselves are InputFileContent and InputImageContent, detail included).
  Json body = *ParseJson(req->body);
  const Json* user = nullptr;
  for (const Json& item : At(body, "/input").as_array()) {
    if (const Json* role = item.find("role"); role && *role == Json("user")) user = &item;
  }
  ASSERT_NE(user, nullptr) << req->body.substr(0, 2000);
  ASSERT_EQ(At(*user, "/content").size(), 3u);
  EXPECT_EQ(Str(*user, "/content/0/type"), "input_file");
  EXPECT_EQ(Str(*user, "/content/0/filename"), "invoice.pdf");
  EXPECT_EQ(
      Decoded(AfterPrefix(Str(*user, "/content/0/file_data"), "data:application/pdf;base64,")),
      Pdf());
  EXPECT_EQ(Str(*user, "/content/1/type"), "input_image");
  EXPECT_EQ(Str(*user, "/content/1/detail"), "auto");
  EXPECT_EQ(Decoded(AfterPrefix(Str(*user, "/content/1/image_url"), "data:image/png;base64,")),
            structure::testing::TinyPng());
  EXPECT_EQ(Str(*user, "/content/2/type"), "input_text");
  EXPECT_EQ(Str(*user, "/content/2/text"), "Ada Lovelace, 36, mathematician.");
}

TEST(FileWireTest, AnthropicDocumentAndImageBlocksWithBase64Sources) {
  Json body = Body(ProviderKind::kAnthropic, CallWithFiles());
  ASSERT_EQ(At(body, "/messages/0/content").size(), 3u) << ToJson(body);
  EXPECT_EQ(Str(body, "/messages/0/content/0/type"), "document");
  EXPECT_EQ(Str(body, "/messages/0/content/0/title"), "invoice.pdf");
  EXPECT_EQ(Str(body, "/messages/0/content/0/source/type"), "base64");
  EXPECT_EQ(Str(body, "/messages/0/content/0/source/media_type"), "application/pdf");
  EXPECT_EQ(Decoded(Str(body, "/messages/0/content/0/source/data")), Pdf());
  EXPECT_EQ(Str(body, "/messages/0/content/1/type"), "image");
  EXPECT_EQ(Str(body, "/messages/0/content/1/source/media_type"), "image/png");
  EXPECT_EQ(Decoded(Str(body, "/messages/0/content/1/source/data")), structure::testing::TinyPng());
  EXPECT_EQ(Str(body, "/messages/0/content/2/type"), "text");
}

TEST(FileWireTest, GeminiInlineDataParts) {
  Json body = Body(ProviderKind::kGemini, CallWithFiles());
  ASSERT_EQ(At(body, "/contents/0/parts").size(), 3u) << ToJson(body);
  EXPECT_EQ(Str(body, "/contents/0/parts/0/inlineData/mimeType"), "application/pdf");
  EXPECT_EQ(Decoded(Str(body, "/contents/0/parts/0/inlineData/data")), Pdf());
  EXPECT_EQ(Str(body, "/contents/0/parts/1/inlineData/mimeType"), "image/png");
  EXPECT_EQ(Decoded(Str(body, "/contents/0/parts/1/inlineData/data")),
            structure::testing::TinyPng());
  EXPECT_EQ(Str(body, "/contents/0/parts/2/text"), "Ada Lovelace, 36, mathematician.");
}

TEST(FileWireTest, OllamaImagesAndTheTextLayerBeforeTheText) {
  ProviderCall call = CallWithFiles();
  call.turns[0].files[0].text = std::make_shared<const std::string>("[invoice.pdf]\nInvoice 7");
  Json body = Body(ProviderKind::kOllama, call);
  EXPECT_EQ(Str(body, "/messages/1/content"),
            "[invoice.pdf]\nInvoice 7\n\nAda Lovelace, 36, mathematician.");
  ASSERT_EQ(At(body, "/messages/1/images").size(), 1u);
  EXPECT_EQ(Decoded(Str(body, "/messages/1/images/0")), structure::testing::TinyPng());
}

TEST(FileWireTest, EveryBodyWithFilesConformsToThePublishedSchema) {
  struct Format {
    const char* name;
    ProviderKind kind;
  };
  for (Format f :
       {Format{"openai", ProviderKind::kOpenAi}, Format{"openrouter", ProviderKind::kOpenRouter},
        Format{"anthropic", ProviderKind::kAnthropic}, Format{"gemini", ProviderKind::kGemini},
        Format{"ollama", ProviderKind::kOllama},
        Format{"openai_compat", ProviderKind::kOpenAiCompat}}) {
    ProviderCall call = CallWithFiles();
    if (f.kind == ProviderKind::kOllama || f.kind == ProviderKind::kOpenAiCompat)
      call.turns[0].files[0].text = std::make_shared<const std::string>("[invoice.pdf]\nInvoice 7");
    Endpoint e;
    e.kind = f.kind;
    e.base_url = "http://127.0.0.1:9";
    e.api_key = "k";
    auto req = BuildRequest(call, e);
    ASSERT_TRUE(req.ok()) << f.name << ": " << req.status().message();
    for (const std::string& issue : testing::PublishedSchemaIssues(f.name, req->body))
      ADD_FAILURE() << f.name << ": " << issue << "\n" << req->body.substr(0, 2000);
  }
}

}  // namespace
}  // namespace structure::providers
