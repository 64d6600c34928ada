#include "server/openai/streamed_answer.h"

namespace structure::server::openai {

http::HttpResponse EventStreamResponse(std::string body) {
  http::HttpResponse r;
  r.status = 200;
  r.SetHeader("Content-Type", "text/event-stream; charset=utf-8");
  r.SetHeader("Cache-Control", "no-cache");
  r.SetHeader("X-Accel-Buffering", "no");  // nginx: pass events on at once
  r.body = std::move(body);
  return r;
}

void StreamedAnswer::Start(Timer timer, std::chrono::milliseconds interval) {
  if (!timer) return;
  std::lock_guard<std::mutex> lock(mu_);
  timer_ = std::move(timer);
  interval_ = interval;
  timer_(interval_, [self = shared_from_this()] { self->Tick(); });
}

void StreamedAnswer::Tick() {
  std::lock_guard<std::mutex> lock(mu_);
  if (done_) return;
  if (!stream_) {
    stream_ = std::make_shared<http::BodyStream>();
    http::HttpResponse r = EventStreamResponse(kKeepAlive);
    r.stream = stream_;
    respond_(std::move(r));
  } else if (!stream_->Send(kKeepAlive)) {
    return;  // the client is gone: no more keep-alives
  }
  timer_(interval_, [self = shared_from_this()] { self->Tick(); });
}

void StreamedAnswer::Finish(pipeline::StructureResult result) {
  std::lock_guard<std::mutex> lock(mu_);
  if (done_) return;
  done_ = true;
  std::optional<ApiError> error = ResultError(result, context_, schema_param_);
  if (!stream_) {
    respond_(error ? ErrorResponse(*error)
                   : EventStreamResponse(events_(std::move(result), context_)));
    return;
  }
  stream_->Send(error ? ErrorEvent(*error) : events_(std::move(result), context_));
  stream_->Finish();
}

}  // namespace structure::server::openai
