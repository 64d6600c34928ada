#include "config/database_url.h"

namespace structure::config {
namespace {

constexpr std::string_view kSchemes[] = {"postgresql://", "postgres://"};

std::string_view AfterScheme(std::string_view url) {
  for (std::string_view scheme : kSchemes) {
    if (url.substr(0, scheme.size()) == scheme) return url.substr(scheme.size());
  }
  return {};
}

}  // namespace

bool IsPostgresUrl(std::string_view location) {
  for (std::string_view scheme : kSchemes) {
    if (location.substr(0, scheme.size()) == scheme) return true;
  }
  return false;
}

Status CheckPostgresUrl(std::string_view url) {
  std::string_view rest = AfterScheme(url);
  size_t end = rest.find_first_of("/?");
  std::string_view authority = rest.substr(0, end);
  std::string_view query;
  if (size_t q = rest.find('?'); q != std::string_view::npos) query = rest.substr(q + 1);
  const std::string where =
      "the password must not be in the URL; set it in the environment "
      "variable PGPASSWORD or in ~/.pgpass (PGPASSFILE names another file)";
  if (size_t at = authority.rfind('@'); at != std::string_view::npos) {
    if (authority.substr(0, at).find(':') != std::string_view::npos) {
      return InvalidArgument(where);
    }
    authority = authority.substr(at + 1);
  }
  for (size_t start = 0; start <= query.size();) {
    size_t amp = query.find('&', start);
    std::string_view param = query.substr(start, amp == std::string_view::npos ? amp : amp - start);
    if (param.substr(0, 9) == "password=") return InvalidArgument(where);
    if (amp == std::string_view::npos) break;
    start = amp + 1;
  }
  return Status::Ok();
}

std::string DescribePostgresUrl(std::string_view url) {
  return std::string(url.substr(0, url.find('?')));
}

}  // namespace structure::config
