#include "actors/check_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

#include "actors/check_process.h"

namespace structure::actors {
namespace {

using Clock = std::chrono::steady_clock;

struct Job {
  CheckCommand command;
  std::string answer;
  std::string prompt;
  std::function<void(CheckVerdict)> done;
};

struct Running {
  Job job;
  CheckChild child;
  size_t written = 0;
  std::string out;
  std::string err;
  bool too_much = false;
  bool timed_out = false;
  bool exited = false;
  int status = 0;
  Clock::time_point deadline;
};

void CloseFd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

// Reads what is there; false at end of file or on an error (the fd is then closed).
bool Drain(int& fd, std::string& into, size_t keep, bool* over) {
  char buf[16384];
  while (fd >= 0) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0) {
      size_t room = into.size() < keep ? keep - into.size() : 0;
      into.append(buf, std::min(room, static_cast<size_t>(n)));
      if (over != nullptr && static_cast<size_t>(n) > room) *over = true;
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return true;
    CloseFd(fd);
    return false;
  }
  return false;
}

}  // namespace

struct CheckRunner::Impl {
  Options options;
  std::mutex mu;
  std::deque<Job> queued;
  bool stopping = false;
  int wake = -1;
  std::thread thread;
  std::vector<std::unique_ptr<Running>> running;  // the thread's own

  void Wake() {
    uint64_t one = 1;
    [[maybe_unused]] ssize_t n = write(wake, &one, sizeof one);
  }

  void Start(Job job) {
    auto r = std::make_unique<Running>();
    r->job = std::move(job);
    auto child = SpawnCheck(r->job.command.command, r->job.prompt);
    if (!child.ok()) {
      r->job.done(child.status());
      return;
    }
    r->child = std::move(*child);
    r->deadline = Clock::now() + std::chrono::milliseconds(std::max(1, r->job.command.timeout_ms));
    if (r->job.answer.empty()) CloseFd(r->child.in);
    running.push_back(std::move(r));
  }

  void Feed(Running& r) {
    while (r.child.in >= 0 && r.written < r.job.answer.size()) {
      ssize_t n = send(r.child.in, r.job.answer.data() + r.written, r.job.answer.size() - r.written,
                       MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n > 0) {
        r.written += static_cast<size_t>(n);
      } else if (n < 0 && errno == EAGAIN) {
        return;
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else {
        CloseFd(r.child.in);  // the check does not read its stdin: fine
      }
    }
    CloseFd(r.child.in);  // all written: end of file
  }

  // Ends a check: kills what is left of its process group, reaps it, answers.
  void Finish(Running& r) {
    if (!r.exited) {
      kill(-r.child.pid, SIGKILL);
      int status = 0;
      while (waitpid(r.child.pid, &status, 0) < 0 && errno == EINTR) {
      }
      r.status = status;
    } else {
      kill(-r.child.pid, SIGKILL);  // stragglers of the group
    }
    Drain(r.child.out, r.out, options.max_output_bytes, &r.too_much);
    Drain(r.child.err, r.err, 4096, nullptr);
    CloseFd(r.child.in);
    CloseFd(r.child.out);
    CloseFd(r.child.err);
    CloseFd(r.child.pidfd);
    CheckVerdict verdict =
        r.too_much ? CheckVerdict(Status(Code::kFailedPrecondition,
                                         "check command printed more than " +
                                             std::to_string(options.max_output_bytes) + " bytes"))
                   : VerdictOf(r.status, r.timed_out, r.job.command.timeout_ms, r.out, r.err);
    RemovePromptFile(r.child);
    r.job.done(std::move(verdict));
  }

  void Loop() {
    while (true) {
      std::vector<Job> starting;
      {
        std::lock_guard<std::mutex> lock(mu);
        if (stopping) break;
        while (!queued.empty() && running.size() + starting.size() < options.max_running) {
          starting.push_back(std::move(queued.front()));
          queued.pop_front();
        }
      }
      for (Job& j : starting) Start(std::move(j));

      std::vector<pollfd> fds{{wake, POLLIN, 0}};
      int timeout_ms = -1;
      Clock::time_point now = Clock::now();
      for (auto& r : running) {
        if (r->child.in >= 0) fds.push_back({r->child.in, POLLOUT, 0});
        if (r->child.out >= 0) fds.push_back({r->child.out, POLLIN, 0});
        if (r->child.err >= 0) fds.push_back({r->child.err, POLLIN, 0});
        if (r->child.pidfd >= 0) fds.push_back({r->child.pidfd, POLLIN, 0});
        auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(r->deadline - now).count();
        int wait = static_cast<int>(std::max<int64_t>(0, left) + 1);
        if (r->child.pidfd < 0) wait = std::min(wait, 20);  // no pidfd: look for the exit
        timeout_ms = timeout_ms < 0 ? wait : std::min(timeout_ms, wait);
      }
      int n = poll(fds.data(), fds.size(), timeout_ms);
      if (n < 0 && errno != EINTR) break;
      if (fds[0].revents & POLLIN) {
        uint64_t v;
        [[maybe_unused]] ssize_t got = read(wake, &v, sizeof v);
      }
      now = Clock::now();
      for (size_t i = 0; i < running.size();) {
        Running& r = *running[i];
        Feed(r);
        Drain(r.child.out, r.out, options.max_output_bytes, &r.too_much);
        Drain(r.child.err, r.err, 4096, nullptr);
        if (!r.exited) {
          int status = 0;
          pid_t p = waitpid(r.child.pid, &status, WNOHANG);
          if (p == r.child.pid) {
            r.exited = true;
            r.status = status;
          }
        }
        // An exited check's output is all in its pipes by now (Finish drains them).
        bool done = r.too_much || r.exited;
        if (!done && now >= r.deadline) {
          r.timed_out = true;
          done = true;
        }
        if (done) {
          Finish(r);
          running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
        } else {
          ++i;
        }
      }
    }
    // Stopping: nothing more runs.
    for (auto& r : running) {
      r->exited = false;
      kill(-r->child.pid, SIGKILL);
      int status = 0;
      while (waitpid(r->child.pid, &status, 0) < 0 && errno == EINTR) {
      }
      CloseFd(r->child.in);
      CloseFd(r->child.out);
      CloseFd(r->child.err);
      CloseFd(r->child.pidfd);
      RemovePromptFile(r->child);
      r->job.done(Status(Code::kCancelled, "the engine stopped before the check finished"));
    }
    running.clear();
  }
};

CheckRunner::CheckRunner() : CheckRunner(Options{}) {}

CheckRunner::CheckRunner(Options options) : impl_(std::make_unique<Impl>()) {
  impl_->options = options;
  impl_->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  impl_->thread = std::thread([impl = impl_.get()] { impl->Loop(); });
}

CheckRunner::~CheckRunner() { Stop(); }

void CheckRunner::Run(const CheckCommand& command, std::string answer, std::string prompt,
                      std::function<void(CheckVerdict)> done) {
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    if (!impl_->stopping) {
      impl_->queued.push_back(Job{command, std::move(answer), std::move(prompt), std::move(done)});
      impl_->Wake();
      return;
    }
  }
  done(Status(Code::kCancelled, "the engine stopped before the check started"));
}

void CheckRunner::Stop() {
  std::deque<Job> dropped;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    if (impl_->stopping) return;
    impl_->stopping = true;
    dropped.swap(impl_->queued);
    impl_->Wake();
  }
  if (impl_->thread.joinable()) impl_->thread.join();
  for (Job& j : dropped)
    j.done(Status(Code::kCancelled, "the engine stopped before the check started"));
  CloseFd(impl_->wake);
}

}  // namespace structure::actors
