// A connection to the shared store (Redis) on its own thread. hiredis's blocking API runs there:
// commands queued from any thread are pipelined (all that are waiting go out in one write, their
// replies come back in order), so no caller ever blocks on the network. While the server is
// unreachable every command fails at once with kUnavailable and the thread reconnects in the
// background. The store "answers" only once a PING on the new connection got Redis's reply: a
// port that accepts connections but does not speak Redis (another server, a paused redis-server)
// stays down. on_down / on_up report changes of state, each state at most once per report_every:
// an outage and the recovery after it are reported at once, but a store that flaps is reported
// when the interval ends, in the state it is in then, with the number of changes in between.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "structure/status.h"

namespace structure::registry {

struct RedisReply {
  enum class Type { kNil, kInteger, kString, kArray, kStatus, kError };
  Type type = Type::kNil;
  int64_t integer = 0;
  std::string str;  // kString, kStatus, kError
  std::vector<RedisReply> elements;
};

struct RedisOptions {
  std::string host = "127.0.0.1";
  int port = 6379;
  int db = 0;
  std::string username;  // Redis 6 ACL user; empty: AUTH with the password only
  std::string password;  // empty: no AUTH
  std::string name;      // how messages name the store (its URL, never the password)
  std::chrono::milliseconds timeout{1000};        // connect and each round trip
  std::chrono::milliseconds retry_every{500};     // reconnect attempts while down
  std::chrono::milliseconds report_every{30000};  // at most one on_down (on_up) per
  // Called on the client's thread. `changes`: the changes of state since the previous report
  // (1 unless the store flapped within report_every).
  std::function<void(const std::string& error, int changes)> on_down;
  std::function<void(int changes)> on_up;
};

// A Lua script run with EVALSHA; the client loads it (SCRIPT LOAD) on first use per connection
// and again when the server answers NOSCRIPT.
struct RedisScript {
  std::string text;
};

class RedisClient {
 public:
  using Callback = std::function<void(Result<RedisReply>)>;

  // Starts the thread, which connects at once. Never fails: an unreachable server is reported
  // through on_down and by the commands.
  explicit RedisClient(RedisOptions options);
  // Fails the commands still queued with kCancelled and joins the thread.
  ~RedisClient();
  RedisClient(const RedisClient&) = delete;
  RedisClient& operator=(const RedisClient&) = delete;

  // Queues a command (argv[0] is its name). `done` runs exactly once, on the client's thread:
  // with the reply (a Redis error reply is kInternal with its text), or kUnavailable when the
  // server cannot be reached, the round trip timed out, or the server refuses writes (OOM under
  // `noeviction`, READONLY, MISCONF: then the client counts as down, on_down reports it, and
  // it reconnects every retry_every until a probe write goes through).
  void Command(std::vector<std::string> argv, Callback done);
  // EVALSHA of `script` (which must outlive the client) with `keys` and `args`.
  void Eval(const RedisScript* script, std::vector<std::string> keys, std::vector<std::string> args,
            Callback done);

  // True while connected (as of the last command or reconnect attempt).
  bool up() const;
  const RedisOptions& options() const { return options_; }

  // One blocking connect + PING with options.timeout, for `structure config check`.
  static Status Ping(const RedisOptions& options);

 private:
  struct Op {
    std::vector<std::string> argv;
    const RedisScript* script = nullptr;  // set: argv is EVALSHA's arguments after the sha
    Callback done;
  };
  struct Conn;

  void Queue(Op op);
  void Loop();
  void RunBatch(std::vector<Op>& ops);
  bool Connect();
  void MarkDown(const std::string& error);
  // Reports the current state when it differs from the last one reported and report_every has
  // passed since this state was last reported; otherwise leaves it for the loop (report_due_).
  void Report();

  RedisOptions options_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Op> queue_;  // guarded by mu_
  bool stop_ = false;      // guarded by mu_
  bool up_ = false;        // guarded by mu_
  // Owned by the thread.
  std::unique_ptr<Conn> conn_;
  bool down_ = false;           // as the reports see it (a change is counted here)
  bool reported_down_ = false;  // the state the last report gave
  int changes_ = 0;             // since the last report
  // When each state was last reported: [0] up, [1] down.
  std::optional<std::chrono::steady_clock::time_point> last_report_[2];
  std::optional<std::chrono::steady_clock::time_point> report_due_;  // a change waits until then
  std::string last_error_;
  std::chrono::steady_clock::time_point next_attempt_{};
  std::thread thread_;
};

}  // namespace structure::registry
