// The lift plan: how a provider's output maps back to the shape of the original schema. Built by
// Lower, read by Lift and Embed. Immutable once built; copies share the nodes.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/json.h"

namespace structure::pipeline {

struct LiftNode {
  enum class Kind {
    kIdentity,    // value passes unchanged
    kObject,      // properties with their own plans; optional ones may arrive as null
    kMap,         // provider array of {"key","value"} pairs -> original object
    kArray,       // prefix positions and items with their own plans
    kAnyOf,       // first branch whose provider schema the value fits decides the plan
    kJsonString,  // provider string holding a JSON text -> the value it encodes
  };
  struct Property {
    std::string name;
    int plan = -1;                // -1: identity
    bool null_is_absent = false;  // an optional property made required + nullable
  };
  Kind kind = Kind::kIdentity;
  std::vector<Property> properties;            // kObject
  int extra = -1;                              // kObject: undeclared properties; kMap: the values
  std::vector<int> prefix;                     // kArray
  int items = -1;                              // kArray
  std::vector<std::pair<Json, int>> branches;  // kAnyOf: provider branch schema and its plan
};

struct LiftPlan {
  std::shared_ptr<const std::vector<LiftNode>> nodes;  // null: identity
  std::shared_ptr<const Json> defs;  // the provider schema's $defs (for branch matching)
  int root = -1;                     // -1: identity
  std::string envelope_key;          // non-empty: the provider output is {envelope_key: value}
};

}  // namespace structure::pipeline
