#include "providers/gemini/gemini_generate.h"

#include <cctype>

#include "base/base64.h"
#include "providers/call_check.h"
#include "providers/models.h"
#include "providers/wire_util.h"

namespace structure::providers::gemini_generate {
namespace {

constexpr std::string_view kProvider = "gemini";

Json TextParts(const std::string& text) {
  Json parts = Json::MakeArray();
  parts.push_back(Json(Json::Object{{"text", text}}));
  return parts;
}

Json FunctionResponse(const Turn& t) {
  ParseOptions opts;
  opts.source = "tool result";
  auto parsed = ParseJson(t.text, opts);
  Json response = parsed.ok() && parsed->is_object()
                      ? std::move(parsed).value()
                      : Json(Json::Object{{t.is_error ? "error" : "result", t.text}});
  return Json(
      Json::Object{{"functionResponse",
                    Json(Json::Object{{"name", t.tool_name}, {"response", std::move(response)}})}});
}

// A file's part: "inlineData" with its mime type and base64 bytes (Gemini takes no file name for
// inline data), or a "text" part for a file with text.
Json FilePartJson(const FilePart& f) {
  if (f.text) return Json(Json::Object{{"text", *f.text}});
  Json inline_data(Json::Object{{"mimeType", f.media_type},
                                {"data", Base64Encode(f.data ? *f.data : std::string())}});
  return Json(Json::Object{{"inlineData", std::move(inline_data)}});
}

// A part with empty text has none of its data fields set, which the API rejects; an empty model
// turn (a reply cut off before any text) is left out and the user parts around it merge.
Json Contents(const ProviderCall& call, bool replay_thinking) {
  Json contents = Json::MakeArray();
  for (const Turn& t : call.turns) {
    if (t.role == Role::kAssistant) {
      // Every part goes back with its thoughtSignature exactly as it came: Gemini 3 refuses a
      // function call replayed without its signature.
      Json parts = Json::MakeArray();
      for (const Thought& th : t.thoughts) {
        if (!replay_thinking) break;
        Json part(Json::Object{{"text", th.text}, {"thought", true}});
        if (!th.signature.empty()) part.set("thoughtSignature", th.signature);
        if (!th.text.empty()) parts.push_back(std::move(part));
      }
      if (!t.text.empty()) {
        Json part(Json::Object{{"text", t.text}});
        if (replay_thinking && !t.text_signature.empty())
          part.set("thoughtSignature", t.text_signature);
        parts.push_back(std::move(part));
      }
      for (const ToolCall& c : t.tool_calls) {
        Json part(Json::Object{
            {"functionCall",
             Json(Json::Object{{"name", c.name}, {"args", ArgumentsObject(c.arguments)}})}});
        if (replay_thinking && !c.signature.empty()) part.set("thoughtSignature", c.signature);
        parts.push_back(std::move(part));
      }
      if (parts.size() == 0) continue;
      contents.push_back(Json(Json::Object{{"role", "model"}, {"parts", std::move(parts)}}));
      continue;
    }
    for (const FilePart& f : t.files) AppendToUserTurn(contents, "parts", FilePartJson(f));
    if (t.role == Role::kUser && !t.files.empty() && t.text.empty()) continue;
    Json part = t.role == Role::kUser ? Json(Json::Object{{"text", t.text}}) : FunctionResponse(t);
    AppendToUserTurn(contents, "parts", std::move(part));
  }
  return contents;
}

// The legacy OpenAPI Schema names its types in upper case (STRING, OBJECT, ...).
Json UpperCaseTypes(const Json& s) {
  if (s.is_array()) {
    Json out = Json::MakeArray();
    for (const Json& x : s.as_array()) out.push_back(UpperCaseTypes(x));
    return out;
  }
  if (!s.is_object()) return s;
  Json out = Json::MakeObject();
  for (const auto& [key, value] : s.as_object()) {
    if (key == "type" && value.is_string()) {
      std::string t = value.as_string();
      for (char& c : t) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      out.set(key, std::move(t));
    } else {
      // Under "properties" the keys are names, not keywords; their values are schemas.
      out.set(key, UpperCaseTypes(value));
    }
  }
  return out;
}

// A function declaration. JSON Schema goes into parametersJsonSchema as a placeholder for the
// shared schema text (see BuildRequest); the legacy form (nullable, upper-case types) only ever
// into `parameters`, whose OpenAPI dialect it is.
Json Declaration(const std::string& name, const std::string& description, bool legacy,
                 const Json& schema) {
  Json d(Json::Object{{"name", name}, {"description", description}});
  if (legacy)
    d.set("parameters", UpperCaseTypes(schema));
  else
    d.set("parametersJsonSchema", Json());
  return d;
}

bool SafeModelName(std::string_view m) {
  for (char c : m) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.' && c != '_' &&
        c != '/') {
      return false;
    }
  }
  return !m.empty();
}

