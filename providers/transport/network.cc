#include "providers/transport/network.h"

#include <arpa/inet.h>
#include <sys/stat.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace structure::providers {
namespace {

std::string Env(const GetEnvFn& getenv_fn, const char* name) {
  const char* v = getenv_fn ? getenv_fn(name) : std::getenv(name);
  return v ? std::string(v) : std::string();
}

// The first non-empty of the lower- and upper-case variable, with the name it came from.
std::string EnvPair(const GetEnvFn& getenv_fn, const char* lower, const char* upper) {
  std::string v = Env(getenv_fn, lower);
  return v.empty() ? Env(getenv_fn, upper) : v;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Host and port of "scheme://[user@]host[:port][/...]" or "host[:port]".
struct Authority {
  std::string host;
  std::string port;
  bool bracketed = false;
};

Authority AuthorityOf(std::string_view url) {
  size_t p = url.find("://");
  std::string_view rest = p == std::string_view::npos ? url : url.substr(p + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (size_t at = rest.rfind('@'); at != std::string_view::npos) rest.remove_prefix(at + 1);
  Authority a;
  if (!rest.empty() && rest[0] == '[') {
    size_t close = rest.find(']');
    a.bracketed = true;
    a.host = std::string(rest.substr(1, close == std::string_view::npos ? rest.size() : close - 1));
    if (close != std::string_view::npos && close + 1 < rest.size() && rest[close + 1] == ':')
      a.port = std::string(rest.substr(close + 2));
    return a;
  }
  size_t colon = rest.rfind(':');
  a.host = std::string(rest.substr(0, colon));
  if (colon != std::string_view::npos) a.port = std::string(rest.substr(colon + 1));
  return a;
}

bool Ipv4InNetwork(std::string_view host, std::string_view network) {
  size_t slash = network.find('/');
  std::string addr(network.substr(0, slash));
  int bits = std::atoi(std::string(network.substr(slash + 1)).c_str());
  in_addr h{}, n{};
  if (bits < 0 || bits > 32 || inet_pton(AF_INET, std::string(host).c_str(), &h) != 1 ||
      inet_pton(AF_INET, addr.c_str(), &n) != 1) {
    return false;
  }
  uint32_t mask = bits == 0 ? 0 : ~uint32_t{0} << (32 - bits);
  return (ntohl(h.s_addr) & mask) == (ntohl(n.s_addr) & mask);
}

Status CheckReadableFile(const std::string& what, const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    return InvalidArgument(what + ": cannot read '" + path + "' (" + std::strerror(errno) + ")");
  }
  if (!S_ISREG(st.st_mode)) return InvalidArgument(what + ": '" + path + "' is not a file");
  std::ifstream f(path);
  if (!f) return InvalidArgument(what + ": cannot read '" + path + "'");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("-----BEGIN CERTIFICATE-----", 0) == 0) return Status::Ok();
  }
  return InvalidArgument(what + ": '" + path +
                         "' holds no PEM certificate (no -----BEGIN CERTIFICATE----- line)");
}

Status CheckDirectory(const std::string& what, const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    return InvalidArgument(what + ": cannot read '" + path + "' (" + std::strerror(errno) + ")");
  }
  if (!S_ISDIR(st.st_mode)) return InvalidArgument(what + ": '" + path + "' is not a directory");
  return Status::Ok();
}

}  // namespace

std::string HostOf(std::string_view url) { return Lower(AuthorityOf(url).host); }

bool NoProxyMatches(std::string_view no_proxy, std::string_view host_in) {
  std::string host = Lower(host_in);
  while (!host.empty() && host.back() == '.') host.pop_back();
  for (size_t pos = 0; pos <= no_proxy.size();) {
    size_t comma = no_proxy.find(',', pos);
    if (comma == std::string_view::npos) comma = no_proxy.size();
    std::string_view raw = Trim(no_proxy.substr(pos, comma - pos));
    pos = comma + 1;
    if (raw.empty()) continue;
    if (raw == "*") return true;
    std::string entry = Lower(raw);
    if (entry.find('/') != std::string::npos) {
      if (Ipv4InNetwork(host, entry)) return true;
      continue;
    }
    Authority a = AuthorityOf(entry);  // drops a port, and brackets of an IPv6 entry
    entry = a.host;
    while (!entry.empty() && entry.front() == '.') entry.erase(0, 1);
    while (!entry.empty() && entry.back() == '.') entry.pop_back();
    if (entry.empty()) continue;
    if (host == entry) return true;
    if (host.size() > entry.size() &&
        host.compare(host.size() - entry.size(), entry.size(), entry) == 0 &&
        host[host.size() - entry.size() - 1] == '.') {
      return true;
    }
  }
  return false;
}

