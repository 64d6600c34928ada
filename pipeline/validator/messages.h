// Internal: the current instance location and the construction of ValidationErrors, with the
// one-line messages in the seed's form: "/priority: value must be <= 5 (was 7)".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "base/json.h"
#include "pipeline/validator/schema.h"
#include "pipeline/validator/validator.h"

namespace structure::pipeline::validator_internal {

// A stack of object keys / array indexes; keys are views into the instance being validated.
class InstancePath {
 public:
  void PushKey(std::string_view key) {
    Grow();
    segments_[size_++] = {key.data(), key.size(), false};
  }
  void PushIndex(size_t index) {
    Grow();
    segments_[size_++] = {nullptr, index, true};
  }
  void Pop() { --size_; }
  std::string Pointer() const;  // "" for the root
  void Clear() { size_ = 0; }

 private:
  struct Segment {
    const char* key;
    size_t n;  // key length or index
    bool is_index;
  };
  void Grow() {
    if (size_ == capacity_) {
      capacity_ = capacity_ * 2 + 16;
      segments_.resize(capacity_);
    }
  }
  std::vector<Segment> segments_;
  size_t size_ = 0;
  size_t capacity_ = 0;  // segments_.size(), kept to spare a division on every push
};

class Reporter {
 public:
  explicit Reporter(const InstancePath* path) : path_(path) {}

  // A full error at the current path. text is the message after "<path>: ".
  ValidationError Make(std::string keyword, std::string schema_path, Json params,
                       const std::string& text, const simdjson::dom::element* actual) const;
  void Add(std::vector<ValidationError>* sink, std::string keyword, std::string schema_path,
           Json params, const std::string& text, const simdjson::dom::element* actual) const {
    sink->push_back(
        Make(std::move(keyword), std::move(schema_path), std::move(params), text, actual));
  }

  // type, const, enum, numeric limits, string limits, pattern, format, not.
  void Keyword(const validator_internal::Keyword& k, const simdjson::dom::element& e,
               std::vector<ValidationError>* sink) const;
  // minItems / maxItems / minProperties / maxProperties with the actual count n.
  void Count(const validator_internal::Keyword& k, const simdjson::dom::element& e, size_t n,
             std::vector<ValidationError>* sink) const;
  void FalseSchema(const Node& node, const simdjson::dom::element& e,
                   std::vector<ValidationError>* sink) const;
  void RegexLimit(const validator_internal::Keyword& k, const simdjson::dom::element& e,
                  std::vector<ValidationError>* sink) const;

 private:
  ValidationError Build(std::string keyword, std::string schema_path, Json params,
                        const std::string& text, std::string actual) const;

  const InstancePath* path_;
};

// "value must be <= 5 (was 7)" pieces shared with other reporters.
std::string Quoted(std::string_view s);

}  // namespace structure::pipeline::validator_internal
