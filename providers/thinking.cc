#include "providers/thinking.h"

#include <algorithm>

namespace structure::providers {

int64_t ThinkingAllowance(std::string_view effort) {
  if (effort == "none") return 0;
  if (effort == "minimal") return 1024;
  if (effort == "low") return 4096;
  if (effort == "high") return 16384;
  if (effort == "xhigh" || effort == "max") return 32768;
  return 8192;
}

int64_t OutputCap(const ModelFamily& family, std::string_view model, const Thinking& thinking,
                  int64_t answer_cap, int64_t configured) {
  if (configured > 0) return configured;
  auto wire = ResolveThinking(family, model, thinking);
  int64_t room = 0;
  using Form = WireThinking::Form;
  Form form = wire.ok() ? wire->form : Form::kUnset;
  if (form == Form::kBudget) {
    room = wire->budget < 0 ? ThinkingAllowance("medium") : wire->budget;
  } else if (form == Form::kLevel) {
    room = ThinkingAllowance(wire->level);
  } else if (form == Form::kOn || (form == Form::kUnset && family.thinks_by_default)) {
    room = ThinkingAllowance("medium");
  }
  int64_t cap = answer_cap + room;
  return family.output_cap > 0 ? std::min(cap, family.output_cap) : cap;
}

}  // namespace structure::providers
