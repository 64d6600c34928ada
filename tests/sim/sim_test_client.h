// A tiny blocking HTTP client for the simulator tests (libcurl easy), plus helpers to start a
// simulator in-process on a free port and to read test data.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/json.h"
#include "sim/sim_server.h"

namespace structure::sim::testing {

struct HttpReply {
  long status = 0;  // 0 when the transfer failed (reset, refused)
  std::string body;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string error;                           // curl's error text when status == 0
  Json json;                                   // parsed body (null when it is not JSON)
};

HttpReply Send(uint16_t port, const std::string& method, const std::string& path,
               const std::vector<std::string>& headers, const std::string& body);

inline HttpReply Post(uint16_t port, const std::string& path,
                      const std::vector<std::string>& headers, const std::string& body) {
  return Send(port, "POST", path, headers, body);
}
inline HttpReply Get(uint16_t port, const std::string& path) {
  return Send(port, "GET", path, {}, "");
}

// Starts a simulator on 127.0.0.1:0 (aborts the test binary on failure).
std::unique_ptr<SimServer> StartSim(SimOptions options = {});

// tests/data/sim/<name> as text / parsed JSON.
std::string ReadTestData(const std::string& name);
Json TestJson(const std::string& name);

// The default auth headers of each provider.
std::vector<std::string> OpenAiHeaders();
std::vector<std::string> AnthropicHeaders();
std::vector<std::string> GeminiHeaders();

}  // namespace structure::sim::testing
