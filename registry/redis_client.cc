#include "registry/redis_client.h"

#include <sys/time.h>

#include <cerrno>
#include <cstring>
#include <map>

#include <hiredis/hiredis.h>

namespace structure::registry {
namespace {

struct ReplyDeleter {
  void operator()(redisReply* r) const { freeReplyObject(r); }
};
using ReplyPtr = std::unique_ptr<redisReply, ReplyDeleter>;

RedisReply Convert(const redisReply* r) {
  RedisReply out;
  switch (r->type) {
    case REDIS_REPLY_INTEGER:
      out.type = RedisReply::Type::kInteger;
      out.integer = r->integer;
      break;
    case REDIS_REPLY_STRING:
    case REDIS_REPLY_STATUS:
    case REDIS_REPLY_ERROR:
      out.type = r->type == REDIS_REPLY_STRING   ? RedisReply::Type::kString
                 : r->type == REDIS_REPLY_STATUS ? RedisReply::Type::kStatus
                                                 : RedisReply::Type::kError;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_ARRAY:
      out.type = RedisReply::Type::kArray;
      out.elements.reserve(r->elements);
      for (size_t i = 0; i < r->elements; ++i) out.elements.push_back(Convert(r->element[i]));
      break;
    default:
      break;
  }
  return out;
}

Result<RedisReply> FromReply(const redisReply* r) {
  RedisReply out = Convert(r);
  if (out.type == RedisReply::Type::kError) return Internal("redis: " + out.str);
  return out;
}

timeval ToTimeval(std::chrono::milliseconds ms) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(ms.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>(ms.count() % 1000 * 1000);
  return tv;
}

// What went wrong on a context, in words a user can act on.
std::string ContextError(const redisContext* c, const RedisOptions& o) {
  if (c == nullptr) return "out of memory";
  std::string err = c->errstr;
  if (c->err == REDIS_ERR_IO &&
      (err == std::strerror(EAGAIN) || err == std::strerror(EWOULDBLOCK))) {
    return "no answer within " + std::to_string(o.timeout.count()) + " ms";
  }
  if (c->err == REDIS_ERR_EOF) return "the server closed the connection";
  if (c->err == REDIS_ERR_PROTOCOL) return "it does not answer as Redis does (" + err + ")";
  return err;
}

ReplyPtr Call(redisContext* c, const std::vector<std::string>& argv) {
  std::vector<const char*> ptrs;
  std::vector<size_t> lens;
  for (const auto& a : argv) {
    ptrs.push_back(a.data());
    lens.push_back(a.size());
  }
  return ReplyPtr(static_cast<redisReply*>(
      redisCommandArgv(c, static_cast<int>(argv.size()), ptrs.data(), lens.data())));
}

// Error replies that mean the server takes no writes now: out of memory under `noeviction`
// (OOM), a read-only replica (READONLY), failed snapshots with stop-writes-on-bgsave-error
// (MISCONF). Every shared limit writes, so the store is as good as down: the client treats it so
// (each process takes its fallback share) until a write goes through again.
bool RefusesWrites(std::string_view text) {
  for (std::string_view prefix : {"OOM ", "READONLY ", "MISCONF "}) {
    if (text.substr(0, prefix.size()) == prefix) return true;
  }
  return false;
}

std::string RefusalText(std::string_view text) {
  return "the server refuses writes: " + std::string(text);
}

// Connects, authenticates, selects the database and checks that it takes writes (a short-lived
// probe key); nullptr with *error set otherwise.
redisContext* Open(const RedisOptions& o, std::string* error) {
  redisContext* c = redisConnectWithTimeout(o.host.c_str(), o.port, ToTimeval(o.timeout));
  if (c == nullptr || c->err != 0) {
    *error = ContextError(c, o);
    if (c != nullptr) redisFree(c);
    return nullptr;
  }
  redisSetTimeout(c, ToTimeval(o.timeout));
  redisEnableKeepAlive(c);
  std::vector<std::vector<std::string>> setup;
  if (!o.password.empty()) {
    if (o.username.empty()) {
      setup.push_back({"AUTH", o.password});
    } else {
      setup.push_back({"AUTH", o.username, o.password});
    }
  }
  if (o.db != 0) setup.push_back({"SELECT", std::to_string(o.db)});
  // A connection is not an answer: a port that accepts but does not speak Redis (another
  // server, a paused redis-server whose backlog takes the connection) fails here.
  setup.push_back({"PING"});
  setup.push_back({"SET", "structure:probe", "1", "PX", "60000"});
  for (const auto& argv : setup) {
    ReplyPtr r = Call(c, argv);
    if (!r) {
      *error = ContextError(c, o);
      redisFree(c);
      return nullptr;
    }
    std::string_view text = r->str != nullptr ? std::string_view(r->str, r->len) : "";
    if (r->type == REDIS_REPLY_ERROR) {
      // The server's words ("WRONGPASS ...", "ERR DB index is out of range"), never the password.
      *error = RefusesWrites(text) ? RefusalText(text) : argv[0] + " refused: " + std::string(text);
      if (text.rfind("NOAUTH", 0) == 0) {
        *error += " (name the variable that holds the password in stores.shared_password_env)";
      }
      redisFree(c);
      return nullptr;
    }
    if (argv[0] == "PING" && (r->type != REDIS_REPLY_STATUS || text != "PONG")) {
      *error = "it answered PING with something other than PONG: not a Redis server";
      redisFree(c);
      return nullptr;
    }
  }
  return c;
}

}  // namespace

struct RedisClient::Conn {
  redisContext* c = nullptr;
  std::map<const RedisScript*, std::string> shas;  // loaded on this connection
  ~Conn() {
    if (c != nullptr) redisFree(c);
  }
};

RedisClient::RedisClient(RedisOptions options)
    : options_(std::move(options)), thread_([this] { Loop(); }) {}

RedisClient::~RedisClient() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_one();
  thread_.join();
}

