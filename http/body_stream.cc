#include "http/body_stream.h"

#include <utility>

namespace structure::http {

bool BodyStream::Send(std::string piece) {
  std::function<void()> wake;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_ || finished_) return false;
    if (pending_.size() + piece.size() > max_pending_) {
      closed_ = true;
      pending_.clear();
      wake = std::move(wake_);
    } else {
      pending_ += piece;
      wake = std::move(wake_);
    }
    wake_ = nullptr;
  }
  if (wake) wake();
  std::lock_guard<std::mutex> lock(mu_);
  return !closed_;
}

void BodyStream::Finish() {
  std::function<void()> wake;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (finished_) return;
    finished_ = true;
    wake = std::move(wake_);
    wake_ = nullptr;
  }
  if (wake) wake();
}

bool BodyStream::closed() const {
  std::lock_guard<std::mutex> lock(mu_);
  return closed_;
}

std::string BodyStream::Take(bool* finished) {
  std::lock_guard<std::mutex> lock(mu_);
  *finished = finished_;
  return std::exchange(pending_, std::string());
}

bool BodyStream::WaitForMore(std::function<void()> wake) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!pending_.empty() || finished_ || closed_) return false;
  wake_ = std::move(wake);
  return true;
}

void BodyStream::Close() {
  std::function<void()> wake;
  {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    pending_.clear();
    wake = std::move(wake_);
    wake_ = nullptr;
  }
  // The wake holds the connection; dropping it here (outside the lock) may end it.
  (void)wake;
}

}  // namespace structure::http
