#include "batch/provider_batch.h"

#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <random>
#include <thread>
#include <unordered_map>

#include "batch/provider_batch_job.h"
#include "batch/provider_batch_progress.h"

namespace structure::batch {

namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

std::string NewJobId() {
  std::random_device rd;
  uint64_t v = (static_cast<uint64_t>(rd()) << 32) ^ rd() ^ static_cast<uint64_t>(::getpid());
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(v));
  return std::string("sb") + buf;
}

}  // namespace

ProviderBatchJob::ProviderBatchJob(const ProviderBatchOptions& options, const ProviderBatchEnv& env,
                                   JournalWriter* out, const JournalScan* resume)
    : opt_(options), env_(env), out_(out), resume_(resume) {}

bool ProviderBatchJob::Interrupted() const {
  return opt_.interrupts && opt_.interrupts->load() > 0;
}

bool ProviderBatchJob::Sleep(std::chrono::milliseconds delay) const {
  auto until = Clock::now() + delay;
  while (Clock::now() < until) {
    if (Interrupted()) return false;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
    std::this_thread::sleep_for(std::min(left, std::chrono::milliseconds(50)));
  }
  return !Interrupted();
}

uint64_t ProviderBatchJob::Unfinished() const {
  uint64_t n = 0;
  for (const BatchRecord& r : records_) n += r.result ? 0 : 1;
  return n;
}

void ProviderBatchJob::Emit(uint64_t index, const Json& id, uint64_t line_no,
                            pipeline::StructureResult result) {
  LineTally tally = LineTally::Of(result);
  OutputLine line{FormatResultLine(id, line_no, std::move(result)), tally};
  if (!opt_.ordered) {
    buffer_.Add(std::move(line));
    return;
  }
  slots_[index] = std::move(line);
  while (next_out_ < total_ && (skipped_[next_out_] || slots_[next_out_])) {
    if (slots_[next_out_]) {
      buffer_.Add(std::move(*slots_[next_out_]));
      slots_[next_out_].reset();
    }
    ++next_out_;
  }
}

void ProviderBatchJob::EmitRecord(BatchRecord& r) {
  // As Engine::Submit counts a call; a batch call's latency is its batch's, so none is kept.
  stats_.Record(pipeline::SchemaLabel(r.mode, r.schema_ref, *r.result), *r.result, 0);
  Emit(r.index, r.id, r.line_no, std::move(*r.result));
  r.result = pipeline::CallResult{};  // ended; the result itself is written
  r.prepared.spec.prompt.clear();
  r.state = pipeline::RunState{};
}

void ProviderBatchJob::Flush() {
  if (buffer_.empty()) return;
  if (!report_.batch.io_error.ok()) return buffer_.Clear();
  Status st = buffer_.WriteTo(*out_, report_.batch.run);
  if (!st.ok()) report_.batch.io_error = st;
}

void ProviderBatchJob::Load(std::string_view input) {
  std::unordered_map<std::string, uint64_t> seen;
  std::vector<std::pair<size_t, pipeline::StructureRequest>> requests;
  std::vector<BatchLine> lines;
  size_t pos = 0;
  uint64_t line_no = 0;
  while (pos < input.size()) {
    size_t nl = input.find('\n', pos);
    if (nl == std::string_view::npos) nl = input.size();
    std::string_view text = input.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (IsBlankLine(text)) continue;
    BatchLine line = ParseBatchLine(text, line_no, opt_.defaults);
    // As the live runner: decided before the duplicate check rewrites the key.
    if (opt_.shard.count > 1 &&
        ShardOf(ShardKey(line.id, line_no), opt_.shard.count) != opt_.shard.index) {
      continue;
    }
    if (!line.id.is_null()) {
      auto [it, inserted] = seen.emplace(line.key, line_no);
      if (!inserted) {
        line.error = InvalidArgument("line " + std::to_string(line_no) + ": id " + line.key +
                                     " is already used on line " + std::to_string(it->second));
        line.request.reset();
        line.id = Json();
        line.key = KeyForLine(line_no);
      }
    }
    lines.push_back(std::move(line));
  }
  total_ = lines.size();
  slots_.resize(total_);
  skipped_.assign(total_, false);
  for (uint64_t i = 0; i < total_; ++i) {
    BatchLine& line = lines[i];
    if (resume_ && resume_->done.count(line.key) > 0) {
      skipped_[i] = true;
      continue;
    }
    if (!line.request) {
      Emit(i, line.id, line.line_no, BadLineResult(line.error));
      continue;
    }
    BatchRecord r;
    r.index = i;
    r.id = line.id;
    r.line_no = line.line_no;
    r.mode = line.request->mode;
    r.schema_ref = line.request->schema_ref;
    by_line_[line.line_no] = records_.size();
    requests.emplace_back(records_.size(), std::move(*line.request));
    records_.push_back(std::move(r));
  }
  PrepareAll(std::move(requests));
}

