// Reading the fields of an OpenAI-shaped request body (Chat Completions, Responses): each
// refusal an ApiError that names the field. Shared by chat_request.cc and responses_request.cc.
// Pure.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/json.h"
#include "server/openai/chat_request.h"
#include "server/openai/openai_error.h"

namespace structure::server::openai {

using Error = std::optional<ApiError>;

bool Listed(const std::string& key, const auto& list) {
  return std::find_if(std::begin(list), std::end(list), [&](const char* k) { return key == k; }) !=
         std::end(list);
}

// "base[i]": the field of an array's element, in errors.
inline std::string At(const std::string& base, size_t i) {
  return base + "[" + std::to_string(i) + "]";
}

// Appends `text` to `to` as a paragraph of its own (blank-line separated); nothing when empty.
inline void AppendParagraph(std::string& to, const std::string& text) {
  if (text.empty()) return;
  if (!to.empty()) to += "\n\n";
  to += text;
}

// A member of `body` in neither `read` nor `ignored`: 400 unknown_parameter naming it.
Error UnknownField(const Json& body, const auto& read, const auto& ignored) {
  for (const auto& [key, value] : body.as_object()) {
    if (!Listed(key, read) && !Listed(key, ignored)) {
      return BadField(key, "unrecognized request argument", "unknown_parameter");
    }
  }
  return std::nullopt;
}

// `model`: required, a non-empty string.
Error Model(const Json& body, std::string& out);

// A reasoning effort named in field `param` (none, minimal, low, medium, high, xhigh; "" is
// none given).
Error Effort(const std::string& effort, const std::string& param);

// The value of `key`, or nullptr when absent or null (SDKs send null for "not given").
const Json* Given(const Json& object, std::string_view key);

// Number `key` of `body` into `out`, within lo..hi; absent leaves `out` unset.
Error Number(const Json& body, const char* key, double lo, double hi, std::optional<double>& out);
// Integer `key` of `body` into `out`, at least lo.
Error Integer(const Json& body, const char* key, int64_t lo, std::optional<int64_t>& out);
// Boolean `key` of `object` (named `prefix` + key in errors).
Error Flag(const Json& object, const std::string& prefix, const char* key, bool& out);
// String `key` of `object` (named `prefix` + key in errors).
Error Text(const Json& object, const std::string& prefix, const char* key, std::string& out);

// A schema given in field `param`: an object or boolean, within the server's size and depth
// limits, and one the engine can honour (pipeline::CheckInlineSchema).
Error CheckSchema(const Json& schema, const std::string& param, const ChatLimits& limits);

// The `structure` extension object: maxLoops, evidence, schemaName, tenant, project, need.
Error Extension(const Json& body, ChatRequest& r, const ChatLimits& limits);

// The function tool_choice (in `body`) forces, among `functions` (each tool's function object,
// with its name and parameters, at At("tools", i) + `suffix` in errors): none for "none" or
// "auto", the only one for "required", else the one the object names at `name_path` ("name",
// "function.name"). A forced function sets r.tool_name and r.schema (its parameters, or any
// object) and r.schema_param.
Error ForceTool(const Json& body, const std::vector<const Json*>& functions,
                const std::string& suffix, const std::vector<std::string>& name_path,
                ChatRequest& r);

// A `model` that names a registry schema (IsSchemaModel) makes that schema the answer's,
// whatever the body's format says: sets r.registry_schema, r.registry_version, r.schema_model.
// A malformed one, or a structure.schemaName naming another schema, is a 400.
Error SchemaFromModel(ChatRequest& r);

// Exactly one schema: the body's (`field`, or a forced tool's) or structure.schemaName. With
// none, 400 structured_output_required naming `field` and saying `how` to give one.
Error OneSchema(const ChatRequest& r, const std::string& field, const std::string& how);

}  // namespace structure::server::openai
