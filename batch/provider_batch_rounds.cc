// The rounds of a provider batch job: replaying the stored results (resume), submitting the
// queued calls as batches split at the caps, polling, and applying what came back.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <tuple>

#include "base/time_format.h"
#include "batch/provider_batch_job.h"
#include "providers/wire.h"

namespace structure::batch {

namespace {

providers::ItemResult RejectedItem(const std::string& message) {
  providers::ItemResult item;
  item.code = ErrorCode::kBatchRejected;
  item.reply = Status(Code::kInvalidArgument, message);
  return item;
}

bool Pending(const SubmitRecord& s) { return !s.batch_id.empty() && !s.read && !s.rejected; }

}  // namespace

BatchClient& ProviderBatchJob::Client(const std::string& provider) {
  auto& c = clients_[provider];
  if (!c) {
    c = std::make_unique<BatchClient>(endpoints_.at(provider), env_.send,
                                      [this](std::chrono::milliseconds d) { return Sleep(d); });
    for (const auto& [seq, s] : state_->submits()) {
      if (s.provider == provider && !s.batch_id.empty()) c->Remember(s.batch_id);
    }
  }
  return *c;
}

BatchCaps ProviderBatchJob::Caps(const std::string& provider) const {
  BatchCaps caps = ProviderCaps(endpoints_.at(provider).kind);
  config::BatchSettings s = env_.settings ? env_.settings(provider) : config::BatchSettings{};
  if (s.max_requests > 0) caps.max_requests = s.max_requests;
  if (s.max_bytes > 0) caps.max_bytes = s.max_bytes;
  if (opt_.max_requests > 0) caps.max_requests = opt_.max_requests;
  if (opt_.max_bytes > 0) caps.max_bytes = opt_.max_bytes;
  return caps;
}

std::vector<ProviderBatchJob::Member> ProviderBatchJob::Members(const SubmitRecord& submit) {
  std::vector<Member> members;
  for (const std::string& id : submit.custom_ids) {
    uint64_t line = 0;
    int round = 0, slot = 0;
    if (!ParseCustomId(id, &line, &round, &slot)) continue;
    auto it = by_line_.find(line);
    if (it == by_line_.end()) continue;
    if (FindCall(records_[it->second], round, slot)) members.push_back({it->second, slot});
  }
  return members;
}

RecordCall& ProviderBatchJob::CallOf(const Member& m, int round) {
  return *FindCall(records_[m.first], round, m.second);
}

Result<providers::ItemResults> ProviderBatchJob::StoredResults(const SubmitRecord& submit) {
  auto endpoint = endpoints_.find(submit.provider);
  if (endpoint == endpoints_.end()) {
    return InvalidArgument("submit " + std::to_string(submit.seq) + " used provider '" +
                           submit.provider + "', which no record of this job uses now");
  }
  auto text = state_->Results(submit.seq);
  if (!text.ok()) return text.status();
  auto parsed = ParseStored(endpoint->second.kind, *text, submit.custom_ids);
  if (!parsed.ok()) {
    return Status(parsed.status().code(), state_->dir() + "/" + std::to_string(submit.seq) +
                                              ".results: " + parsed.status().message());
  }
  return parsed;
}

Status ProviderBatchJob::Replay() {
  std::map<std::string, int64_t> seq_of;
  for (const auto& [seq, s] : state_->submits()) {
    for (const std::string& id : s.custom_ids) seq_of[id] = seq;
  }
  std::map<int64_t, providers::ItemResults> cache;
  for (BatchRecord& r : records_) {
    if (r.result) continue;
    StartRecord(r);
    // Each call applies its stored result; one never submitted is queued, one submitted and
    // not read yet waits for its batch.
    bool applied = true;
    while (!r.result && applied) {
      applied = false;
      for (RecordCall& call : r.calls) {
        if (call.waiting_on != 0) continue;
        auto it = seq_of.find(CustomId(r.line_no, call.round, call.slot));
        if (it == seq_of.end()) continue;
        const SubmitRecord& s = state_->submits().at(it->second);
        report_.rounds = std::max(report_.rounds, s.round);
        if (!s.read && !s.rejected) {
          call.waiting_on = s.seq;
          continue;
        }
        providers::ItemResult item = RejectedItem(s.reject_message);
        if (s.read) {
          auto c = cache.find(s.seq);
          if (c == cache.end()) {
            auto results = StoredResults(s);
            if (!results.ok()) return results.status();
            c = cache.emplace(s.seq, std::move(*results)).first;
          }
          item = c->second.at(it->first);
        }
        ApplyItem(r, call.slot, item, opt_.retries);  // changes r.calls: look again
        applied = true;
        break;
      }
    }
    if (r.result) EmitRecord(r);
  }
  return Status::Ok();
}

Status ProviderBatchJob::Send(const SubmitRecord& submit, const std::vector<Member>& members) {
  const providers::Endpoint& endpoint = endpoints_.at(submit.provider);
  std::vector<providers::HttpRequest> requests;
  requests.reserve(members.size());
  SubmitRequest request;
  request.key = submit.key;
  request.model = submit.model;
  for (const Member& m : members) {
    auto built = providers::BuildRequest(CallOf(m, submit.round).call, endpoint);
    requests.push_back(built.ok() ? std::move(*built) : providers::HttpRequest{});
  }
  for (size_t k = 0; k < members.size(); ++k) {
    const BatchRecord& r = records_[members[k].first];
    request.items.push_back({CustomId(r.line_no, submit.round, members[k].second), &requests[k]});
  }
  BatchClient& client = Client(submit.provider);
  auto id = client.Submit(
      request, submit.file_id,
      [&](const std::string& file) {
        Status st = state_->Uploaded(submit.seq, file);
        if (!st.ok()) report_.batch.io_error = st;
      },
      submit.at_ms);
  if (!report_.batch.io_error.ok()) return report_.batch.io_error;
  if (!id.ok()) {
    if (id.status().retryable()) {
      return Status(id.status().code(), "submitting a batch to " + submit.provider + ": " +
                                            id.status().message() + " (--resume tries again)");
    }
    STRUCTURE_RETURN_IF_ERROR(state_->Rejected(submit.seq, id.status().message()));
    ApplyRejection(submit.seq, id.status().message());
    return Status::Ok();
  }
  STRUCTURE_RETURN_IF_ERROR(state_->Created(submit.seq, *id));
  client.Remember(*id);
  report_.submitted.push_back(*id);
  report_.requests += static_cast<int64_t>(members.size());
  if (opt_.no_wait) std::fprintf(stdout, "%s\n", id->c_str());
  return Status::Ok();
}

Status ProviderBatchJob::ResolveIncomplete() {
  for (const auto& [seq, s] : state_->submits()) {
    if (!s.batch_id.empty() || s.rejected) continue;
    SubmitRecord submit = s;  // the journal's map changes below
    std::vector<Member> members = Members(submit);
    if (members.empty()) continue;
    // Planned before a kill: the provider may have the batch without the journal knowing.
    SubmitRequest probe;
    probe.key = submit.key;
    probe.model = submit.model;
    std::vector<providers::HttpRequest> none(members.size());
    for (size_t k = 0; k < members.size(); ++k)
      probe.items.push_back({submit.custom_ids[k], &none[k]});
    auto found = Client(submit.provider).Find(probe, submit.at_ms);
    if (!found.ok()) {
      return Status(found.status().code(), "looking for batch " + submit.key + " at " +
                                               submit.provider + ": " + found.status().message());
    }
    if (*found) {
      STRUCTURE_RETURN_IF_ERROR(state_->Created(seq, **found));
      Client(submit.provider).Remember(**found);
      for (const Member& m : members) CallOf(m, submit.round).waiting_on = seq;
      continue;
    }
    for (const Member& m : members) CallOf(m, submit.round).waiting_on = seq;
    STRUCTURE_RETURN_IF_ERROR(Send(submit, members));
  }
  return Status::Ok();
}

Status ProviderBatchJob::SubmitChunk(const std::string& provider, const std::string& model,
                                     int round, const std::vector<Member>& chunk, int64_t seq) {
  SubmitRecord submit;
  submit.seq = seq;
  submit.round = round;
  submit.provider = provider;
  submit.model = model;
  submit.key = state_->job_id() + "-" + std::to_string(seq);
  submit.at_ms = UnixNowMs();
  for (const Member& m : chunk)
    submit.custom_ids.push_back(CustomId(records_[m.first].line_no, round, m.second));
  STRUCTURE_RETURN_IF_ERROR(state_->Planned(submit));
  for (const Member& m : chunk) CallOf(m, round).waiting_on = seq;
  report_.rounds = std::max(report_.rounds, round);
  return Send(submit, chunk);
}

Status ProviderBatchJob::SubmitQueued() {
  int current = 0;
  for (const auto& [seq, s] : state_->submits()) {
    if (Pending(s)) current = std::max(current, s.round);
  }
  // Group the queued calls by provider, model and round, in input order (a record's parts
  // together, in slot order).
  std::map<std::tuple<std::string, std::string, int>, std::vector<Member>> groups;
  for (size_t i = 0; i < records_.size(); ++i) {
    BatchRecord& r = records_[i];
    if (r.result) continue;
    for (const RecordCall& c : r.calls) {
      if (c.waiting_on != 0) continue;
      if (current > 0 && c.round > current) continue;  // the next round waits for this one
      groups[{r.prepared.provider, c.call.model, c.round}].push_back({i, c.slot});
    }
  }
  for (auto& [key, members] : groups) {
    const auto& [provider, model, round] = key;
    BatchCaps caps = Caps(provider);
    const providers::Endpoint& endpoint = endpoints_.at(provider);
    std::vector<Member> chunk;
    int64_t bytes = 0;
    for (const Member& m : members) {
      BatchRecord& r = records_[m.first];
      RecordCall* call = r.result ? nullptr : FindCall(r, round, m.second);
      if (!call) continue;  // the record ended with an earlier call of this pass
      auto built = providers::BuildRequest(call->call, endpoint);
      if (!built.ok()) {
        providers::ItemResult failed;
        failed.reply = built.status();
        ApplyItem(r, m.second, failed, 0);
        if (r.result) EmitRecord(r);
        continue;
      }
      int64_t size = static_cast<int64_t>(
          ItemBytes(endpoint.kind, {CustomId(r.line_no, round, m.second), &*built}));
      if (size > caps.max_bytes) {
        EndRecord(r, ErrorCode::kBatchRequestTooLarge,
                  "the request for line " + std::to_string(r.line_no) + " is " +
                      std::to_string(size) + " bytes, over the " +
                      std::string(providers::ProviderKindName(endpoint.kind)) + " batch limit of " +
                      std::to_string(caps.max_bytes) + " bytes");
        EmitRecord(r);
        continue;
      }
      if (!chunk.empty() && (static_cast<int64_t>(chunk.size()) >= caps.max_requests ||
                             bytes + size > caps.max_bytes)) {
        STRUCTURE_RETURN_IF_ERROR(SubmitChunk(provider, model, round, chunk, state_->next_seq()));
        chunk.clear();
        bytes = 0;
      }
      chunk.push_back(m);
      bytes += size;
    }
    if (!chunk.empty())
      STRUCTURE_RETURN_IF_ERROR(SubmitChunk(provider, model, round, chunk, state_->next_seq()));
  }
  return Status::Ok();
}

void ProviderBatchJob::ApplyResults(int64_t seq, const providers::ItemResults& results) {
  const SubmitRecord& s = state_->submits().at(seq);
  for (const std::string& id : s.custom_ids) {
    uint64_t line = 0;
    int round = 0, slot = 0;
    if (!ParseCustomId(id, &line, &round, &slot)) continue;
    auto it = by_line_.find(line);
    auto item = results.find(id);
    if (it == by_line_.end() || item == results.end()) continue;
    BatchRecord& r = records_[it->second];
    RecordCall* call = r.result ? nullptr : FindCall(r, round, slot);
    if (!call || call->waiting_on != seq) continue;
    ApplyItem(r, slot, item->second, opt_.retries);
    if (r.result) EmitRecord(r);
  }
}

void ProviderBatchJob::ApplyRejection(int64_t seq, const std::string& message) {
  providers::ItemResults results;
  for (const std::string& id : state_->submits().at(seq).custom_ids)
    results[id] = RejectedItem(message);
  ApplyResults(seq, results);
}

Status ProviderBatchJob::PollPending(bool* changed) {
  std::vector<int64_t> pending;
  for (const auto& [seq, s] : state_->submits()) {
    if (Pending(s)) pending.push_back(seq);
  }
  for (int64_t seq : pending) {
    if (Interrupted()) return Status::Ok();
    SubmitRecord s = state_->submits().at(seq);
    if (!endpoints_.count(s.provider)) continue;  // no record of this run waits for it
    BatchClient& client = Client(s.provider);
    auto polled = client.Poll(s.batch_id);
    if (!polled.ok()) {
      if (polled.status().retryable()) continue;  // the next pass polls again
      return Status(polled.status().code(), "polling batch " + s.batch_id + " at " + s.provider +
                                                ": " + polled.status().message());
    }
    if (!polled->info.Ended()) {
      last_poll_[seq] = polled->info;
      continue;
    }
    last_poll_.erase(seq);
    auto stored = client.Download(*polled);
    if (!stored.ok()) {
      if (stored.status().retryable()) continue;
      return Status(stored.status().code(), "downloading the results of batch " + s.batch_id +
                                                ": " + stored.status().message());
    }
    STRUCTURE_RETURN_IF_ERROR(state_->Read(seq, *stored));
    auto results = StoredResults(state_->submits().at(seq));
    if (!results.ok()) return results.status();
    ApplyResults(seq, *results);
    Flush();
    *changed = true;
  }
  return Status::Ok();
}

}  // namespace structure::batch