void ProviderBatchJob::PrepareAll(
    std::vector<std::pair<size_t, pipeline::StructureRequest>> requests) {
  // The schema stage runs on engine threads; the records are filled in here, on this thread.
  struct Arrived {
    size_t at;
    std::optional<pipeline::PreparedCall> prepared;
    std::optional<pipeline::CallResult> result;
  };
  std::mutex mu;
  std::condition_variable cv;
  std::vector<Arrived> arrived;
  size_t expected = requests.size();
  for (auto& [at, request] : requests) {
    size_t slot = at;
    env_.prepare(
        std::move(request),
        [&, slot](pipeline::PreparedCall p) {
          std::lock_guard<std::mutex> lock(mu);
          arrived.push_back({slot, std::move(p), std::nullopt});
          cv.notify_one();
        },
        [&, slot](pipeline::CallResult r) {
          std::lock_guard<std::mutex> lock(mu);
          arrived.push_back({slot, std::nullopt, std::move(r)});
          cv.notify_one();
        });
  }
  std::unique_lock<std::mutex> lock(mu);
  cv.wait(lock, [&] { return arrived.size() == expected; });
  for (Arrived& a : arrived) {
    BatchRecord& r = records_[a.at];
    if (a.result) {
      r.result = std::move(a.result);
      continue;
    }
    r.prepared = std::move(*a.prepared);
    if (!HasBatchApi(r.prepared.endpoint.kind)) {
      StartRecord(r);
      EndRecord(r, ErrorCode::kBatchUnsupported,
                "provider '" + r.prepared.provider + "' (kind " +
                    std::string(providers::ProviderKindName(r.prepared.endpoint.kind)) +
                    ") has no batch API; run this job without --provider-batch");
      continue;
    }
    endpoints_.emplace(r.prepared.provider, r.prepared.endpoint);
  }
  for (BatchRecord& r : records_) {
    if (r.result) EmitRecord(r);
  }
  Flush();
}

Status ProviderBatchJob::OpenState() {
  auto state = BatchState::Open(opt_.state_dir);
  if (!state.ok()) return state.status();
  state_.emplace(std::move(*state));
  if (!state_->started()) return state_->Begin(NewJobId(), opt_.fingerprint);
  if (state_->fingerprint() != opt_.fingerprint) {
    return InvalidArgument(
        "the input or the flags changed since this provider batch job started (" + opt_.state_dir +
        " holds its batches, built from the old requests): resume "
        "with the same input and flags, or --overwrite to start over");
  }
  return Status::Ok();
}

void ProviderBatchJob::DrawProgress() {
  if (!opt_.progress) return;
  auto now = Clock::now();
  if (now - last_draw_ < std::chrono::milliseconds(250)) return;
  last_draw_ = now;
  BatchCounts done = resume_ ? resume_->counts : BatchCounts{};
  done.Merge(report_.batch.run);
  std::vector<providers::BatchInfo> running;
  for (const auto& [seq, info] : last_poll_) running.push_back(info);
  ProgressView view{report_.rounds, running, done, Unfinished(), total_, Seconds(now - start_)};
  std::fprintf(stderr, "\r\033[K%s", FormatBatchProgress(view).c_str());
  std::fflush(stderr);
}