// generationConfig.thinkingConfig: a level in the API's upper-case enum (Gemini 3), a budget
// (Gemini 2.5; -1 dynamic, 0 off); null when nothing is asked.
Json ThinkingConfig(const WireThinking& t) {
  switch (t.form) {
    case WireThinking::Form::kLevel: {
      std::string level = t.level;
      for (char& c : level) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      return Json(Json::Object{{"thinkingLevel", std::move(level)}});
    }
    case WireThinking::Form::kBudget:
      return Json(Json::Object{{"thinkingBudget", t.budget}});
    case WireThinking::Form::kOff:
      return Json(Json::Object{{"thinkingBudget", 0}});
    case WireThinking::Form::kOn:
      return Json(Json::Object{{"thinkingBudget", -1}});
    case WireThinking::Form::kUnset:
      break;
  }
  return Json();
}

FinishKind MapFinish(std::string_view reason) {
  if (reason == "MAX_TOKENS") return FinishKind::kLength;
  if (reason == "SAFETY" || reason == "RECITATION" || reason == "PROHIBITED_CONTENT" ||
      reason == "BLOCKLIST" || reason == "SPII" || reason == "IMAGE_SAFETY") {
    return FinishKind::kSafety;
  }
  return FinishKind::kStop;
}

}  // namespace

Result<HttpRequest> BuildRequest(const ProviderCall& call, const Endpoint& endpoint) {
  STRUCTURE_RETURN_IF_ERROR(CheckCall(call));
  if (!SafeModelName(call.model)) {
    return InvalidArgument("gemini: model name '" + call.model + "' has URL-unsafe characters");
  }
  ModelFamily family = FamilyFor(endpoint, call.model);
  auto thinking = ResolveThinking(family, call.model, call.thinking);
  if (!thinking.ok()) return thinking.status();
  Json body = Json::MakeObject();
  if (!call.system.empty()) {
    body.set("systemInstruction", Json(Json::Object{{"parts", TextParts(call.system)}}));
  }
  body.set("contents", Contents(call, family.replay != ThinkingReplay::kNone));

  Json gen = Json::MakeObject();
  gen.set("maxOutputTokens", call.max_tokens);
  if (call.temperature && family.temperature) gen.set("temperature", *call.temperature);
  if (call.top_p && family.top_p) gen.set("topP", *call.top_p);
  if (call.seed) gen.set("seed", *call.seed);
  if (Json config = ThinkingConfig(*thinking); !config.is_null()) {
    gen.set("thinkingConfig", std::move(config));
  }
  bool legacy = endpoint.gemini_legacy_schema;
  Json decls = Json::MakeArray();
  if (call.final_tool) {
    decls.push_back(
        Declaration(call.final_tool_name, call.final_tool_description, legacy, *call.schema));
  } else {
    gen.set("responseMimeType", "application/json");
    if (call.schema->is_object()) {
      // The legacy form is rewritten per call (upper-case types); JSON Schema is spliced in.
      if (legacy)
        gen.set("responseSchema", UpperCaseTypes(*call.schema));
      else
        gen.set("responseJsonSchema", Json());
    }
  }
  if (call.need == NeedChannel::kTool) {
    decls.push_back(Declaration(call.need_tool_name,
                                "Call this instead of answering when the input lacks what a "
                                "required field needs.",
                                legacy, *call.need_schema));
  }
  body.set("generationConfig", std::move(gen));
  if (decls.size() > 0) {
    Json fcc = Json::MakeObject();
    fcc.set("mode", call.final_tool ? "ANY" : "AUTO");
    if (call.final_tool) {
      Json names = Json::MakeArray();
      for (const Json& d : decls.as_array()) names.push_back(Json(StringAt(d, "name")));
      fcc.set("allowedFunctionNames", std::move(names));
    }
    Json tools = Json::MakeArray();
    tools.push_back(Json(Json::Object{{"functionDeclarations", std::move(decls)}}));
    body.set("tools", std::move(tools));
    body.set("toolConfig", Json(Json::Object{{"functionCallingConfig", std::move(fcc)}}));
  }

  std::string model = call.model.rfind("models/", 0) == 0 ? call.model.substr(7) : call.model;
  HttpHeaders extra;
  if (!endpoint.api_key.empty()) extra.emplace_back("x-goog-api-key", endpoint.api_key);
  // The schemas are written from their shared text into the placeholders left above.
  BodySplices splices;
  const Json* tools = body.find("tools");
  if (!legacy) {
    splices.AddToolSchemas(tools ? tools->as_array().front().find("functionDeclarations") : nullptr,
                           {"parametersJsonSchema"}, call);
    if (!call.final_tool)
      splices.Add(MemberAt(body, {"generationConfig", "responseJsonSchema"}), call.schema);
  }
  return JsonPost(endpoint, "/v1beta/models/" + model + ":generateContent", std::move(extra), body,
                  splices.list());
}

