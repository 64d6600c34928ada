#include "batch/batch_runner.h"

#include <pthread.h>
#include <signal.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <vector>

#include "base/line_reader.h"
#include "batch/reorder_buffer.h"

namespace structure::batch {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kPoll = std::chrono::milliseconds(100);
constexpr auto kRedraw = std::chrono::milliseconds(250);
// Read-ahead: parsed records waiting for a free slot. The reader refills the queue when it is
// half empty, so it wakes once per kReadAhead / 2 records, not once per completion.
constexpr size_t kReadAhead = 128;
constexpr size_t kReadAheadBytes = 4 << 20;

// A record read from the input, not started yet.
struct Pending {
  uint64_t index;
  BatchLine line;
  size_t bytes;  // input line length, for the read-ahead bound
};

// A finished record, formatted, waiting for the pump.
struct Done {
  uint64_t index;
  OutputLine line;
};

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

// The caller's thread reads and parses input lines into a short read-ahead queue. The pump
// journals finished records (keeping the reorder buffer) and starts queued ones while fewer
// than K are in flight (and, when ordered, within the window). Whoever has something for it
// runs the pump: an engine thread that delivers a result, or the writer thread when input
// arrives. A completion therefore journals its result, frees its slot and refills it in the
// thread that delivered it, without waking another; a result delivered while a pump runs is
// left for that pump. The writer thread also watches for interrupts, draws progress and ends
// the job. With --fsync the writer thread runs every pump (a journal write then waits for the
// disk, and must not stall an engine thread).
struct BatchRunner::State {
  BatchOptions opt;
  SubmitFn submit;
  JournalWriter* out;
  const JournalScan* resume;
  Clock::time_point start = Clock::now();

  std::mutex mu;
  std::condition_variable writer_cv;  // queued input, input end, results (--fsync), the end
  std::condition_variable reader_cv;  // the read-ahead queue has room again
  std::vector<Done> completed;        // guarded by mu
  std::deque<Pending> pending;        // guarded by mu
  size_t pending_bytes = 0;           // guarded by mu
  bool reader_waiting = false;        // guarded by mu
  bool input_done = false;            // the reader has stopped; guarded by mu
  bool cancelled = false;             // the second interrupt cancelled calls; guarded by mu
  bool dropped = false;               // records read but never started; guarded by mu
  Status io_error;                    // guarded by mu

  // Owned by the running pump (`pumping`, guarded by mu): read or written only by the thread
  // that set it, or by any thread holding mu while no pump runs.
  bool pumping = false;    // guarded by mu
  uint64_t in_flight = 0;  // started, result not yet taken
  uint64_t started = 0;
  BatchCounts run;
  ReorderBuffer reorder{1};
  Status write_status;
  std::vector<Done> round_done;  // the pump's current round
  std::vector<Pending> round_start;
  OutputLines round_lines;

  int Interrupts() const { return opt.interrupts ? opt.interrupts->load() : 0; }

  // Engine threads: hand a result over, and run the pump unless one is running. With
  // --fsync every journal write waits for the disk, which must not stall an engine thread:
  // the writer thread pumps then.
  void Deliver(uint64_t index, const Json& id, uint64_t line_no, pipeline::StructureResult r) {
    Done d{index, {"", LineTally::Of(r)}};
    d.line.text = FormatResultLine(id, line_no, std::move(r));
    std::unique_lock<std::mutex> lock(mu);
    bool first = completed.empty();
    completed.push_back(std::move(d));
    if (!out->syncs()) {
      if (!pumping) Pump(lock);
    } else if (first) {
      lock.unlock();
      writer_cv.notify_one();
    }
  }

  // Reader thread: queues a parsed record; false when the job stops taking input.
  bool Enqueue(Pending p) {
    std::unique_lock<std::mutex> lock(mu);
    for (;;) {
      if (Interrupts() > 0 || !io_error.ok()) return false;
      if (pending.size() < kReadAhead && pending_bytes < kReadAheadBytes) break;
      reader_waiting = true;
      reader_cv.wait_for(lock, kPoll);
      reader_waiting = false;
    }
    bool wake = pending.empty();  // a non-empty queue waits for slots, not for the pump
    pending_bytes += p.bytes;
    pending.push_back(std::move(p));
    lock.unlock();
    if (wake) writer_cv.notify_one();
    return true;
  }

  void InputDone() {
    {
      std::lock_guard<std::mutex> lock(mu);
      input_done = true;
    }
    writer_cv.notify_one();
  }

  // The progress line (mu held, no pump running).
  std::string ProgressText() const {
    BatchCounts done = resume ? resume->counts : BatchCounts{};
    done.Merge(run);
    double elapsed = Seconds(Clock::now() - start);
    double rate = elapsed > 0 ? static_cast<double>(run.total()) / elapsed : 0;
    return "\r\033[K" + FormatProgress(done, in_flight, rate, opt.total);
  }

