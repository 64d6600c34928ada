// Internal to the split plan: the `$defs` closure of a part. A part keeps copies of the
// definitions it refers to (transitively) and nothing else; a reference to anything that is not
// a definition (a property's schema, the root) is rewritten to a copy of its target under $defs.
#pragma once

#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/json.h"

namespace structure::pipeline {

class DefsClosure {
 public:
  // `root`: the ORIGINAL schema, which every reference resolves against; it must outlive this.
  explicit DefsClosure(const Json& root) : root_(root) {}

  // Rewrites and follows the references in `part` (modified in place).
  void Scan(Json& part);

  // Adds the collected definitions to the part's root, in the original's order.
  void AddTo(Json& part);

 private:
  void Follow(Json& ref);
  void IndexPointers();

  const Json& root_;
  std::unordered_map<const Json*, std::string> pointers_;
  std::map<std::string, Json> copies_;  // "$defs/Name" -> copy
  std::map<const Json*, std::string> synthetic_;
  std::vector<std::pair<std::string, Json>> extra_;
};

}  // namespace structure::pipeline
