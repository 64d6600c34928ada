// A real TLS front for tests and benchmarks: nginx (Debian package) as a TLS 1.3 terminator in
// front of a plain HTTP upstream (`structure sim`), with a certificate made at start by the
// openssl command line under a CA of its own. Three loopback ports on free numbers: TLS with
// HTTP/2 or HTTP/1.1 (ALPN), TLS with HTTP/1.1 only, and plain HTTP/1.1. Its access log records per
// request the connection serial, the requests on that connection so far and whether the TLS session
// was resumed, so a test counts connections and handshakes. Paths under /reset/ are answered with
// nginx's 444, which resets the HTTP/2 stream (or closes an HTTP/1.1 connection) unanswered.
// Everything lives in a temporary directory (config, keys, pid file, logs), removed on destruction;
// nginx is stopped then too.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/child_process.h"
#include "tests/support/local_server.h"

namespace structure::testing {

// A CA and a server certificate for localhost and 127.0.0.1 signed by it (ECDSA P-256, as
// most hosted providers serve), written to `dir`: ca.pem, ca.key, server.pem, server.key.
// `name` prefixes the files so one directory can hold several CAs ("other" for a wrong CA).
inline bool MakeCertificates(const std::string& dir, const std::string& name, std::string* error) {
  std::string p = dir + "/" + name;
  std::string curve = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes";
  std::ofstream(p + "-ext.cnf") << "subjectAltName=DNS:localhost,IP:127.0.0.1\n"
                                << "basicConstraints=CA:FALSE\n"
                                << "extendedKeyUsage=serverAuth\n";
  std::string quiet = " >/dev/null 2>>'" + p + "-openssl.log'";
  bool ok = Shell("openssl req -x509 " + curve + " -keyout '" + p + "-ca.key' -out '" + p +
                  "-ca.pem' -days 3 -subj '/CN=structure test CA " + name + "'" + quiet) &&
            Shell("openssl req " + curve + " -keyout '" + p + "-server.key' -out '" + p +
                  "-server.csr' -subj /CN=localhost" + quiet) &&
            Shell("openssl x509 -req -in '" + p + "-server.csr' -CA '" + p + "-ca.pem' -CAkey '" +
                  p + "-ca.key' -CAcreateserial -out '" + p + "-server.pem' -days 3 -extfile '" +
                  p + "-ext.cnf'" + quiet);
  if (!ok) *error = "openssl could not make the test certificates (see " + p + "-openssl.log)";
  return ok;
}

struct NginxOptions {
  // The plain HTTP server behind nginx (127.0.0.1); 0: nginx answers every POST itself, at once,
  // with one fixed OpenAI chat completion ({"name":"Ada","age":36}) from a server of its own.
  int upstream_port = 0;
  int keepalive_requests = 1000;     // nginx's default: requests per client connection
  int keepalive_timeout_s = 75;      // nginx's default idle timeout
  int max_concurrent_streams = 128;  // nginx's default HTTP/2 streams per connection
  int worker_connections = 4096;     // client + upstream connections of the one worker
  int upstream_keepalive = 1024;     // idle connections to the upstream kept per worker
};

// What the access log says about the requests so far.
struct NginxLogStats {
  long requests = 0;
  long connections = 0;                   // distinct client connections that carried a request
  long full_handshakes = 0;               // TLS connections whose session was not resumed
  long resumed = 0;                       // TLS connections with a resumed session
  std::map<std::string, long> protocols;  // "HTTP/2.0" -> requests
  std::map<int, long> statuses;           // 200 -> requests
};

class NginxTls {
 public:
  // nullptr with *error when nginx or openssl is missing or nginx does not start within 20 s.
  static std::unique_ptr<NginxTls> Start(const NginxOptions& options, std::string* error) {
    std::string binary = FindExecutable("nginx");
    if (binary.empty()) {
      *error = "nginx not found (install the Debian package nginx)";
      return nullptr;
    }
    std::unique_ptr<NginxTls> n(new NginxTls(binary, options));
    if (n->dir_.empty()) {
      *error = "cannot create a temporary directory";
      return nullptr;
    }
    if (!MakeCertificates(n->dir_, "test", error)) return nullptr;
    for (int attempt = 0; attempt < 5; ++attempt) {
      if (n->Run(error)) return n;
    }
    return nullptr;
  }

