// A private PostgreSQL server for tests (Debian's postgresql package): initdb into a temporary
// directory (trust authentication for the user "structure"), postgres on a free loopback port,
// no durability (fsync off: a test's data is thrown away). PostgreSQL refuses to run as root:
// when the tests run as root the server runs as the user "postgres" (or "nobody") through
// setpriv, which also kills it when the test process dies. It can be stopped and started again
// on the same port with its data (the outage tests), and is stopped on destruction.
#pragma once

#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <pwd.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/child_process.h"
#include "tests/support/local_server.h"

namespace structure::testing {

class PostgresServer {
 public:
  // Starts a server (within 30 s); nullptr with *error otherwise (e.g. postgresql missing).
  // `settings` adds "-c NAME=VALUE" settings (e.g. "max_connections=5").
  static std::unique_ptr<PostgresServer> Start(std::string* error,
                                               std::vector<std::string> settings = {}) {
    std::string bin = BinDir();
    if (bin.empty()) {
      *error =
          "PostgreSQL's initdb not found (install the postgresql package: /usr/lib/"
          "postgresql/<version>/bin)";
      return nullptr;
    }
    std::unique_ptr<PostgresServer> s(new PostgresServer(bin));
    s->settings_ = std::move(settings);
    if (!s->InitDb(error)) return nullptr;
    for (int attempt = 0; attempt < 5; ++attempt) {
      s->port_ = FreeLoopbackPort();
      if (s->port_ > 0 && s->Run(error)) return s;
    }
    return nullptr;
  }

  ~PostgresServer() {
    Stop();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);  // best effort
  }

  int port() const { return port_; }
  // The URL of `database` ("postgres" exists from the start; CreateDatabase makes others).
  std::string url(const std::string& database = "postgres") const {
    return "postgresql://structure@127.0.0.1:" + std::to_string(port_) + "/" + database;
  }
  bool running() const { return child_ != nullptr; }

  // A fresh empty place for one test's tables: a new schema of the database "postgres" (a new
  // database takes a second to copy), named by the URL's search_path. Its URL, or "" (with a
  // test failure).
  std::string FreshUrl() {
    static std::atomic<int> counter{0};
    std::string name = "t" + std::to_string(getpid()) + "_" + std::to_string(counter++);
    std::string result = Exec("CREATE SCHEMA " + name);
    EXPECT_EQ(result, "") << result;
    return result.empty()
               ? url() + "?options=-csearch_path%3D" + name + "%20-cclient_min_messages%3Dwarning"
               : "";
  }