void RedisClient::Queue(Op op) {
  bool queued = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!stop_) {
      queue_.push_back(std::move(op));
      queued = true;
    }
  }
  if (!queued) {
    op.done(Status(Code::kCancelled, options_.name + ": shutting down"));
    return;
  }
  cv_.notify_one();
}

void RedisClient::Command(std::vector<std::string> argv, Callback done) {
  Queue(Op{std::move(argv), nullptr, std::move(done)});
}

void RedisClient::Eval(const RedisScript* script, std::vector<std::string> keys,
                       std::vector<std::string> args, Callback done) {
  std::vector<std::string> argv;
  argv.reserve(1 + keys.size() + args.size());
  argv.push_back(std::to_string(keys.size()));
  for (auto& k : keys) argv.push_back(std::move(k));
  for (auto& a : args) argv.push_back(std::move(a));
  Queue(Op{std::move(argv), script, std::move(done)});
}

bool RedisClient::up() const {
  std::lock_guard<std::mutex> lock(mu_);
  return up_;
}

Status RedisClient::Ping(const RedisOptions& options) {
  std::string error;
  redisContext* c = Open(options, &error);
  if (c == nullptr) return Status(Code::kUnavailable, options.name + ": " + error);
  redisFree(c);  // Open has had PONG
  return Status::Ok();
}

bool RedisClient::Connect() {
  std::string error;
  redisContext* c = Open(options_, &error);
  if (c == nullptr) {
    MarkDown(error);
    return false;
  }
  conn_ = std::make_unique<Conn>();
  conn_->c = c;
  {
    std::lock_guard<std::mutex> lock(mu_);
    up_ = true;
  }
  if (down_) {
    down_ = false;
    ++changes_;
  }
  Report();
  return true;
}

void RedisClient::MarkDown(const std::string& error) {
  conn_.reset();
  {
    std::lock_guard<std::mutex> lock(mu_);
    up_ = false;
  }
  last_error_ = error;
  next_attempt_ = std::chrono::steady_clock::now() + options_.retry_every;
  if (!down_) {
    down_ = true;
    ++changes_;
  }
  Report();
}

void RedisClient::Report() {
  if (down_ == reported_down_) {
    report_due_.reset();  // back where the last report left it; the changes count on
    return;
  }
  // Each state has its own interval: an outage and the recovery after it are both logged at
  // once; only a state reported less than report_every ago waits.
  auto now = std::chrono::steady_clock::now();
  auto& last = last_report_[down_ ? 1 : 0];
  if (last && now < *last + options_.report_every) {
    report_due_ = *last + options_.report_every;
    return;
  }
  reported_down_ = down_;
  last = now;
  report_due_.reset();
  int changes = changes_;
  changes_ = 0;
  if (down_) {
    if (options_.on_down) options_.on_down(last_error_, changes);
  } else if (options_.on_up) {
    options_.on_up(changes);
  }
}

void RedisClient::Loop() {
  Connect();
  std::vector<Op> ops;
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    auto ready = [&] { return stop_ || !queue_.empty(); };
    // Wakes to reconnect, and to make a report that waited for its interval, even when idle.
    std::optional<std::chrono::steady_clock::time_point> wake = report_due_;
    if (!up_ && (!wake || next_attempt_ < *wake)) wake = next_attempt_;
    if (wake) {
      cv_.wait_until(lock, *wake, ready);
    } else {
      cv_.wait(lock, ready);
    }
    if (stop_) break;
    ops.swap(queue_);
    lock.unlock();
    if (!conn_ && std::chrono::steady_clock::now() >= next_attempt_) Connect();
    if (conn_) {
      if (!ops.empty()) RunBatch(ops);
    } else {
      Status down(Code::kUnavailable, options_.name + ": " + last_error_);
      for (Op& op : ops) op.done(down);
    }
    if (report_due_ && std::chrono::steady_clock::now() >= *report_due_) Report();
    ops.clear();
    lock.lock();
  }
  std::vector<Op> left;
  left.swap(queue_);
  lock.unlock();
  for (Op& op : left) op.done(Status(Code::kCancelled, options_.name + ": shutting down"));
}