ProviderBatchReport ProviderBatchJob::Run(std::string_view input) {
  if (resume_) report_.batch.resumed = resume_->counts;
  Load(input);
  Status st = Interrupted() ? Status::Ok() : OpenState();
  if (st.ok() && !Interrupted()) st = Replay();
  Flush();
  int64_t poll_ms = opt_.poll_ms;
  int64_t max_poll_ms = opt_.max_poll_ms;
  if (!endpoints_.empty() && env_.settings) {
    config::BatchSettings s = env_.settings(endpoints_.begin()->first);
    if (poll_ms <= 0) poll_ms = s.poll_ms;
    if (max_poll_ms <= 0) max_poll_ms = s.max_poll_ms;
    report_.discount = s.discount;
  }
  if (poll_ms <= 0) poll_ms = 5000;
  max_poll_ms = std::max(max_poll_ms, poll_ms);
  auto interval = std::chrono::milliseconds(poll_ms);
  while (st.ok() && report_.batch.io_error.ok()) {
    if (Interrupted()) break;
    st = ResolveIncomplete();
    if (st.ok()) st = SubmitQueued();
    Flush();
    if (!st.ok() || Unfinished() == 0) break;
    bool changed = false;
    st = PollPending(&changed);
    Flush();
    DrawProgress();
    if (!st.ok() || Unfinished() == 0) break;
    if (changed) {
      interval = std::chrono::milliseconds(poll_ms);
      continue;
    }
    if (opt_.no_wait || !Sleep(interval)) break;
    interval = NextPollInterval(interval, std::chrono::milliseconds(max_poll_ms));
  }
  Flush();
  if (opt_.progress) {
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
  }
  // A state write that failed is an output error, as one to OUT is (exit 2 on both paths).
  if (state_ && !state_->write_error().ok() && report_.batch.io_error.ok())
    report_.batch.io_error = state_->write_error();
  report_.job_error = report_.batch.io_error.ok() ? st : Status::Ok();
  report_.batch.interrupted = Interrupted() || !report_.batch.io_error.ok();
  report_.batch.elapsed_s = Seconds(Clock::now() - start_);
  report_.waiting = Unfinished();
  report_.stats = stats_.Snapshot();
  if (state_) {
    for (const auto& [seq, s] : state_->submits()) {
      if (!s.batch_id.empty() && !s.read && !s.rejected) ++report_.pending_batches;
    }
  }
  if (st.ok() && report_.waiting == 0 && report_.batch.io_error.ok() && state_) {
    Status removed = state_->Remove();
    report_.finished = removed.ok();
  }
  return report_;
}

ProviderBatchReport RunProviderBatch(const ProviderBatchOptions& options,
                                     const ProviderBatchEnv& env, std::string_view input,
                                     JournalWriter* out, const JournalScan* resume) {
  ProviderBatchJob job(options, env, out, resume);
  return job.Run(input);
}

std::string FormatBatchSummary(const ProviderBatchReport& r) {
  char discount[32];
  std::snprintf(discount, sizeof(discount), "%g", r.discount);
  std::string s = std::to_string(r.submitted.size()) + " provider batch" +
                  (r.submitted.size() == 1 ? "" : "es") + " submitted, " +
                  std::to_string(r.rounds) + " round" + (r.rounds == 1 ? "" : "s") +
                  ", batch discount " + discount;
  if (r.waiting > 0) {
    s += "; " + std::to_string(r.waiting) + " records wait for " +
         std::to_string(r.pending_batches) + " batch" + (r.pending_batches == 1 ? "" : "es") +
         " (--resume collects them)";
  }
  return s;
}

}  // namespace structure::batch
