// SimServer: a Simulator served over HTTP on loopback, on its own event-loop thread. Used by
// `structure sim` and by tests that start the simulator in-process on port 0.
#pragma once

#include <memory>
#include <thread>

#include "http/http_server.h"
#include "sim/simulator.h"

namespace structure::sim {

class SimServer {
 public:
  // Binds (port 0 picks a free one) and starts serving on a background thread.
  // Errors: those of HttpServer::Create.
  static Result<std::unique_ptr<SimServer>> Start(SimOptions options,
                                                  const http::ServerOptions& server);
  // Stops gracefully and joins the thread.
  ~SimServer();

  uint16_t port() const { return server_->port(); }
  Simulator& simulator() { return *simulator_; }

  // Graceful stop (see HttpServer::Stop); returns when the event loop has exited. Idempotent.
  void Stop();

 private:
  SimServer() = default;
  std::unique_ptr<Simulator> simulator_;
  std::unique_ptr<http::HttpServer> server_;
  std::thread thread_;
};

}  // namespace structure::sim