  // Takes the records that may start now (mu held): a free slot each and, when ordered,
  // within the window. After an interrupt or an I/O error nothing starts and the queue is
  // dropped (those records were never started; a resume runs them).
  std::vector<Pending> TakeStartable(const ReorderBuffer& reorder, bool stop_starting) {
    std::vector<Pending> take;
    if (stop_starting) {
      if (!pending.empty()) dropped = true;
      pending.clear();
      pending_bytes = 0;
    }
    while (!pending.empty() && in_flight + take.size() < opt.concurrency &&
           (!opt.ordered || reorder.CanAdmit(pending.front().index))) {
      pending_bytes -= pending.front().bytes;
      take.push_back(std::move(pending.front()));
      pending.pop_front();
    }
    return take;
  }

  void Start(std::vector<Pending>& take, std::vector<Done>& bad) {
    for (Pending& p : take) {
      ++started;
      BatchLine& line = p.line;
      if (!line.request) {  // finished at once: journaled with this wake-up's results
        pipeline::StructureResult r = BadLineResult(line.error);
        LineTally tally = LineTally::Of(r);
        bad.push_back({p.index, {FormatResultLine(line.id, line.line_no, std::move(r)), tally}});
        continue;
      }
      ++in_flight;
      State* state = this;
      submit(std::move(*line.request), [state, index = p.index, id = std::move(line.id),
                                        line_no = line.line_no](pipeline::StructureResult r) {
        state->Deliver(index, id, line_no, std::move(r));
      });
    }
  }

  bool StopStarting() const { return Interrupts() > 0 || !io_error.ok(); }

  // Something for the pump (mu held, no pump running).
  bool HasWork() const {
    bool can_start = !pending.empty() && in_flight < opt.concurrency &&
                     (!opt.ordered || reorder.CanAdmit(pending.front().index));
    return !completed.empty() || can_start || (StopStarting() && !pending.empty());
  }

  // Every started record is journaled and none will start (mu held, no pump running).
  bool Finished() const {
    return in_flight == 0 && completed.empty() &&
           ((input_done && pending.empty()) || StopStarting());
  }

  // Journals finished records and starts queued ones until neither is left. Called with
  // `lock` held and no pump running; returns with it held.
  void Pump(std::unique_lock<std::mutex>& lock) {
    pumping = true;
    for (;;) {
      round_done.swap(completed);
      in_flight -= round_done.size();
      if (!write_status.ok() && io_error.ok()) io_error = write_status;
      round_start = TakeStartable(reorder, StopStarting());
      if (reader_waiting && pending.size() <= kReadAhead / 2) reader_cv.notify_one();
      if (round_done.empty() && round_start.empty()) break;
      lock.unlock();
      Start(round_start, round_done);  // unlocked: a submit that answers at once queues it
      round_start.clear();
      for (Done& d : round_done) {
        if (opt.ordered) {
          reorder.Put(d.index, std::move(d.line));
        } else {
          round_lines.Add(std::move(d.line));
        }
      }
      if (opt.ordered) reorder.TakeReady(&round_lines);
      // One write per round: results that completed together are journaled together, and
      // counted once they are in OUT (after a failed write, no more are).
      if (write_status.ok() && !round_lines.empty()) {
        write_status = round_lines.WriteTo(*out, run);
      } else {
        round_lines.Clear();
      }
      round_done.clear();
      lock.lock();
    }
    pumping = false;
    if (Finished()) writer_cv.notify_one();
  }

  void WriterLoop() {
    auto last_draw = Clock::now();
    std::unique_lock<std::mutex> lock(mu);
    for (;;) {
      writer_cv.wait_for(lock, kPoll, [&] { return !pumping && (HasWork() || Finished()); });
      if (pumping) continue;  // an engine thread is at it; look again when it is done
      Pump(lock);
      if (Finished()) break;
      if (!cancelled && Interrupts() >= 2 && opt.cancel && in_flight > 0) {
        cancelled = true;  // those records did not run: the job is interrupted, input read or not
        lock.unlock();
        opt.cancel();  // blocks until every in-flight call has been answered (and pumped)
        lock.lock();
        continue;
      }
      if (opt.progress && Clock::now() - last_draw >= kRedraw) {
        last_draw = Clock::now();
        std::string text = ProgressText();
        lock.unlock();
        std::fputs(text.c_str(), stderr);
        std::fflush(stderr);
        lock.lock();
      }
    }
    if (!write_status.ok() && io_error.ok()) io_error = write_status;
  }
};

BatchRunner::BatchRunner(BatchOptions options, SubmitFn submit, JournalWriter* out,
                         const JournalScan* resume)
    : state_(std::make_unique<State>()) {
  state_->opt = std::move(options);
  if (state_->opt.concurrency == 0) state_->opt.concurrency = 1;
  if (state_->opt.reorder_window == 0) state_->opt.reorder_window = 4 * state_->opt.concurrency;
  state_->reorder = ReorderBuffer(state_->opt.reorder_window);
  state_->submit = std::move(submit);
  state_->out = out;
  state_->resume = resume;
}

BatchRunner::~BatchRunner() = default;

namespace {

// The input's records, one at a time: lines parsed with the job's defaults, in this shard,
// duplicate ids turned into bad lines, records the journal has skipped.
class RecordReader {
 public:
  RecordReader(std::FILE* in, const BatchOptions& opt, const JournalScan* resume)
      : reader_(in, kMaxLineBytes), opt_(opt), resume_(resume) {}

