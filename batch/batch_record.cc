#include "batch/batch_record.h"

#include <charconv>

namespace structure::batch {

namespace {

bool ReadNumber(std::string_view s, uint64_t* out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return !s.empty() && ec == std::errc() && p == s.data() + s.size();
}

// Takes the loop's step: the record's end, or its next calls (in `round`).
void Take(BatchRecord& r, pipeline::RunStep step, int round) {
  if (auto* finish = std::get_if<pipeline::Finish>(&step)) {
    r.result = r.prepared.Complete(std::move(finish->result));
    r.calls.clear();
    return;
  }
  if (std::holds_alternative<pipeline::RunCheck>(step)) {
    r.result = r.prepared.Complete(pipeline::RunFail(r.prepared.spec, r.state, ErrorCode::kInternal,
                                                     "an external check in a provider batch")
                                       .result);
    r.calls.clear();
    return;
  }
  for (pipeline::SlotCall& c : std::get<pipeline::SendCalls>(step).calls)
    r.calls.push_back(RecordCall{c.slot, std::move(c.call), round, 0, 0});
}

}  // namespace

std::string CustomId(uint64_t line_no, int round, int slot) {
  std::string id = "l" + std::to_string(line_no) + "-r" + std::to_string(round);
  if (slot > 0) id += "-s" + std::to_string(slot);
  return id;
}

bool ParseCustomId(std::string_view id, uint64_t* line_no, int* round, int* slot) {
  if (id.size() < 4 || id[0] != 'l') return false;
  size_t r = id.find("-r");
  if (r == std::string_view::npos) return false;
  size_t s = id.find("-s", r + 2);
  uint64_t line = 0, n = 0, k = 0;
  if (!ReadNumber(id.substr(1, r - 1), &line)) return false;
  if (!ReadNumber(id.substr(r + 2, s == std::string_view::npos ? s : s - r - 2), &n) || n == 0 ||
      n > 1000000)
    return false;
  if (s != std::string_view::npos && (!ReadNumber(id.substr(s + 2), &k) || k == 0 || k > 100000))
    return false;
  *line_no = line;
  *round = static_cast<int>(n);
  *slot = static_cast<int>(k);
  return true;
}

RecordCall* FindCall(BatchRecord& r, int round, int slot) {
  for (RecordCall& c : r.calls)
    if (c.round == round && c.slot == slot) return &c;
  return nullptr;
}

void StartRecord(BatchRecord& r) {
  r.calls.clear();
  r.result.reset();
  Take(r, pipeline::RunStart(r.prepared.spec, r.state), 1);
}

void ApplyItem(BatchRecord& r, int slot, const providers::ItemResult& item, int retries) {
  auto it = r.calls.begin();
  while (it != r.calls.end() && it->slot != slot) ++it;
  if (it == r.calls.end()) return;
  RecordCall call = std::move(*it);
  r.calls.erase(it);
  int next = call.round + 1;
  if (item.reply.ok()) {
    return Take(r, pipeline::RunOnReply(r.prepared.spec, r.state, slot, item.reply), next);
  }
  if (item.transient && call.tries < retries) {
    ++call.tries;  // the same call again, in the next round
    call.round = next;
    call.waiting_on = 0;
    r.calls.push_back(std::move(call));
    return;
  }
  if (item.code) {
    return Take(
        r, pipeline::RunFail(r.prepared.spec, r.state, *item.code, item.reply.status().message()),
        next);
  }
  Take(r, pipeline::RunOnReply(r.prepared.spec, r.state, slot, item.reply.status()), next);
}

void EndRecord(BatchRecord& r, ErrorCode code, std::string message) {
  Take(r, pipeline::RunFail(r.prepared.spec, r.state, code, std::move(message)), 0);
}

}  // namespace structure::batch
