#include "sim/sim_server.h"

namespace structure::sim {

Result<std::unique_ptr<SimServer>> SimServer::Start(SimOptions options,
                                                    const http::ServerOptions& server_options) {
  std::unique_ptr<SimServer> s(new SimServer());
  s->simulator_ = std::make_unique<Simulator>(std::move(options));
  Simulator* sim = s->simulator_.get();
  // The handler needs the server (for timers), which exists only after Create: hand it over
  // through a slot filled before Run starts.
  auto slot = std::make_shared<http::HttpServer*>(nullptr);
  auto created = http::HttpServer::Create(
      server_options, [sim, slot](http::HttpRequest request, http::Responder respond) {
        http::HttpServer* server = *slot;
        sim->Handle(std::move(request), std::move(respond),
                    [server](std::chrono::milliseconds delay, std::function<void()> fn) {
                      server->After(delay, std::move(fn));
                    });
      });
  if (!created.ok()) return created.status();
  s->server_ = std::move(*created);
  *slot = s->server_.get();
  http::HttpServer* server = s->server_.get();
  sim->set_connection_counter([server] { return server->open_connections(); });
  s->thread_ = std::thread([server] { server->Run(); });
  return s;
}

void SimServer::Stop() {
  if (!thread_.joinable()) return;
  server_->Stop();
  thread_.join();
}

SimServer::~SimServer() { Stop(); }

}  // namespace structure::sim