  ~NginxTls() {
    Stop();
    Shell("rm -rf '" + dir_ + "'");
  }

  int h2_port() const { return h2_port_; }  // ALPN h2 or http/1.1
  int h1_port() const { return h1_port_; }  // http/1.1 only
  int plain_port() const { return plain_port_; }
  std::string plain_url() const { return "http://127.0.0.1:" + std::to_string(plain_port_); }
  // https://localhost:PORT (the certificate names localhost and 127.0.0.1).
  std::string url(bool h2) const {
    return "https://localhost:" + std::to_string(h2 ? h2_port_ : h1_port_);
  }
  const std::string& dir() const { return dir_; }
  std::string ca_file() const { return dir_ + "/test-ca.pem"; }
  std::string access_log() const { return dir_ + "/access.log"; }
  pid_t pid() const { return child_ ? child_->pid() : 0; }

  // SIGTERM: nginx's fast shutdown; afterwards no port answers.
  void Stop() {
    if (!child_) return;
    child_->Stop(std::chrono::seconds(10));
    child_.reset();
  }

  // Worker CPU seconds so far (nginx's one worker is the master's only child).
  double WorkerCpuSeconds() const {
    std::ifstream children("/proc/" + std::to_string(pid()) + "/task/" + std::to_string(pid()) +
                           "/children");
    pid_t worker = 0;
    children >> worker;
    return worker > 0 ? ProcessCpuSeconds(worker) : 0;
  }

  static double ProcessCpuSeconds(pid_t pid) {
    std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    size_t close = text.rfind(')');
    if (close == std::string::npos) return 0;
    std::istringstream rest(text.substr(close + 2));
    std::string field;
    double ticks = 0;
    for (int i = 3; i <= 15 && rest >> field; ++i) {
      if (i == 14 || i == 15) ticks += std::atof(field.c_str());
    }
    return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
  }

  // Requests the fixed-reply server behind nginx answered (NginxOptions::upstream_port 0).
  long CannedRequests() const {
    std::ifstream log(dir_ + "/canned.log");
    long n = 0;
    for (std::string line; std::getline(log, line);) ++n;
    return n;
  }

  // nginx writes a log line once a request is finished, which may be after the client has its
  // answer: waits (up to 5 s) until the access log holds `requests` lines, then reads it.
  NginxLogStats ReadLogOnce(long requests) const {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    NginxLogStats s = ReadLog();
    while (s.requests < requests && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      s = ReadLog();
    }
    return s;
  }

  NginxLogStats ReadLog() const {
    NginxLogStats s;
    std::ifstream log(access_log());
    std::string line;
    std::set<long> seen;
    while (std::getline(log, line)) {
      std::istringstream in(line);
      long connection = 0, on_connection = 0;
      std::string reused, protocol;
      int status = 0;
      if (!(in >> connection >> on_connection >> reused >> protocol >> status)) continue;
      ++s.requests;
      ++s.protocols[protocol];
      ++s.statuses[status];
      if (!seen.insert(connection).second) continue;
      ++s.connections;
      if (reused == "r") {
        ++s.resumed;
      } else {
        ++s.full_handshakes;
      }
    }
    return s;
  }

 private:
  NginxTls(std::string binary, NginxOptions options)
      : binary_(std::move(binary)), options_(options), dir_(MakeTempDir("structure-nginx")) {}

  // An OpenAI chat completion, as an nginx single-quoted string (backslashes doubled).
  static constexpr const char* kCannedReply =
      R"('{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"sim-model",)"
      R"("choices":[{"index":0,"message":{"role":"assistant","content":)"
      R"("{\\"name\\":\\"Ada\\",\\"age\\":36}"},"finish_reason":"stop"}],)"
      R"("usage":{"prompt_tokens":50,"completion_tokens":10,"total_tokens":60}}')";