Result<ProviderReply> ParseReply(const HttpResponse& response) {
  auto body = ParseReplyBody(response, kProvider);
  if (!body.ok()) return body.status();
  const Json& root = *body;
  ProviderReply reply;
  reply.model = StringAt(root, "modelVersion");
  bool reasoning_reported = false;
  if (const Json* usage = root.find("usageMetadata"); usage && usage->is_object()) {
    reasoning_reported = usage->find("thoughtsTokenCount") != nullptr;
    reply.usage.input_tokens = IntAt(*usage, "promptTokenCount");  // cached ones included
    reply.usage.cached_input_tokens = IntAt(*usage, "cachedContentTokenCount");
    reply.usage.reasoning_tokens = IntAt(*usage, "thoughtsTokenCount");
    reply.usage.output_tokens =
        IntAt(*usage, "candidatesTokenCount") + reply.usage.reasoning_tokens;
  }
  const Json* candidates = root.find("candidates");
  if (!candidates || !candidates->is_array() || candidates->size() == 0) {
    const Json* feedback = root.find("promptFeedback");
    std::string block = feedback ? StringAt(*feedback, "blockReason") : std::string();
    if (!block.empty()) {
      reply.finish = FinishKind::kSafety;
      reply.refusal = "prompt blocked: " + block;
      return reply;
    }
    return Unavailable("gemini reply: no candidates in the body");
  }
  const Json& cand = candidates->as_array()[0];
  std::string finish = StringAt(cand, "finishReason");
  reply.finish = MapFinish(finish);
  if (reply.finish == FinishKind::kSafety) reply.refusal = "blocked: " + finish;
  const Json* content = cand.find("content");
  const Json* parts = content ? content->find("parts") : nullptr;
  if (parts && parts->is_array()) {
    for (const Json& p : parts->as_array()) {
      std::string signature = StringAt(p, "thoughtSignature");
      if (const Json* fc = p.find("functionCall"); fc && fc->is_object()) {
        ToolCall tc;
        tc.id = StringAt(*fc, "id");
        if (tc.id.empty()) tc.id = "call_" + std::to_string(reply.tool_calls.size());
        tc.name = StringAt(*fc, "name");
        tc.arguments = ArgumentsText(fc->find("args"));
        tc.signature = std::move(signature);
        reply.tool_calls.push_back(std::move(tc));
      } else if (const Json* thought = p.find("thought");
                 thought && thought->is_bool() && thought->as_bool()) {
        // Thought summaries are never the answer; kept for the replay.
        reply.thoughts.push_back({StringAt(p, "text"), std::move(signature), false});
      } else {
        reply.content += StringAt(p, "text");
        if (reply.text_signature.empty()) reply.text_signature = std::move(signature);
      }
    }
  }
  if (reply.finish == FinishKind::kStop && !reply.tool_calls.empty()) {
    reply.finish = FinishKind::kToolUse;
  }
  NoteReasoningCount(reply, reasoning_reported);
  return reply;
}

}  // namespace structure::providers::gemini_generate
