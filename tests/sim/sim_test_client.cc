#include "tests/sim/sim_test_client.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>

#include <curl/curl.h>

#include "base/read_file.h"

namespace structure::sim::testing {
namespace {

size_t OnBody(char* data, size_t size, size_t n, void* user) {
  static_cast<std::string*>(user)->append(data, size * n);
  return size * n;
}

size_t OnHeader(char* data, size_t size, size_t n, void* user) {
  auto* headers = static_cast<std::map<std::string, std::string>*>(user);
  std::string line(data, size * n);
  size_t colon = line.find(':');
  if (colon != std::string::npos) {
    std::string name = line.substr(0, colon);
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ')) value.erase(0, 1);
    while (!value.empty() && (value.back() == '\r' || value.back() == '\n')) value.pop_back();
    (*headers)[name] = value;
  }
  return size * n;
}

}  // namespace

HttpReply Send(uint16_t port, const std::string& method, const std::string& path,
               const std::vector<std::string>& headers, const std::string& body) {
  HttpReply reply;
  CURL* curl = curl_easy_init();
  std::string url = "http://127.0.0.1:" + std::to_string(port) + path;
  curl_slist* list = nullptr;
  list = curl_slist_append(list, "Content-Type: application/json");
  list = curl_slist_append(list, "Expect:");
  for (const auto& h : headers) list = curl_slist_append(list, h.c_str());
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, 20L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, OnBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &reply.body);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, OnHeader);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &reply.headers);
  if (method == "POST") {
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.c_str());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
  } else if (method != "GET") {
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method.c_str());
  }
  CURLcode rc = curl_easy_perform(curl);
  if (rc == CURLE_OK) {
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &reply.status);
    auto parsed = ParseJson(reply.body);
    if (parsed.ok()) reply.json = std::move(*parsed);
  } else {
    reply.error = curl_easy_strerror(rc);
  }
  curl_slist_free_all(list);
  curl_easy_cleanup(curl);
  return reply;
}

std::unique_ptr<SimServer> StartSim(SimOptions options) {
  http::ServerOptions server;
  server.port = 0;
  server.stop_grace = std::chrono::milliseconds(200);
  auto s = SimServer::Start(std::move(options), server);
  if (!s.ok()) {
    std::fprintf(stderr, "cannot start simulator: %s\n", s.status().ToString().c_str());
    std::abort();
  }
  return std::move(*s);
}

std::string ReadTestData(const std::string& name) {
  auto text = ReadFile(std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/sim/" + name);
  if (!text.ok()) {
    std::fprintf(stderr, "missing test data %s\n", name.c_str());
    std::abort();
  }
  return *text;
}

Json TestJson(const std::string& name) {
  auto parsed = ParseJson(ReadTestData(name));
  if (!parsed.ok()) {
    std::fprintf(stderr, "bad test data %s: %s\n", name.c_str(), parsed.status().message().c_str());
    std::abort();
  }
  return *parsed;
}

std::vector<std::string> OpenAiHeaders() { return {"Authorization: Bearer sk-test-key"}; }
std::vector<std::string> AnthropicHeaders() {
  return {"x-api-key: sk-ant-test", "anthropic-version: 2023-06-01"};
}
std::vector<std::string> GeminiHeaders() { return {"x-goog-api-key: AIza-test"}; }

}  // namespace structure::sim::testing