  void WriteConfig() const {
    std::string d = dir_;
    int upstream = options_.upstream_port != 0 ? options_.upstream_port : canned_port_;
    std::string canned = options_.upstream_port != 0
                             ? ""
                             : "  server {\n    listen 127.0.0.1:" + std::to_string(canned_port_) +
                                   ";\n    access_log " + d + "/canned.log conn;\n" +
                                   "    default_type application/json;\n" +
                                   "    location / { return 200 " + kCannedReply + "; }\n  }\n";
    std::string server_body =
        "    ssl_certificate " + d + "/test-server.pem;\n" + "    ssl_certificate_key " + d +
        "/test-server.key;\n" + "    location /reset/ { return 444; }\n" +
        "    location / {\n      proxy_pass http://upstream_sim;\n" +
        "      proxy_http_version 1.1;\n      proxy_set_header Connection \"\";\n" +
        "      proxy_read_timeout 3600s;\n    }\n";
    std::ofstream(d + "/nginx.conf")
        << "daemon off;\nworker_processes 1;\nworker_rlimit_nofile "
        << 2 * options_.worker_connections + 64 << ";\npid " << d << "/nginx.pid;\n"
        << "error_log " << d << "/error.log warn;\n"
        << "events { worker_connections " << options_.worker_connections << "; }\n"
        << "http {\n"
        << "  log_format conn '$connection $connection_requests $ssl_session_reused "
           "$server_protocol $status';\n"
        << "  access_log " << d << "/access.log conn;\n"
        << "  client_body_temp_path " << d << "/tmp/body;\n"
        << "  proxy_temp_path " << d << "/tmp/proxy;\n"
        << "  fastcgi_temp_path " << d << "/tmp/fastcgi;\n"
        << "  uwsgi_temp_path " << d << "/tmp/uwsgi;\n"
        << "  scgi_temp_path " << d << "/tmp/scgi;\n"
        << "  keepalive_requests " << options_.keepalive_requests << ";\n"
        << "  keepalive_timeout " << options_.keepalive_timeout_s << "s;\n"
        << "  http2_max_concurrent_streams " << options_.max_concurrent_streams << ";\n"
        << "  ssl_protocols TLSv1.3;\n"
        << "  upstream upstream_sim {\n    server 127.0.0.1:" << upstream << ";\n"
        << "    keepalive " << options_.upstream_keepalive
        << ";\n    keepalive_requests 1000000;\n  }\n"
        << "  server {\n    listen 127.0.0.1:" << h2_port_ << " ssl http2;\n"
        << server_body << "  }\n"
        << "  server {\n    listen 127.0.0.1:" << h1_port_ << " ssl;\n"
        << server_body << "  }\n"
        << "  server {\n    listen 127.0.0.1:" << plain_port_ << ";\n"
        << server_body << "  }\n"
        << canned << "}\n";
  }

  bool Run(std::string* error) {
    h2_port_ = FreeLoopbackPort();
    h1_port_ = FreeLoopbackPort();
    plain_port_ = FreeLoopbackPort();
    canned_port_ = FreeLoopbackPort();
    if (h2_port_ == 0 || h1_port_ == 0 || plain_port_ == 0 || h2_port_ == h1_port_ ||
        plain_port_ == h1_port_ || plain_port_ == h2_port_) {
      return false;
    }
    Shell("mkdir -p '" + dir_ + "/tmp' && chmod 0777 '" + dir_ + "/tmp'");
    WriteConfig();
    std::vector<std::string> argv = {
        binary_, "-p", dir_, "-c", dir_ + "/nginx.conf", "-e", dir_ + "/error.log"};
    child_ = ChildProcess::Spawn(argv, ChildIo{"", dir_ + "/stdout", dir_ + "/stderr"}, error);
    if (!child_) return false;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      if (child_->Exited()) break;  // a port taken meanwhile, or a bad config
      if (PortAnswers(h2_port_) && PortAnswers(h1_port_) && PortAnswers(plain_port_)) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    *error = "nginx did not start (see " + dir_ + "/error.log)";
    child_.reset();
    return false;
  }

  std::string binary_;
  NginxOptions options_;
  std::string dir_;
  int h2_port_ = 0;
  int h1_port_ = 0;
  int plain_port_ = 0;
  int canned_port_ = 0;
  std::unique_ptr<ChildProcess> child_;
};

}  // namespace structure::testing
