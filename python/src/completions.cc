#include "completions.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>

namespace structure_py {

Completions::~Completions() {
  if (event_fd_ >= 0) ::close(event_fd_);
}

void Completions::Push(Completion c) {
  std::lock_guard<std::mutex> lock(mu_);
  done_.push_back(std::move(c));
  if (event_fd_ >= 0) {
    uint64_t one = 1;
    // A full counter (never, at 2^64 - 1) or EAGAIN still leaves the fd readable.
    [[maybe_unused]] ssize_t n = ::write(event_fd_, &one, sizeof one);
  }
  ready_.notify_one();
}

std::vector<Completion> Completions::Take(size_t max, int timeout_ms) {
  std::unique_lock<std::mutex> lock(mu_);
  if (done_.empty() && timeout_ms > 0) {
    ready_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [this] { return !done_.empty(); });
  }
  std::vector<Completion> out;
  size_t n = std::min(max, done_.size());
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    out.push_back(std::move(done_.front()));
    done_.pop_front();
  }
  if (event_fd_ >= 0 && done_.empty()) {
    uint64_t count = 0;
    [[maybe_unused]] ssize_t r = ::read(event_fd_, &count, sizeof count);
  }
  return out;
}

int Completions::EventFd() {
  std::lock_guard<std::mutex> lock(mu_);
  if (event_fd_ < 0) {
    event_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (event_fd_ < 0) throw std::runtime_error(std::string("eventfd: ") + std::strerror(errno));
    if (!done_.empty()) {
      uint64_t one = 1;
      [[maybe_unused]] ssize_t n = ::write(event_fd_, &one, sizeof one);
    }
  }
  return event_fd_;
}

}  // namespace structure_py
