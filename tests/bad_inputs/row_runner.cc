#include "tests/bad_inputs/row_runner.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "base/json.h"
#include "tests/bad_inputs/run_process.h"

namespace structure::testing {
namespace {

namespace fs = std::filesystem;

struct RowDirs {
  std::string cwd, home, io;
};

RowDirs MakeRowDirs(const RowContext& ctx, const Row& row) {
  std::string safe;
  for (char c : row.name)
    safe += (std::isalnum(static_cast<unsigned char>(c)) || c == '-') ? c : '_';
  std::string base = ctx.work_dir + "/rows/" + safe;
  RowDirs d{base + "/cwd", base + "/home", base + "/io"};
  fs::remove_all(base);
  for (const auto& p : {d.cwd, d.home, d.io}) fs::create_directories(p);
  return d;
}

// Where a row's message is looked for: "out:" stdout, "err:" stderr, else `fallback`.
struct Wanted {
  std::string text;
  char stream;  // 'o' or 'e'
};
Wanted ParseMessage(const std::string& message, char fallback) {
  if (message.rfind("out:", 0) == 0) return {message.substr(4), 'o'};
  if (message.rfind("err:", 0) == 0) return {message.substr(4), 'e'};
  return {message == "-" ? "" : message, fallback};
}

// The shared verdict of rows that run one process (cli, mcp, reply): no start failure, no hang,
// no sanitizer report, the exit code, the message.
std::string Judge(const ProcessResult& r, int want_exit, const Wanted& want) {
  if (!r.error.empty()) return r.error;
  if (r.timed_out) return "timed out (a hang); stderr: " + Excerpt(r.err);
  if (std::string s = SanitizerReport(r.err); !s.empty()) return "sanitizer: " + Excerpt(s);
  if (want_exit >= 0 && r.exit_code != want_exit) {
    return "exit " + std::to_string(r.exit_code) + ", expected " + std::to_string(want_exit) +
           "; stderr: " + Excerpt(r.err) + (r.err.empty() ? "; stdout: " + Excerpt(r.out) : "");
  }
  const std::string& where = want.stream == 'o' ? r.out : r.err;
  if (!want.text.empty() && where.find(want.text) == std::string::npos) {
    return "no '" + want.text + "' in " + (want.stream == 'o' ? "stdout: " : "stderr: ") +
           Excerpt(where);
  }
  return "";
}

int ExpectedInt(const std::string& expect, bool* ok) {
  char* end = nullptr;
  long v = std::strtol(expect.c_str(), &end, 10);
  *ok = !expect.empty() && end != nullptr && *end == '\0';
  return static_cast<int>(v);
}

// Sends `request` on a fresh connection, half-closes, reads to EOF. Empty when no answer came.
std::string Exchange(int port, const std::string& request, std::string* error) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    if (fd >= 0) close(fd);
    *error = "cannot connect to the server";
    return "";
  }
  size_t sent = 0;
  while (sent < request.size()) {
    ssize_t n = send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;  // the server may close early (413, 431): read what it said
    sent += static_cast<size_t>(n);
  }
  shutdown(fd, SHUT_WR);
  std::string reply;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 200) <= 0) continue;
    char buf[8192];
    ssize_t n = recv(fd, buf, sizeof(buf), 0);
    if (n <= 0) break;
    reply.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  return reply;
}

// The request a non-RAW http row describes: "METHOD PATH\nHeader: v\n\nBODY".
std::string BuildRequest(const std::string& input) {
  size_t first_end = input.find('\n');
  std::string request_line = input.substr(0, first_end);
  std::string rest = first_end == std::string::npos ? "" : input.substr(first_end + 1);
  std::string headers, body;
  size_t blank = rest.find("\n\n");
  if (rest.rfind("\n", 0) == 0) {
    body = rest.substr(1);
  } else if (blank != std::string::npos) {
    headers = rest.substr(0, blank + 1);
    body = rest.substr(blank + 2);
  } else {
    body = rest;  // no headers: everything after the request line is the body
  }
  std::string out = request_line + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
  bool has_length = false, has_type = false;
  size_t at = 0;
  while (at < headers.size()) {
    size_t end = headers.find('\n', at);
    std::string h = headers.substr(at, end - at);
    at = end + 1;
    if (h.empty()) continue;
    std::string lower;
    for (char c : h.substr(0, h.find(':'))) lower += static_cast<char>(std::tolower(c));
    has_length = has_length || lower == "content-length" || lower == "transfer-encoding";
    has_type = has_type || lower == "content-type";
    out += h + "\r\n";
  }
  if (!has_type && !body.empty()) out += "Content-Type: application/json\r\n";
  if (!has_length) out += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  return out + "\r\n" + body;
}

