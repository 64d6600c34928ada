#include "batch/batch_record.h"

#include <charconv>

namespace structure::batch {

namespace {

void Take(BatchRecord& r, pipeline::Step step) {
  if (auto* finish = std::get_if<pipeline::Finish>(&step)) {
    r.result = r.prepared.Complete(std::move(finish->result));
    r.call.reset();
    return;
  }
  r.call = std::move(std::get<pipeline::SendCall>(step).call);
}

}  // namespace

std::string CustomId(uint64_t line_no, int round) {
  return "l" + std::to_string(line_no) + "-r" + std::to_string(round);
}

bool ParseCustomId(std::string_view id, uint64_t* line_no, int* round) {
  size_t dash = id.find("-r");
  if (id.size() < 4 || id[0] != 'l' || dash == std::string_view::npos) return false;
  const char* a = id.data() + 1;
  const char* a_end = id.data() + dash;
  const char* b = id.data() + dash + 2;
  const char* b_end = id.data() + id.size();
  auto [pa, ea] = std::from_chars(a, a_end, *line_no);
  auto [pb, eb] = std::from_chars(b, b_end, *round);
  return ea == std::errc() && pa == a_end && eb == std::errc() && pb == b_end && *round > 0;
}

void StartRecord(BatchRecord& r) {
  r.round = 1;
  r.tries = 0;
  r.result.reset();
  Take(r, pipeline::Start(r.prepared.spec, r.state));
}

void ApplyItem(BatchRecord& r, const providers::ItemResult& item, int retries) {
  if (!r.call) return;
  r.waiting_on = 0;
  ++r.round;
  if (item.reply.ok()) {
    r.tries = 0;
    return Take(r, pipeline::OnReply(r.prepared.spec, r.state, item.reply));
  }
  if (item.transient && r.tries < retries) {
    ++r.tries;  // the same call again, in the next round
    return;
  }
  if (!item.code.empty()) {
    return Take(
        r, pipeline::FailLoop(r.prepared.spec, r.state, item.code, item.reply.status().message()));
  }
  Take(r, pipeline::OnReply(r.prepared.spec, r.state, item.reply.status()));
}

void EndRecord(BatchRecord& r, std::string code, std::string message) {
  r.waiting_on = 0;
  Take(r, pipeline::FailLoop(r.prepared.spec, r.state, std::move(code), std::move(message)));
}

}  // namespace structure::batch