std::string ProxyFromEnv(std::string_view url, const GetEnvFn& getenv_fn) {
  std::string scheme = Lower(url.substr(0, url.find("://")));
  std::string proxy = scheme == "https" ? EnvPair(getenv_fn, "https_proxy", "HTTPS_PROXY")
                                        : EnvPair(getenv_fn, "http_proxy", "HTTP_PROXY");
  if (proxy.empty()) proxy = EnvPair(getenv_fn, "all_proxy", "ALL_PROXY");
  if (proxy.empty()) return "";
  if (NoProxyMatches(EnvPair(getenv_fn, "no_proxy", "NO_PROXY"), HostOf(url))) return "";
  if (proxy.find("://") == std::string::npos) proxy = "http://" + proxy;
  return proxy;
}

Status CheckProxyUrl(std::string_view url) {
  auto bad = [&](const std::string& why) {
    return InvalidArgument("not a proxy URL: '" + RedactProxy(url) + "' (" + why + ")");
  };
  std::string_view rest = url;
  if (size_t p = url.find("://"); p != std::string_view::npos) {
    std::string scheme = Lower(url.substr(0, p));
    if (scheme != "http" && scheme != "https" && scheme != "socks4" && scheme != "socks4a" &&
        scheme != "socks5" && scheme != "socks5h") {
      return bad("the scheme must be http, https, socks4, socks4a, socks5 or socks5h");
    }
    rest = url.substr(p + 3);
  }
  for (char c : rest) {
    if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f)
      return bad("it contains a space or control character");
  }
  Authority a = AuthorityOf(url);
  if (a.host.empty()) return bad("no host");
  if (!a.port.empty() || (!a.bracketed && rest.substr(0, rest.find('/')).back() == ':')) {
    int n = 0;
    bool digits = !a.port.empty() && a.port.size() <= 5;
    for (char c : a.port) {
      digits = digits && c >= '0' && c <= '9';
      n = n * 10 + (c - '0');
    }
    if (!digits || n < 1 || n > 65535) return bad("the port must be 1..65535");
  }
  return Status::Ok();
}

std::string RedactProxy(std::string_view url) {
  size_t start = url.find("://");
  start = start == std::string_view::npos ? 0 : start + 3;
  std::string_view authority = url.substr(start, url.find('/', start) - start);
  size_t at = authority.rfind('@');
  if (at == std::string_view::npos) return std::string(url);
  return std::string(url.substr(0, start)) + "***@" + std::string(url.substr(start + at + 1));
}

Result<NetworkOptions> ResolveNetwork(const NetworkConfig& config, std::string_view base_url,
                                      const GetEnvFn& getenv_fn, std::string* warning) {
  NetworkOptions out;
  out.verify_tls = config.verify_tls;
  out.connect_timeout_ms = config.connect_timeout_ms;
  if (config.proxy) {
    out.proxy = *config.proxy;
    if (!out.proxy.empty()) {
      Status st = CheckProxyUrl(out.proxy);
      if (!st.ok()) return InvalidArgument("proxy: " + st.message());
    }
  } else {
    out.proxy = ProxyFromEnv(base_url, getenv_fn);
    Status st = out.proxy.empty() ? Status::Ok() : CheckProxyUrl(out.proxy);
    if (!st.ok()) return InvalidArgument("the proxy variable of the environment: " + st.message());
  }
  out.ca_file = config.ca_file;
  std::string ca_file_source = "ca_file";
  if (out.ca_file.empty()) {
    out.ca_file = Env(getenv_fn, "SSL_CERT_FILE");
    ca_file_source = "SSL_CERT_FILE (environment)";
  }
  if (!out.ca_file.empty())
    STRUCTURE_RETURN_IF_ERROR(CheckReadableFile(ca_file_source, out.ca_file));
  out.ca_path = config.ca_path;
  std::string ca_path_source = "ca_path";
  if (out.ca_path.empty()) {
    out.ca_path = Env(getenv_fn, "SSL_CERT_DIR");
    ca_path_source = "SSL_CERT_DIR (environment)";
  }
  if (!out.ca_path.empty()) STRUCTURE_RETURN_IF_ERROR(CheckDirectory(ca_path_source, out.ca_path));
  if (!out.verify_tls && !IsLoopbackUrl(base_url) && warning != nullptr) {
    *warning = "WARNING: verify_tls = false for " + HostOf(base_url) +
               ": its TLS certificate is not checked, so anyone on the network path can read "
               "and change every call and the API key; set ca_file to the CA that signed it "
               "instead";
  }
  return out;
}

}  // namespace structure::providers
