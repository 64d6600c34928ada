// An immutable Json value shared by every owner: copying a SharedJson copies a pointer, never
// the tree. For large values that many calls carry unchanged (a lowered schema goes into every
// provider call made with it).
#pragma once

#include <memory>

#include "base/json.h"

namespace structure {

class SharedJson {
 public:
  SharedJson() = default;  // null
  SharedJson(Json value) : value_(std::make_shared<const Json>(std::move(value))) {}

  const Json& operator*() const { return value_ ? *value_ : Null(); }
  const Json* operator->() const { return &**this; }

 private:
  static const Json& Null() {
    static const Json null;
    return null;
  }
  std::shared_ptr<const Json> value_;
};

}  // namespace structure