  // Runs `sql` on `url` (the default database when empty): "" on success, else the error.
  std::string Exec(const std::string& sql, const std::string& url = "") const {
    PGconn* conn = PQconnectdb((url.empty() ? this->url() : url).c_str());
    std::string error;
    if (PQstatus(conn) != CONNECTION_OK) {
      error = PQerrorMessage(conn);
    } else {
      PGresult* r = PQexec(conn, sql.c_str());
      ExecStatusType st = PQresultStatus(r);
      if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) error = PQresultErrorMessage(r);
      PQclear(r);
    }
    PQfinish(conn);
    return error;
  }

  // Fast shutdown (SIGINT: clients are disconnected, committed data stays).
  void Stop() {
    if (!child_) return;
    child_->Signal(SIGINT);
    child_->Stop(std::chrono::seconds(20));
    child_.reset();
  }
  // Starts it again on the same port with the same data; false with *error when it fails.
  bool Restart(std::string* error) { return Run(error); }

 private:
  explicit PostgresServer(std::string bin) : bin_(std::move(bin)) {
    static std::atomic<int> counter{0};
    dir_ = ::testing::TempDir() + "postgres_" + std::to_string(getpid()) + "_" +
           std::to_string(counter++);
    std::filesystem::remove_all(dir_);
    mkdir(dir_.c_str(), 0700);
    if (geteuid() == 0) {
      const passwd* pw = getpwnam("postgres");
      if (!pw) pw = getpwnam("nobody");
      if (pw) {
        uid_ = pw->pw_uid;
        gid_ = pw->pw_gid;
        int ignored = chown(dir_.c_str(), uid_, gid_);
        (void)ignored;
      }
    }
  }

  // The newest /usr/lib/postgresql/<version>/bin holding initdb, else initdb's folder on PATH.
  static std::string BinDir() {
    std::string best;
    int best_version = -1;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator("/usr/lib/postgresql", ec)) {
      std::string v = e.path().filename().string();
      if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos) continue;
      if (access((e.path() / "bin/initdb").c_str(), X_OK) != 0) continue;
      if (std::stoi(v) > best_version) {
        best_version = std::stoi(v);
        best = (e.path() / "bin").string();
      }
    }
    if (!best.empty()) return best;
    std::string initdb = FindExecutable("initdb");
    return initdb.empty() ? "" : std::filesystem::path(initdb).parent_path().string();
  }

  // As the server's user when the tests run as root.
  std::vector<std::string> As(std::vector<std::string> argv) const {
    if (geteuid() != 0) return argv;
    std::vector<std::string> out = {"/usr/bin/setpriv",
                                    "--pdeathsig",
                                    "KILL",
                                    "--reuid=" + std::to_string(uid_),
                                    "--regid=" + std::to_string(gid_),
                                    "--clear-groups"};
    out.insert(out.end(), argv.begin(), argv.end());
    return out;
  }

  bool InitDb(std::string* error) {
    auto child =
        ChildProcess::Spawn(As({bin_ + "/initdb", "-D", dir_ + "/data", "-A", "trust", "-U",
                                "structure", "-E", "UTF8", "--no-sync", "--no-instructions"}),
                            ChildIo{"", dir_ + "/initdb.log", dir_ + "/initdb.log"}, error);
    if (!child) return false;
    int code = child->WaitFor(60);
    if (code == 0) return true;
    *error = "initdb failed (exit " + std::to_string(code) + ", see " + dir_ + "/initdb.log)";
    return false;
  }

  bool Run(std::string* error) {
    std::vector<std::string> argv = {bin_ + "/postgres",
                                     "-D",
                                     dir_ + "/data",
                                     "-p",
                                     std::to_string(port_),
                                     "-k",
                                     dir_,
                                     "-c",
                                     "listen_addresses=127.0.0.1",
                                     "-c",
                                     "fsync=off",
                                     "-c",
                                     "synchronous_commit=off",
                                     "-c",
                                     "full_page_writes=off"};
    for (const std::string& s : settings_) {
      argv.push_back("-c");
      argv.push_back(s);
    }
    child_ = ChildProcess::Spawn(As(argv), ChildIo{"", dir_ + "/log", dir_ + "/log"}, error);
    if (!child_) return false;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    std::string conninfo = "host=127.0.0.1 port=" + std::to_string(port_) +
                           " user=structure dbname=postgres connect_timeout=2";
    while (std::chrono::steady_clock::now() < deadline) {
      if (child_->Exited()) break;  // e.g. the port was taken meanwhile
      if (PQping(conninfo.c_str()) == PQPING_OK) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    *error = "postgres on port " + std::to_string(port_) + " did not answer (see " + dir_ + "/log)";
    child_->Stop(std::chrono::seconds(5));
    child_.reset();
    return false;
  }

  std::string bin_;
  std::vector<std::string> settings_;
  std::string dir_;
  uid_t uid_ = 0;
  gid_t gid_ = 0;
  int port_ = 0;
  std::unique_ptr<ChildProcess> child_;
};

// One server for a whole test binary, started on first use and stopped at exit; nullptr (with
// a test failure naming why) when it cannot start.
inline PostgresServer* SharedPostgres() {
  static std::string error;
  static std::unique_ptr<PostgresServer> server = PostgresServer::Start(&error);
  EXPECT_NE(server, nullptr) << error;
  return server.get();
}

}  // namespace structure::testing
