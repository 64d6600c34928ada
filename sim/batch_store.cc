#include "sim/batch_store.h"

#include "base/hash.h"
#include "sim/rng.h"
#include "sim/wire_util.h"

namespace structure::sim {

BatchStore::BatchStore(BatchOptions options, uint64_t seed, Stats& stats, AnswerFn answer,
                       RejectFn reject)
    : options_(std::move(options)),
      seed_(seed),
      stats_(stats),
      answer_(std::move(answer)),
      reject_(std::move(reject)) {}

SimFile& BatchStore::AddFile(std::string purpose, std::string name, std::string content,
                             bool result) {
  auto f = std::make_unique<SimFile>();
  f->id = MakeId("file-", MixSeed(seed_ ^ 0xf11e, next_file_++));
  f->purpose = std::move(purpose);
  f->name = std::move(name);
  f->content = std::move(content);
  f->created_s = UnixNow();
  f->result = result;
  SimFile& ref = *f;
  files_[ref.id] = std::move(f);
  return ref;
}

SimFile* BatchStore::FindFile(const std::string& id) {
  auto it = files_.find(id);
  return it == files_.end() ? nullptr : it->second.get();
}

SimBatch& BatchStore::Create(Provider provider, const std::string& id_prefix,
                             std::vector<SimItem> items) {
  auto b = std::make_unique<SimBatch>();
  b->provider = provider;
  b->ordinal = next_ordinal_++;
  b->id = MakeId(id_prefix, MixSeed(seed_ ^ 0xba7c, static_cast<uint64_t>(b->ordinal)));
  b->created_s = UnixNow();
  b->due = std::chrono::steady_clock::now() + std::chrono::milliseconds(options_.delay_ms);
  if (auto it = options_.faults.find(b->ordinal); it != options_.faults.end())
    b->fault = it->second;
  b->items = std::move(items);
  stats_.CountBatch(static_cast<int64_t>(b->items.size()));
  batches_.push_back(std::move(b));
  return *batches_.back();
}

SimBatch* BatchStore::Find(Provider provider, const std::string& id) {
  for (auto& b : batches_) {
    if (b->id == id && b->provider == provider) {
      EndIfDue(*b);
      return b.get();
    }
  }
  return nullptr;
}

SimBatch* BatchStore::Cancel(Provider provider, const std::string& id) {
  SimBatch* b = Find(provider, id);
  if (!b || b->ended) return b;
  for (SimItem& item : b->items) item.fate = ItemFate::kCancelled;
  b->ended = true;
  b->end_state = "cancelled";
  return b;
}

std::vector<SimBatch*> BatchStore::List(Provider provider) {
  std::vector<SimBatch*> out;
  for (auto it = batches_.rbegin(); it != batches_.rend(); ++it) {
    if ((*it)->provider != provider) continue;
    EndIfDue(**it);
    out.push_back(it->get());
  }
  return out;
}

void BatchStore::EndIfDue(SimBatch& batch) {
  if (!batch.ended && std::chrono::steady_clock::now() >= batch.due) End(batch);
}

std::string BatchStore::LivePath(const SimBatch& batch) const {
  switch (batch.provider) {
    case Provider::kOpenAi:
      return batch.endpoint.empty() ? "/v1/chat/completions" : batch.endpoint;
    case Provider::kAnthropic:
      return "/v1/messages";
    case Provider::kGemini:
      return "/v1beta/models/" + batch.model + ":generateContent";
    case Provider::kOllama:
      return "/api/chat";
  }
  return "/";
}

void BatchStore::End(SimBatch& batch) {
  batch.ended = true;
  batch.end_state = batch.fault.empty() ? "completed" : batch.fault;
  if (batch.fault == "failed") return;  // rejected as a whole: no request ran
  std::string path = LivePath(batch);
  size_t half = (batch.items.size() + 1) / 2;
  for (size_t i = 0; i < batch.items.size(); ++i) {
    SimItem& item = batch.items[i];
    if (i >= half && batch.fault == "expired") {
      item.fate = ItemFate::kExpired;
      continue;
    }
    if (i >= half && batch.fault == "cancelled") {
      item.fate = ItemFate::kCancelled;
      continue;
    }
    Rng rng(MixSeed(seed_ ^ 0xfa7e, Fnv1a64(item.custom_id, Fnv1a64(batch.id))));
    double u = rng.Uniform();
    if (u < options_.error_rate) {
      item.fate = ItemFate::kErrored;
      stats_.CountFault("batch_errored");
    } else if ((u -= options_.error_rate) < options_.expire_rate) {
      item.fate = ItemFate::kExpired;
      stats_.CountFault("batch_expired");
    } else if ((u -= options_.expire_rate) < options_.reject_rate) {
      // Answered, as the provider answers a request it refuses: its 400 in the result.
      http::HttpResponse refused = reject_(batch.provider, "Simulated: this request was rejected.");
      item.status = refused.status;
      item.answer = std::move(refused.body);
      stats_.CountFault("batch_rejected");
    } else if ((u -= options_.reject_rate) < options_.malformed_rate) {
      item.status = 200;
      item.answer = "{\"id\":\"sim-malformed\",\"simulated\":\"not a reply of this provider\"}";
      stats_.CountFault("batch_malformed");
    } else {
      http::HttpResponse answer = answer_(batch.provider, path, item.body);
      item.status = answer.status;
      item.answer = std::move(answer.body);
    }
  }
}

}  // namespace structure::sim
