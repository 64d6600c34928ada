#include "providers/admission/shared_admission.h"

#include <algorithm>

namespace structure::providers {

bool SharedAdmission::CanAsk(TimePoint now) const {
  return active_ && !asking_ && (!retry_at_ || now >= *retry_at_);
}

int64_t SharedAdmission::StartAsk(std::vector<std::pair<uint64_t, int64_t>> asked) {
  asking_ = true;
  asked_ = std::move(asked);
  retry_at_.reset();
  int64_t refund = refund_;
  refund_ = 0;
  return refund;
}

SharedAdmission::Answer SharedAdmission::OnGrant(const SharedGrant& grant, TimePoint now) {
  Answer a;
  size_t n = std::min(grant.granted, asked_.size());
  a.go.assign(asked_.begin(), asked_.begin() + static_cast<std::ptrdiff_t>(n));
  a.back.assign(asked_.begin() + static_cast<std::ptrdiff_t>(n), asked_.end());
  // A wait also comes with a pause, when nothing at all was asked for.
  if (!a.back.empty() || grant.wait > Duration::zero()) {
    // Bounded, so a bad reply (or a clock step on the server) cannot stall the pool for long.
    retry_at_ = now + std::min<Duration>(grant.wait, std::chrono::seconds(60));
  }
  asked_.clear();
  asking_ = false;
  return a;
}

SharedAdmission::Answer SharedAdmission::OnStoreDown() {
  Answer a;
  a.back = std::move(asked_);
  asked_.clear();
  asking_ = false;
  active_ = false;
  refund_ = 0;
  retry_at_.reset();
  return a;
}

void SharedAdmission::OnStoreUp() {
  active_ = true;
  retry_at_.reset();
}

}  // namespace structure::providers
