#include "registry/shared_builder_cache.h"

namespace structure::registry {

std::string SharedBuilderKey(const std::string& key) { return "structure:builder:" + key; }

std::string EncodeSharedBuild(const std::string& normalized, const CachedBuild& entry) {
  Json j = Json::MakeObject();
  j.set("normalized", normalized);
  j.set("need", entry.need);
  j.set("schema", entry.need ? Json() : entry.schema);
  j.set("question", entry.question);
  j.set("confidence", entry.confidence);
  j.set("createdMs", entry.created_ms);
  return ToJson(j);
}

std::optional<CachedBuild> DecodeSharedBuild(std::string_view value, const std::string& normalized,
                                             int64_t now_ms, int64_t ttl_ms) {
  auto j = ParseJson(value);
  if (!j.ok() || !j->is_object()) return std::nullopt;
  const Json* text = j->find("normalized");
  const Json* need = j->find("need");
  const Json* created = j->find("createdMs");
  if (text == nullptr || !text->is_string() || text->as_string() != normalized) return std::nullopt;
  if (need == nullptr || !need->is_bool() || created == nullptr || !created->is_int())
    return std::nullopt;
  CachedBuild e;
  e.need = need->as_bool();
  e.created_ms = created->as_int();
  if (ttl_ms > 0 && now_ms - e.created_ms >= ttl_ms) return std::nullopt;
  if (const Json* q = j->find("question"); q != nullptr && q->is_string())
    e.question = q->as_string();
  if (const Json* c = j->find("confidence"); c != nullptr && c->is_number())
    e.confidence = c->as_double();
  if (!e.need) {
    const Json* schema = j->find("schema");
    if (schema == nullptr || !schema->is_object()) return std::nullopt;
    e.schema = *schema;
  }
  return e;
}

}  // namespace structure::registry