void RedisClient::RunBatch(std::vector<Op>& ops) {
  // Every op not answered yet (those from `first` on, and earlier ones held back: a NOSCRIPT
  // retry, a refused write) gets the error.
  auto fail_from = [&](size_t first, const std::string& error) {
    (void)first;
    MarkDown(error);
    Status down(Code::kUnavailable, options_.name + ": " + error);
    for (Op& op : ops) {
      if (op.done) op.done(down);
      op.done = nullptr;
    }
  };
  // Scripts first (rare: once per connection), so the pipeline below holds only EVALSHAs.
  for (Op& op : ops) {
    if (op.script == nullptr || conn_->shas.count(op.script) > 0) continue;
    ReplyPtr r = Call(conn_->c, {"SCRIPT", "LOAD", op.script->text});
    if (!r) return fail_from(0, ContextError(conn_->c, options_));
    if (r->type != REDIS_REPLY_STRING) {
      Result<RedisReply> err = FromReply(r.get());
      op.done(err.ok() ? Internal("redis: SCRIPT LOAD gave no digest") : err.status());
      op.done = nullptr;
      continue;
    }
    conn_->shas[op.script] = std::string(r->str, r->len);
  }
  auto argv_of = [&](const Op& op) {
    std::vector<std::string> argv;
    if (op.script != nullptr) {
      argv.reserve(op.argv.size() + 2);
      argv.push_back("EVALSHA");
      argv.push_back(conn_->shas[op.script]);
      argv.insert(argv.end(), op.argv.begin(), op.argv.end());
    }
    return argv;
  };
  for (Op& op : ops) {
    if (!op.done) continue;
    std::vector<std::string> eval = argv_of(op);
    const std::vector<std::string>& argv = op.script != nullptr ? eval : op.argv;
    std::vector<const char*> ptrs;
    std::vector<size_t> lens;
    for (const auto& a : argv) {
      ptrs.push_back(a.data());
      lens.push_back(a.size());
    }
    redisAppendCommandArgv(conn_->c, static_cast<int>(argv.size()), ptrs.data(), lens.data());
  }
  std::vector<size_t> noscript;
  std::string refused;              // the first refusal of a write, if any
  std::vector<size_t> refused_ops;  // answered after MarkDown: their callers then see it
  for (size_t i = 0; i < ops.size(); ++i) {
    Op& op = ops[i];
    if (!op.done) continue;
    void* raw = nullptr;
    if (redisGetReply(conn_->c, &raw) != REDIS_OK || raw == nullptr) {
      return fail_from(i, ContextError(conn_->c, options_));
    }
    ReplyPtr r(static_cast<redisReply*>(raw));
    if (r->type == REDIS_REPLY_ERROR && RefusesWrites(std::string_view(r->str, r->len))) {
      if (refused.empty()) refused = RefusalText(std::string_view(r->str, r->len));
      refused_ops.push_back(i);
      continue;
    }
    if (op.script != nullptr && r->type == REDIS_REPLY_ERROR &&
        std::string_view(r->str, r->len).rfind("NOSCRIPT", 0) == 0) {
      noscript.push_back(i);  // after the pipeline's replies are all read
      continue;
    }
    op.done(FromReply(r.get()));
    op.done = nullptr;
  }
  // Flushed on the server (SCRIPT FLUSH): run those as EVAL; the next batch loads them again.
  for (size_t i : noscript) {
    Op& op = ops[i];
    conn_->shas.erase(op.script);
    std::vector<std::string> argv = {"EVAL", op.script->text};
    argv.insert(argv.end(), op.argv.begin(), op.argv.end());
    ReplyPtr r = Call(conn_->c, argv);
    if (!r) return fail_from(i, ContextError(conn_->c, options_));  // the answered have no done
    op.done(FromReply(r.get()));
    op.done = nullptr;
  }
  // Down until a reconnect's probe write goes through (Open), as when the server is gone.
  if (refused.empty()) return;
  MarkDown(refused);
  for (size_t i : refused_ops) {
    ops[i].done(Status(Code::kUnavailable, options_.name + ": " + refused));
    ops[i].done = nullptr;
  }
}

}  // namespace structure::registry
