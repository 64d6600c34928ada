#include "sim/rate_limiter.h"

#include <algorithm>

namespace structure::sim {

RateLimiter::RateLimiter(int64_t rpm, int64_t tpm)
    : rpm_(rpm),
      tpm_(tpm),
      requests_(static_cast<double>(rpm)),
      tokens_(static_cast<double>(tpm)),
      last_(Clock::now()) {}

void RateLimiter::Refill(Clock::time_point now) {
  double dt = std::chrono::duration<double>(now - last_).count();
  if (dt <= 0) return;
  last_ = now;
  requests_ = std::min<double>(static_cast<double>(rpm_),
                               requests_ + dt * static_cast<double>(rpm_) / 60.0);
  tokens_ =
      std::min<double>(static_cast<double>(tpm_), tokens_ + dt * static_cast<double>(tpm_) / 60.0);
}

bool RateLimiter::Admit(int64_t tokens, Clock::time_point now, LimitSnapshot* s) {
  Refill(now);
  bool req_ok = rpm_ <= 0 || requests_ >= 1.0;
  // A request larger than the whole bucket can never fit; it is refused like the providers do.
  bool tok_ok = tpm_ <= 0 || tokens_ >= static_cast<double>(tokens);
  bool ok = req_ok && tok_ok;
  if (ok) {
    if (rpm_ > 0) requests_ -= 1.0;
    if (tpm_ > 0) tokens_ -= static_cast<double>(tokens);
  }
  *s = LimitSnapshot{};
  if (rpm_ > 0) {
    s->requests_limit = rpm_;
    s->requests_remaining = static_cast<int64_t>(std::max(0.0, requests_));
    s->requests_reset_s =
        (static_cast<double>(rpm_) - requests_) * 60.0 / static_cast<double>(rpm_);
  }
  if (tpm_ > 0) {
    s->tokens_limit = tpm_;
    s->tokens_remaining = static_cast<int64_t>(std::max(0.0, tokens_));
    s->tokens_reset_s = (static_cast<double>(tpm_) - tokens_) * 60.0 / static_cast<double>(tpm_);
  }
  if (!ok) {
    double wait_req = req_ok ? 0 : (1.0 - requests_) * 60.0 / static_cast<double>(rpm_);
    double need = std::min<double>(static_cast<double>(tokens), static_cast<double>(tpm_));
    double wait_tok = tok_ok ? 0 : (need - tokens_) * 60.0 / static_cast<double>(tpm_);
    s->retry_after_s = std::max({wait_req, wait_tok, 0.001});
    s->tokens_exceeded = !tok_ok && wait_tok >= wait_req;
  }
  return ok;
}

}  // namespace structure::sim
