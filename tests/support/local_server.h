// Helpers for tests that start local servers (nginx, tinyproxy, redis-server): a free loopback
// port, whether something listens on it, finding an executable, a temporary directory.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace structure::testing {

// A free TCP port on 127.0.0.1 (bound and released: another process may take it meanwhile, so
// callers retry a failed start).
inline int FreeLoopbackPort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(a);
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0) {
    port = ntohs(a.sin_port);
  }
  close(fd);
  return port;
}

// True once something accepts TCP connections on 127.0.0.1:port.
inline bool PortAnswers(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bool ok = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0;
  close(fd);
  return ok;
}

// The first executable called `name` in $PATH, /usr/sbin or /usr/bin; empty when none.
inline std::string FindExecutable(const std::string& name) {
  const char* env = std::getenv("PATH");
  std::string path = std::string(env != nullptr ? env : "") + ":/usr/sbin:/usr/bin:/sbin";
  for (size_t pos = 0; pos <= path.size();) {
    size_t colon = path.find(':', pos);
    if (colon == std::string::npos) colon = path.size();
    std::string candidate = path.substr(pos, colon - pos) + "/" + name;
    if (colon > pos && access(candidate.c_str(), X_OK) == 0) return candidate;
    pos = colon + 1;
  }
  return "";
}

// A fresh 0755 directory under /tmp (reachable by nginx's unprivileged workers when run as
// root); empty on failure.
inline std::string MakeTempDir(const std::string& prefix) {
  std::string tmpl = "/tmp/" + prefix + "-XXXXXX";
  if (mkdtemp(tmpl.data()) == nullptr) return "";
  chmod(tmpl.c_str(), 0755);
  return tmpl;
}

// Runs `command` through the shell; true when it exits 0.
inline bool Shell(const std::string& command) { return std::system(command.c_str()) == 0; }

}  // namespace structure::testing
