// An immutable Json value shared by every owner: copying a SharedJson copies a pointer, never
// the tree. For large values that many calls carry unchanged (a lowered schema goes into every
// provider call made with it); its compact text is written once and shared too.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "base/json.h"

namespace structure {

class SharedJson {
 public:
  SharedJson() = default;  // null
  SharedJson(Json value) : node_(std::make_shared<Node>(std::move(value))) {}

  const Json& operator*() const { return node_ ? node_->value : Null(); }
  const Json* operator->() const { return &**this; }

  // ToJson(**this), computed on first use (thread-safe) and kept.
  const std::string& text() const {
    if (!node_) return NullText();
    std::call_once(node_->once, [n = node_.get()] { n->text = ToJson(n->value); });
    return node_->text;
  }

 private:
  struct Node {
    explicit Node(Json v) : value(std::move(v)) {}
    Json value;
    std::once_flag once;
    std::string text;
  };
  static const Json& Null() {
    static const Json null;
    return null;
  }
  static const std::string& NullText() {
    static const std::string text = "null";
    return text;
  }
  std::shared_ptr<Node> node_;
};

}  // namespace structure
