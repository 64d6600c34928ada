// The schema most tests structure a prompt against: a ticket with a name and a priority 1..5.
#pragma once

namespace structure::testing {

inline constexpr const char* kTicketSchemaText = R"({
  "type": "object",
  "properties": {
    "name": {"type": "string"},
    "priority": {"type": "integer", "minimum": 1, "maximum": 5}
  },
  "required": ["name", "priority"],
  "additionalProperties": false
})";

}  // namespace structure::testing