  // The next record to run, or nullopt at the end of the input, on an interrupt (`stop`
  // returns true when a signal woke a blocking read) or a read error (`error` set).
  std::optional<Pending> Next(const std::function<bool()>& stop, Status& error,
                              uint64_t& resumed_seen) {
    for (;;) {
      LineReader::Got got = reader_.Next();
      if (got == LineReader::Got::kInterrupted) {
        if (!stop()) continue;
        stopped_ = true;
        return std::nullopt;
      }
      if (got == LineReader::Got::kError)
        error = Unavailable(std::string("cannot read the input: ") + std::strerror(errno));
      if (got == LineReader::Got::kError || got == LineReader::Got::kEnd) return std::nullopt;
      uint64_t line_no = reader_.line_no();
      BatchLine line;
      if (got == LineReader::Got::kTooLong) {
        line = LineTooLong(line_no, reader_.max_line_bytes());
      } else if (IsBlankLine(reader_.line())) {
        continue;
      } else {
        line = ParseBatchLine(reader_.line(), line_no, opt_.defaults);
      }
      // Decided before the duplicate check rewrites the key, so a repeated id stays in the
      // shard of its first use.
      if (opt_.shard.count > 1 &&
          ShardOf(ShardKey(line.id, line_no), opt_.shard.count) != opt_.shard.index) {
        continue;
      }
      RefuseRepeatedId(line);
      if (resume_ && resume_->done.count(line.key) > 0) {
        ++resumed_seen;
        continue;
      }
      return Pending{next_index_++, std::move(line), reader_.bytes()};
    }
  }

  // The last Next returned nullopt because of `stop`.
  bool stopped() const { return stopped_; }

 private:
  void RefuseRepeatedId(BatchLine& line) {
    if (line.id.is_null()) return;
    auto [it, inserted] = seen_.emplace(line.key, line.line_no);
    if (inserted) return;
    line.error = InvalidArgument("line " + std::to_string(line.line_no) + ": id " + line.key +
                                 " is already used on line " + std::to_string(it->second));
    line.request.reset();
    line.id = Json();
    line.key = KeyForLine(line.line_no);
  }

  LineReader reader_;
  const BatchOptions& opt_;
  const JournalScan* resume_;
  std::unordered_map<std::string, uint64_t> seen_;  // id key -> first line
  uint64_t next_index_ = 0;
  bool stopped_ = false;
};

}  // namespace

BatchReport BatchRunner::Run(std::FILE* in) {
  State& s = *state_;
  s.start = Clock::now();
  BatchReport report;
  if (s.resume) report.resumed = s.resume->counts;
  // The second interrupt also stops a write that a FIFO's or pipe's reader is not taking.
  s.out->StopWhen([&s] { return s.Interrupts() > 1; });
  std::thread writer([&s] {
    sigset_t stops;  // interrupts belong to the reading thread (it may block on stdin)
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stops, nullptr);
    s.WriterLoop();
  });
  Status read_error;
  RecordReader records(in, s.opt, s.resume);
  auto stop = [&s] { return s.Interrupts() > 0; };
  for (;;) {
    if (stop()) {
      report.interrupted = true;
      break;
    }
    std::optional<Pending> next = records.Next(stop, read_error, report.resumed_seen);
    if (!next) {
      report.interrupted = records.stopped();
      break;
    }
    if (!s.Enqueue(std::move(*next))) {
      report.interrupted = true;
      break;
    }
  }
  s.InputDone();
  writer.join();
  s.out->StopWhen({});
  if (s.opt.progress) {
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
  }
  report.run = s.run;
  report.started = s.started;
  report.elapsed_s = Seconds(Clock::now() - s.start);
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.dropped || s.cancelled) report.interrupted = true;
  report.io_error = s.io_error.ok() ? read_error : s.io_error;
  if (!report.io_error.ok()) report.interrupted = true;
  return report;
}

}  // namespace structure::batch
