// What the content-loop tests share: a loop on a hand-made plan over the ticket schema, provider
// replies, and the step a call must return.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "pipeline/loop/content_loop.h"
#include "pipeline/schema_stage.h"
#include "tests/support/ticket_schema.h"

namespace structure::pipeline::testing {

inline constexpr const char* kSchema = structure::testing::kTicketSchemaText;

// A loop on a hand-made plan; `edit` changes the plan before it is shared.
inline LoopSpec Spec(const std::function<void(LoopPlan&)>& edit = {}) {
  auto plan = std::make_shared<LoopPlan>();
  plan->original_schema = *ParseJson(kSchema);
  plan->provider_schema = plan->original_schema;
  auto v = CompileSchema(plan->original_schema);
  EXPECT_TRUE(v.ok());
  plan->validator = *v;
  if (edit) edit(*plan);
  LoopSpec spec;
  spec.plan = plan;
  spec.prompt = "Mike broke the build, priority seven";
  spec.model = "m";
  return spec;
}

inline providers::ProviderReply Text(const std::string& content, int64_t in = 10, int64_t out = 5) {
  providers::ProviderReply r;
  r.content = content;
  r.usage.input_tokens = in;
  r.usage.output_tokens = out;
  return r;
}

inline providers::ProviderReply Tool(const std::string& name, const std::string& args) {
  providers::ProviderReply r;
  r.finish = providers::FinishKind::kToolUse;
  r.tool_calls.push_back({"call_1", name, args, ""});
  return r;
}

// By value: a Step is a temporary, and a reference into it would dangle.
inline Finish AsFinish(Step s) {
  EXPECT_TRUE(std::holds_alternative<Finish>(s));
  if (!std::holds_alternative<Finish>(s)) return Finish{};
  return std::get<Finish>(std::move(s));
}

inline SendCall AsSend(Step s) {
  EXPECT_TRUE(std::holds_alternative<SendCall>(s));
  if (!std::holds_alternative<SendCall>(s)) return SendCall{};
  return std::get<SendCall>(std::move(s));
}

}  // namespace structure::pipeline::testing