int StatusOf(const std::string& reply) {
  if (reply.rfind("HTTP/1.", 0) != 0 || reply.size() < 12) return 0;
  return std::atoi(reply.c_str() + 9);
}

std::string SanitizerSince(const std::string& path, size_t offset) {
  std::string all = ReadAll(path);
  return offset < all.size() ? SanitizerReport(std::string_view(all).substr(offset)) : "";
}

}  // namespace

std::vector<std::string> RowEnvironment(const RowContext& ctx, const std::string& home) {
  std::string bin_dir = fs::path(ctx.binary).parent_path().string();
  std::vector<std::string> env = {
      "PATH=" + bin_dir + ":/usr/local/bin:/usr/bin:/bin",
      "HOME=" + home,
      "LANG=C.UTF-8",
      "SIM=" + ctx.sim_url,
      "DATA=" + ctx.data_dir + "/files",
      "SRC=" + std::string(STRUCTURE_SOURCE_DIR),
      "BAD_INPUTS_KEY=sk-bad-inputs",
  };
  for (const char* name : {"ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "TMPDIR"}) {
    if (const char* v = std::getenv(name)) env.push_back(std::string(name) + "=" + v);
  }
  return env;
}

std::string RunCliRow(const Row& row, const RowContext& ctx) {
  bool ok = false;
  int want = ExpectedInt(row.expect, &ok);
  if (!ok) return "expect must be an exit code (was '" + row.expect + "')";
  RowDirs d = MakeRowDirs(ctx, row);
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", row.input};
  spec.env = RowEnvironment(ctx, d.home);
  spec.cwd = d.cwd;
  spec.scratch = d.io;
  return Judge(RunProcess(spec), want, ParseMessage(row.message, 'e'));
}

std::string RunHttpRow(const Row& row, const RowContext& ctx) {
  std::string input = Unescape(row.input);
  std::string request = input.rfind("RAW ", 0) == 0 ? input.substr(4) : BuildRequest(input);
  size_t offset = ReadAll(ctx.serve_stderr).size();
  std::string error;
  std::string reply = Exchange(ctx.serve_port, request, &error);
  if (!error.empty()) return error;
  int status = StatusOf(reply);
  std::string body;
  if (size_t b = reply.find("\r\n\r\n"); b != std::string::npos) body = reply.substr(b + 4);
  std::string verdict;
  if (row.expect == "closed") {
    if (!reply.empty())
      verdict = "expected the connection closed unanswered, got: " + Excerpt(reply);
  } else {
    bool ok = false;
    int want = ExpectedInt(row.expect, &ok);
    if (!ok) return "expect must be an HTTP status or 'closed' (was '" + row.expect + "')";
    Wanted w = ParseMessage(row.message, 'o');
    if (status != want) {
      verdict = "status " + std::to_string(status) + ", expected " + row.expect + ": " +
                Excerpt(reply.empty()  ? "(no answer)"
                        : body.empty() ? reply
                                       : body);
    } else if (!w.text.empty() && body.find(w.text) == std::string::npos) {
      verdict = "no '" + w.text + "' in the body: " + Excerpt(body);
    }
  }
  // The server must survive every row and keep answering.
  std::string health = Exchange(
      ctx.serve_port, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", &error);
  if (StatusOf(health) != 200)
    verdict += (verdict.empty() ? "" : "; ") + std::string("/healthz no longer answers");
  if (std::string s = SanitizerSince(ctx.serve_stderr, offset); !s.empty()) {
    verdict += (verdict.empty() ? "" : "; ") + ("server sanitizer: " + Excerpt(s));
  }
  return verdict;
}

std::string RunMcpRow(const Row& row, const RowContext& ctx) {
  static const char kSentinel[] = R"({"jsonrpc":"2.0","id":"sentinel","method":"ping"})";
  RowDirs d = MakeRowDirs(ctx, row);
  ProcessSpec spec;
  spec.argv = {ctx.binary, "mcp", "--base-url", ctx.sim_url + "/v1", "--database", ":memory:"};
  spec.env = RowEnvironment(ctx, d.home);
  spec.cwd = d.cwd;
  spec.scratch = d.io;
  spec.input = Unescape(row.input);
  if (spec.input.empty() || spec.input.back() != '\n') spec.input += '\n';
  spec.input += std::string(kSentinel) + "\n";
  ProcessResult r = RunProcess(spec);
  if (std::string v = Judge(r, 0, {"", 'e'}); !v.empty()) return v;
  std::string answer;
  bool sentinel = false;
  size_t at = 0;
  while (at < r.out.size()) {
    size_t end = r.out.find('\n', at);
    std::string line = r.out.substr(at, end - at);
    at = end == std::string::npos ? r.out.size() : end + 1;
    auto parsed = ParseJson(line);
    if (!parsed.ok()) return "an answer is not JSON: " + Excerpt(line);
    const Json* id = parsed->find("id");
    if (id != nullptr && id->is_string() && id->as_string() == "sentinel") {
      sentinel = true;
    } else if (answer.empty()) {
      answer = line;
    }
  }
  if (!sentinel) return "the next line (a ping) was not answered; stdout: " + Excerpt(r.out);
  Wanted w = ParseMessage(row.message, 'o');
  const std::string& where = w.stream == 'o' ? answer : r.err;
  if (row.expect == "none") {
    if (!answer.empty()) return "expected no answer, got: " + Excerpt(answer);
    return "";
  }
  if (answer.empty()) return "no answer to the row's line";
  auto message = ParseJson(answer);
  const Json* error = message->find("error");
  const Json* result = message->find("result");
  const Json* is_error = result != nullptr ? result->find("isError") : nullptr;
  bool tool_error = is_error != nullptr && is_error->is_bool() && is_error->as_bool();
  if (row.expect == "result" || row.expect == "tool-error") {
    if (result == nullptr || tool_error != (row.expect == "tool-error")) {
      return "expected " + row.expect + ", got: " + Excerpt(answer);
    }
  } else {
    bool ok = false;
    int want = ExpectedInt(row.expect, &ok);
    if (!ok) return "expect must be a JSON-RPC error code, result, tool-error or none";
    const Json* code = error != nullptr ? error->find("code") : nullptr;
    if (code == nullptr || !code->is_int() || code->as_int() != want) {
      return "expected error " + row.expect + ", got: " + Excerpt(answer);
    }
  }
  if (!w.text.empty() && where.find(w.text) == std::string::npos) {
    return "no '" + w.text + "' in " + (w.stream == 'o' ? "the answer: " : "stderr: ") +
           Excerpt(where);
  }
  return "";
}

std::string ReplyMarker(const Row& row) { return "ROW:" + row.name + ":"; }

bool SplitReplyInput(const Row& row, std::string* provider, std::vector<std::string>* flags,
                     std::string* reply) {
  size_t space = row.input.find(' ');
  if (space == std::string::npos) return false;
  *provider = row.input.substr(0, space);
  size_t at = space + 1;
  while (row.input.compare(at, 2, "--") == 0) {
    size_t end = row.input.find(' ', at);
    if (end == std::string::npos) return false;
    flags->push_back(row.input.substr(at, end - at));
    at = end + 1;
  }
  *reply = row.input.substr(at);
  return *provider == "openai" || *provider == "anthropic" || *provider == "gemini" ||
         *provider == "ollama";
}

std::string RunReplyRow(const Row& row, const RowContext& ctx) {
  std::string provider, reply;
  std::vector<std::string> flags;
  if (!SplitReplyInput(row, &provider, &flags, &reply)) {
    return "input must be 'PROVIDER [--flag ...] REPLY' with openai, anthropic, gemini or ollama";
  }
  bool ok = false;
  int want = ExpectedInt(row.expect, &ok);
  if (!ok) return "expect must be an exit code (was '" + row.expect + "')";
  RowDirs d = MakeRowDirs(ctx, row);
  ProcessSpec spec;
  spec.argv = {
      ctx.binary,    "run",
      "--config",    ctx.providers_toml,
      "--model",     provider,
      "--prompt",    ReplyMarker(row) + " Mike reports that the build is broken, priority 2",
      "--schema",    ctx.data_dir + "/files/ticket.schema.json",
      "--max-loops", "2",
      "--database",  ":memory:"};
  spec.argv.insert(spec.argv.end(), flags.begin(), flags.end());
  spec.env = RowEnvironment(ctx, d.home);
  spec.cwd = d.cwd;
  spec.scratch = d.io;
  return Judge(RunProcess(spec), want, ParseMessage(row.message, 'o'));
}

}  // namespace structure::testing
