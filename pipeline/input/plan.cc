#include "pipeline/input/plan.h"

#include <algorithm>

#include "pipeline/input/merge.h"
#include "pipeline/loop/content_loop.h"
#include "pipeline/loop/reason.h"

namespace structure::pipeline {
namespace {

// The least input room a part must get for a split to be worth it.
constexpr int64_t kMinPartTokens = 256;

std::string WindowWords(const InputBudget& b) {
  std::string s = "the context window of " + std::to_string(b.window) + " tokens";
  if (b.source == WindowSource::kLearned) s += " (learned from the provider's refusal)";
  if (b.source == WindowSource::kTable) s += " (the model table's)";
  return s;
}

const char* const kDropped[] = {"required", "minItems", "minProperties", "minContains",
                                "dependentRequired"};
// Members whose values are data, not subschemas.
const char* const kData[] = {"enum", "const", "default", "examples"};

void Relax(Json& node) {
  if (node.is_array()) {
    for (Json& item : node.as_array()) Relax(item);
    return;
  }
  if (!node.is_object()) return;
  for (const char* key : kDropped) {
    const Json* v = node.find(key);
    // "required" is an array of names, the others numbers or a map of names: a property of
    // that name (a subschema, an object) stays.
    if (v != nullptr && (v->is_array() || v->is_number() ||
                         (std::string_view(key) == "dependentRequired" && v->is_object())))
      node.erase(key);
  }
  for (auto& [k, v] : node.as_object()) {
    const std::string& name = k;  // a structured binding cannot be captured (clang 14)
    if (std::find_if(std::begin(kData), std::end(kData),
                     [&](const char* d) { return name == d; }) != std::end(kData))
      continue;
    Relax(v);
  }
}

}  // namespace

int64_t FixedTokens(const LoopSpec& spec) {
  const LoopPlan& plan = *spec.plan;
  if (plan.split) {
    // A split schema's parts each carry a part of the schema: the whole one bounds them.
    return static_cast<int64_t>((ToJson(plan.original_schema).size() + plan.manual.size() +
                                 spec.instructions.size()) /
                                4) +
           500;
  }
  LoopSpec s;  // the spec without its input (never copied: it may be large)
  s.plan = spec.plan;
  s.instructions = spec.instructions;
  s.params = spec.params;
  s.model = spec.model;
  s.thinking = spec.thinking;
  s.max_tokens = spec.max_tokens;
  LoopState state;
  Step step = Start(s, state);
  if (const auto* send = std::get_if<SendCall>(&step))
    return providers::EstimatePromptTokens(send->call);
  return 0;
}

Result<InputPlan> PlanInput(std::string_view input, const InputBudget& b) {
  InputPlan plan;
  plan.input_tokens = static_cast<int64_t>(input.size() / 4);
  int64_t room = 0;  // input tokens one call takes; 0 = no limit
  std::string why;
  if (b.window > 0) {
    // A twentieth of the window stays free for what the estimate misses (the wire format's own
    // framing, a tokenizer that counts more).
    room = b.window - b.fixed_tokens - b.output_cap - b.window / 20;
    if (room < kMinPartTokens) {
      return Status(Code::kContextTooLong,
                    WindowWords(b) + " holds no input beside the instructions and schema (about " +
                        std::to_string(b.fixed_tokens) + " tokens) and the output cap (" +
                        std::to_string(b.output_cap) +
                        " tokens): use a model with a larger window, a smaller schema or manual, "
                        "or a lower output cap");
    }
    why = WindowWords(b) + " leaves about " + std::to_string(room) +
          " input tokens a call beside the instructions, the schema and the output cap";
  }
  if (b.max_input_tokens_per_call > 0 && (room == 0 || b.max_input_tokens_per_call < room)) {
    room = std::max(kMinPartTokens, b.max_input_tokens_per_call);
    why = "maxInputTokensPerCall is " + std::to_string(b.max_input_tokens_per_call);
  }
  plan.part_tokens = room;
  if (room == 0 || plan.input_tokens <= room) return plan;
  InputSplitOptions o;
  o.max_part_bytes = static_cast<size_t>(room * kPartBytesPerToken);
  o.overlap_bytes = static_cast<size_t>(static_cast<double>(o.max_part_bytes) * b.overlap);
  plan.parts = SplitInput(input, o);
  if (plan.parts.size() <= 1) {
    plan.parts.clear();
    return plan;
  }
  plan.reason = "the input (about " + std::to_string(plan.input_tokens) +
                " tokens) was split into " + std::to_string(plan.parts.size()) +
                " overlapping parts: " + why;
  return plan;
}

Json InputPlanToJson(const InputPlan& plan, const InputBudget& b) {
  Json j = Json::MakeObject();
  j.set("window", b.window);
  j.set("windowSource", b.source == WindowSource::kTable     ? "table"
                        : b.source == WindowSource::kLearned ? "learned"
                                                             : "none");
  j.set("maxInputTokensPerCall", b.max_input_tokens_per_call);
  j.set("fixedTokens", b.fixed_tokens);
  j.set("outputCap", b.output_cap);
  j.set("inputTokens", plan.input_tokens);
  j.set("partTokens", plan.part_tokens);
  j.set("calls", static_cast<int64_t>(std::max<size_t>(1, plan.parts.size())));
  Json parts = Json::MakeArray();
  for (size_t i = 0; i < plan.parts.size(); ++i) {
    const InputPart& p = plan.parts[i];
    Json part = Json::MakeObject();
    part.set("part", static_cast<int64_t>(i + 1));
    part.set("byteStart", static_cast<int64_t>(p.begin));
    part.set("byteEnd", static_cast<int64_t>(p.end));
    part.set("tokens", static_cast<int64_t>((p.end - p.begin) / 4));
    parts.push_back(std::move(part));
  }
  j.set("parts", std::move(parts));
  j.set("reason", plan.reason);
  return j;
}

std::string PartPrompt(std::string_view part_text, size_t index, size_t count) {
  std::string s = "[Part " + std::to_string(index + 1) + " of " + std::to_string(count) +
                  " of one document. Answer only what this part states; leave out what it does "
                  "not state.]\n\n";
  s.append(part_text);
  return s;
}

size_t PartHeaderBytes(size_t index, size_t count) { return PartPrompt("", index, count).size(); }

Json PartSchema(const Json& schema) {
  Json out = schema;
  Relax(out);
  return out;
}

size_t CodePoints(std::string_view text) {
  size_t n = 0;
  for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

Json WholeDocumentEvidence(const Json& evidence, const InputPart& part, size_t cp_begin,
                           size_t header_bytes) {
  if (!evidence.is_object()) return evidence;
  Json out = Json::MakeObject();
  auto num = [](const Json& e, const char* k) -> int64_t {
    const Json* v = e.find(k);
    return v != nullptr && v->is_int() ? v->as_int() : -1;
  };
  const auto h = static_cast<int64_t>(header_bytes);
  const auto len = static_cast<int64_t>(part.end - part.begin);
  for (const auto& [pointer, e] : evidence.as_object()) {
    int64_t bs = num(e, "byteStart"), be = num(e, "byteEnd");
    int64_t cs = num(e, "cpStart"), ce = num(e, "cpEnd");
    if (bs < h || be < bs || be - h > len || cs < h || ce < cs) continue;  // not in the text
    Json m = e;
    m.set("byteStart", bs - h + static_cast<int64_t>(part.begin));
    m.set("byteEnd", be - h + static_cast<int64_t>(part.begin));
    m.set("cpStart", cs - h + static_cast<int64_t>(cp_begin));
    m.set("cpEnd", ce - h + static_cast<int64_t>(cp_begin));
    out.set(pointer, std::move(m));
  }
  return out;
}

CallResult CombineParts(std::vector<CallResult> parts, const std::vector<InputPart>& layout,
                        std::string_view doc, const LoopPlan& plan, std::string reason) {
  CallResult r;
  Usage usage;
  int iterations = 0;
  for (const CallResult& p : parts) {
    usage += p.usage;
    iterations += p.iterations;
  }
  auto finish = [&](CallResult out) {
    out.usage = usage;
    out.iterations = iterations;
    out.input_parts = static_cast<int>(parts.size());
    if (!parts.empty()) {
      out.mode = parts.front().mode;
      out.model = parts.front().model;
      out.provider = parts.front().provider;
    }
    out.mode_reason = reason;
    for (const CallResult& p : parts)
      for (size_t i = 0; i < out.reasks.size(); ++i) out.reasks[i] += p.reasks[i];
    return out;
  };
  auto part_name = [&](size_t i) {
    return "part " + std::to_string(i + 1) + " of " + std::to_string(parts.size());
  };
  // The first error ends the call: the document cannot be answered without that part.
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].status != Outcome::kError) continue;
    CallResult e = ErrorResult(
        parts[i].error_code,
        part_name(i) + " (bytes " + std::to_string(layout[i].begin) + ".." +
            std::to_string(layout[i].end) +
            "): " + (parts[i].errors.empty() ? std::string("failed") : parts[i].errors.front()));
    return finish(std::move(e));
  }
  std::vector<PartAnswer> answers;
  std::vector<std::string> needs, stale;
  size_t cp = 0, cp_at = 0;  // code points of doc before cp_at
  bool evidence = false;
  for (size_t i = 0; i < parts.size(); ++i) {
    PartAnswer a;
    if (parts[i].status == Outcome::kOk) a.data = std::move(parts[i].data);
    if (parts[i].status == Outcome::kNeedMoreInput && !parts[i].need.empty())
      needs.push_back(part_name(i) + ": " + parts[i].need);
    if (parts[i].status == Outcome::kStale)
      for (const std::string& line : parts[i].errors) stale.push_back(part_name(i) + ": " + line);
    if (!parts[i].evidence.is_null()) {
      evidence = true;
      cp += CodePoints(doc.substr(cp_at, layout[i].begin - cp_at));
      cp_at = layout[i].begin;
      a.evidence =
          WholeDocumentEvidence(parts[i].evidence, layout[i], cp, PartHeaderBytes(i, parts.size()));
    }
    answers.push_back(std::move(a));
  }
  MergedAnswer merged = MergeParts(answers);
  if (!merged.data.is_null()) {
    ValidationResult vr = plan.validator->Validate(merged.data, true);
    if (vr.valid) {
      r.status = Outcome::kOk;
      r.data = std::move(merged.data);
      if (!merged.conflicts.empty()) r.conflicts = ConflictsToJson(merged.conflicts);
      if (evidence) {
        r.evidence = merged.evidence.is_null() ? Json::MakeObject() : std::move(merged.evidence);
        r.ungrounded = Json::MakeArray();
      }
      return finish(std::move(r));
    }
    stale = ErrorMessages(vr.errors);
  }
  if (!needs.empty()) {
    r.status = Outcome::kNeedMoreInput;
    for (const std::string& n : needs) r.need += (r.need.empty() ? "" : "; ") + n;
    return finish(std::move(r));
  }
  r.status = Outcome::kStale;
  r.errors = stale.empty() ? std::vector<std::string>{"no part of the input stated anything"}
                           : std::move(stale);
  return finish(std::move(r));
}

}  // namespace structure::pipeline
