// The answer to one stream: true request. While the structure call runs nothing is sent; if it
// runs longer than the keep-alive interval the event stream starts (200, text/event-stream) with
// a keep-alive comment, repeated each interval, so proxies keep the connection. The result then
// goes out as the completion's events, or an error event. A call that finishes before the first
// keep-alive is answered whole, so its errors keep their HTTP status (429, 5xx) and the SDKs
// retry them. Thread-safe: the timer and the result may arrive on any thread.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "http/body_stream.h"
#include "http/http_server.h"
#include "pipeline/result.h"
#include "server/openai/chat_reply.h"

namespace structure::server::openai {

class StreamedAnswer : public std::enable_shared_from_this<StreamedAnswer> {
 public:
  using Timer = std::function<void(std::chrono::milliseconds, std::function<void()>)>;

  // The events of a result: CompletionEvents (chat.completion.chunk) or ResponseEvents.
  using EventsOf = std::string (*)(pipeline::StructureResult, const ReplyContext&);

  StreamedAnswer(http::Responder respond, ReplyContext context, std::string schema_param,
                 EventsOf events = CompletionEvents)
      : respond_(std::move(respond)),
        context_(std::move(context)),
        schema_param_(std::move(schema_param)),
        events_(events) {}

  // Arms the keep-alive timer (none without a timer).
  void Start(Timer timer, std::chrono::milliseconds interval);
  // The call's result: answered whole, or as the last events of the stream under way.
  void Finish(pipeline::StructureResult result);

 private:
  void Tick();

  std::mutex mu_;
  http::Responder respond_;
  ReplyContext context_;
  std::string schema_param_;
  EventsOf events_;
  Timer timer_;
  std::chrono::milliseconds interval_{0};
  std::shared_ptr<http::BodyStream> stream_;  // set once the event stream has started
  bool done_ = false;
};

// The headers of an event stream, with `body` as its first bytes.
http::HttpResponse EventStreamResponse(std::string body);

}  // namespace structure::server::openai
