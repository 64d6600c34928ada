// Helpers shared by the wire formats: URLs, error bodies, tool-argument text <-> JSON.
// Internal to providers/.
#pragma once

#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/json.h"
#include "base/shared_json.h"
#include "providers/call.h"
#include "providers/endpoint.h"
#include "providers/http.h"
#include "structure/status.h"

namespace structure::providers {

// base_url + path.
std::string JoinUrl(const Endpoint& endpoint, std::string_view path);

// The JSON headers every format sends, plus `extra`.
HttpHeaders JsonHeaders(HttpHeaders extra = {});

// A POST of `body` to base_url + path with the JSON headers plus `extra` and the endpoint's
// timeout. `splices` put shared text (a schema) in place of placeholder nodes of `body`.
HttpRequest JsonPost(const Endpoint& endpoint, std::string_view path, HttpHeaders extra,
                     const Json& body, std::span<const JsonSplice> splices = {});
// The same with the body's text already written.
HttpRequest JsonPostText(const Endpoint& endpoint, std::string_view path, HttpHeaders extra,
                         std::string body);

// The splices of one request body: a placeholder node and the shared value written there.
class BodySplices {
 public:
  // Writes `value`'s text at `at`; nothing when `at` is null (the part is absent).
  void Add(const Json* at, const SharedJson& value) {
    if (at) list_.push_back({at, value.text()});
  }
  // A call's tool schemas: call.schema into the final tool (the first of `tools`) and
  // call.need_schema into the need tool (the last), at `path` inside each tool.
  void AddToolSchemas(const Json* tools, std::initializer_list<std::string_view> path,
                      const ProviderCall& call);
  std::span<const JsonSplice> list() const { return list_; }

 private:
  std::vector<JsonSplice> list_;
};

// The member at `keys` below `root` (objects only), or null.
const Json* MemberAt(const Json& root, std::initializer_list<std::string_view> keys);

// {"Authorization": "Bearer <key>"}, or nothing without a key.
HttpHeaders BearerAuth(const Endpoint& endpoint);

// Appends `item` to the list under `list_key` of the last entry of `turns` when that entry has
// role "user"; otherwise appends a new {"role":"user", list_key:[item]} entry. Formats that
// want consecutive user-side items (text, tool results) merged into one turn use it.
void AppendToUserTurn(Json& turns, std::string_view list_key, Json item);

// Parses a reply body: transport errors and non-2xx statuses become the mapped Status with
// the provider's error message extracted from the body; a 2xx body that is not a JSON object
// is kUnavailable (a broken reply; a retry may get a good one).
Result<Json> ParseReplyBody(const HttpResponse& response, std::string_view provider);

// The message and type of a provider error body in any of the shapes providers use:
// {"error":{"message","type"|"status"|"code"}}, {"error":"text"}, {"message":"text"}.
struct ProviderError {
  std::string message;
  std::string type;
};
ProviderError ExtractProviderError(std::string_view body);

// Tool arguments are kept as JSON text in ProviderCall; formats that need an object parse it.
// Text that is not a JSON object becomes {"_raw": text} so history can always be re-sent.
Json ArgumentsObject(const std::string& text);

// The arguments of a tool call as the reply gave them, as JSON text: a string as it is, any other
// value as its JSON text; no member, null or a blank string (seen from OpenRouter and
// Vertex-hosted Claude for tools called without arguments) is "{}".
std::string ArgumentsText(const Json* args);
// The same for arguments given as text: `text`, or "{}" when it is blank.
std::string ArgumentsFromText(std::string text);

// Sets usage.reasoning_unreported when the reply carried thinking (`thoughts`) but the provider
// gave no count of it (`count_reported` false).
void NoteReasoningCount(ProviderReply& reply, bool count_reported);

// String member or empty; number member as int64 or 0.
std::string StringAt(const Json& object, std::string_view key);
int64_t IntAt(const Json& object, std::string_view key);

}  // namespace structure::providers
