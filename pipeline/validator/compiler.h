// Internal: the schema compiler behind CompileSchema, one per call. compile.cc holds its walk
// (the work list of schema locations, $ref resolution, the cycle check); compile_keywords.cc
// turns each keyword of a schema object into a Keyword of its Node.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/json.h"
#include "pipeline/validator/index.h"
#include "pipeline/validator/regex.h"
#include "pipeline/validator/schema.h"
#include "pipeline/validator/validator.h"
#include "structure/status.h"

namespace structure::pipeline::validator_internal {

inline bool IsSchema(const Json& j) { return j.is_object() || j.is_bool(); }
inline bool IsNonNegativeInteger(const Json& j) {
  return j.is_number() && j.is_integral() && j.as_double() >= 0;
}

inline bool IsLegacy(Draft d) {
  return d == Draft::kDraft7 || d == Draft::kDraft6 || d == Draft::kDraft4;
}

class Compiler {
 public:
  Compiler(CompiledSchema* out) : out_(out), options_(out->options), index_(out, out->options) {}

  Status Run();

 private:
  Node* GetNode(const Json* schema);
  static std::string At(const std::string& path, const std::string& what);
  // A keyword that cannot be honoured (a value of the wrong type, a pattern no engine runs):
  // always an error, since skipping it would accept what the schema means to refuse.
  Status Bad(const std::string& path, const std::string& what);
  // A keyword that is well formed but has no effect: a warning, an error in strict mode.
  Status Problem(const std::string& path, const std::string& what);
  Keyword& Add(Node* node, Kind kind, std::string_view name);
  std::string ChildPath(const Node* node, std::string_view key) const;
  Result<const EcmaRegex*> GetRegex(const std::string& pattern);
  Result<Node*> ResolveRef(const Location& loc, const std::string& ref, std::string* resolved);
  Status Fill(Node* node, const Json* schema);

  // compile_keywords.cc and compile_applicators.cc
  Status CompileNumber(Node* node, Kind kind, std::string_view key, const Json& value);
  Status CompileCount(Node* node, Kind kind, std::string_view key, const Json& value);
  Status CompileSchemaList(Node* node, Kind kind, std::string_view key, const Json& value);
  Status CompileMembers(Node* node, const Json& schema);
  Status CompileItems(Node* node, const Json& schema, Draft draft);
  // One keyword of a schema object, compiled by its row of the keyword table (FindRule).
  Status CompileKeyword(Node* node, const Json& schema, const Location& loc, const std::string& key,
                        const Json& value);
  struct KeywordCall {
    Node* node;
    const Json& schema;  // the schema object holding the keyword
    const Location& loc;
    const std::string& key;
    const Json& value;
  };
  using CompileFn = Status (Compiler::*)(const KeywordCall& call, Kind kind);
  struct KeywordRule {
    bool validation_vocab;  // compiled only when the dialect has the validation vocabulary
    Kind kind;
    CompileFn compile;
  };
  static const KeywordRule* FindRule(std::string_view key);
  Status CompileType(const KeywordCall& c, Kind kind);
  Status CompileEnum(const KeywordCall& c, Kind kind);
  Status CompileConst(const KeywordCall& c, Kind kind);
  Status CompileBound(const KeywordCall& c, Kind kind);
  Status CompileExclusiveBound(const KeywordCall& c, Kind kind);
  Status CompileNumberRule(const KeywordCall& c, Kind kind);
  Status CompileCountRule(const KeywordCall& c, Kind kind);
  Status CompileUniqueItems(const KeywordCall& c, Kind kind);
  Status CompilePattern(const KeywordCall& c, Kind kind);
  Status CompileRequired(const KeywordCall& c, Kind kind);
  Status CompileDependentRequired(const KeywordCall& c, Kind kind);
  Status CompileFormat(const KeywordCall& c, Kind kind);
  Status CompileMembersRule(const KeywordCall& c, Kind kind);
  Status CompileItemsRule(const KeywordCall& c, Kind kind);
  Status CompileContains(const KeywordCall& c, Kind kind);
  Status CompileSchemaListRule(const KeywordCall& c, Kind kind);
  Status CompileSubschema(const KeywordCall& c, Kind kind);
  Status CompileIf(const KeywordCall& c, Kind kind);
  Status CompileDependencies(const KeywordCall& c, Kind kind);
  Status CompileRef(const KeywordCall& c, Kind kind);

  // Rejects a cycle of $ref / $dynamicRef / allOf edges: it recurses forever on every instance.
  Status CheckUnconditionalCycles();

  CompiledSchema* out_;
  const ValidatorOptions& options_;
  SchemaIndex index_;
  std::unordered_map<const Json*, Node*> memo_;
  std::vector<std::pair<Node*, const Json*>> work_;
  std::unordered_map<std::string, const EcmaRegex*> regex_cache_;
};

}  // namespace structure::pipeline::validator_internal
