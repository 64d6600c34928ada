#include "pipeline/validator/uri.h"

#include "base/hex.h"
#include "base/json_pointer.h"

namespace structure::pipeline {
namespace {

struct UriParts {
  std::string scheme, authority, path, query, fragment;
  bool has_scheme = false, has_authority = false, has_query = false, has_fragment = false;
};

UriParts Parse(std::string_view s) {
  UriParts u;
  size_t hash = s.find('#');
  if (hash != std::string_view::npos) {
    u.has_fragment = true;
    u.fragment = std::string(s.substr(hash + 1));
    s = s.substr(0, hash);
  }
  size_t question = s.find('?');
  if (question != std::string_view::npos) {
    u.has_query = true;
    u.query = std::string(s.substr(question + 1));
    s = s.substr(0, question);
  }
  size_t colon = s.find(':');
  size_t slash = s.find('/');
  if (colon != std::string_view::npos && colon > 0 &&
      (slash == std::string_view::npos || colon < slash)) {
    u.has_scheme = true;
    u.scheme = std::string(s.substr(0, colon));
    s = s.substr(colon + 1);
  }
  if (s.starts_with("//")) {
    u.has_authority = true;
    size_t end = s.find('/', 2);
    u.authority = std::string(s.substr(2, end == std::string_view::npos ? s.npos : end - 2));
    s = end == std::string_view::npos ? std::string_view() : s.substr(end);
  }
  u.path = std::string(s);
  return u;
}

std::string RemoveDotSegments(std::string_view in) {
  std::string out;
  std::string input(in);
  while (!input.empty()) {
    if (input.starts_with("../")) {
      input.erase(0, 3);
    } else if (input.starts_with("./")) {
      input.erase(0, 2);
    } else if (input.starts_with("/./")) {
      input.erase(0, 2);
    } else if (input == "/.") {
      input = "/";
    } else if (input.starts_with("/../") || input == "/..") {
      input = input.size() == 3 ? "/" : input.substr(3);
      size_t last = out.rfind('/');
      out.erase(last == std::string::npos ? 0 : last);
    } else if (input == "." || input == "..") {
      input.clear();
    } else {
      size_t start = input[0] == '/' ? 1 : 0;
      size_t next = input.find('/', start);
      out += input.substr(0, next);
      input.erase(0, next == std::string::npos ? input.size() : next);
    }
  }
  return out;
}

std::string Compose(const UriParts& u) {
  std::string out;
  if (u.has_scheme) out += u.scheme + ":";
  if (u.has_authority) out += "//" + u.authority;
  out += u.path;
  if (u.has_query) out += "?" + u.query;
  if (u.has_fragment) out += "#" + u.fragment;
  return out;
}

}  // namespace

std::string ResolveUri(std::string_view base, std::string_view reference) {
  UriParts r = Parse(reference);
  UriParts b = Parse(base);
  UriParts t;
  if (r.has_scheme) {
    t = r;
    t.path = RemoveDotSegments(r.path);
  } else {
    t.scheme = b.scheme;
    t.has_scheme = b.has_scheme;
    if (r.has_authority) {
      t.authority = r.authority;
      t.has_authority = true;
      t.path = RemoveDotSegments(r.path);
      t.query = r.query;
      t.has_query = r.has_query;
    } else {
      t.authority = b.authority;
      t.has_authority = b.has_authority;
      if (r.path.empty()) {
        t.path = b.path;
        t.query = r.has_query ? r.query : b.query;
        t.has_query = r.has_query || b.has_query;
      } else {
        if (r.path[0] == '/') {
          t.path = RemoveDotSegments(r.path);
        } else {
          std::string merged;
          if (b.has_authority && b.path.empty()) {
            merged = "/" + r.path;
          } else {
            size_t last = b.path.rfind('/');
            merged = (last == std::string::npos ? "" : b.path.substr(0, last + 1)) + r.path;
          }
          t.path = RemoveDotSegments(merged);
        }
        t.query = r.query;
        t.has_query = r.has_query;
      }
    }
  }
  t.fragment = r.fragment;
  t.has_fragment = r.has_fragment;
  return Compose(t);
}

std::pair<std::string, std::string> SplitFragment(std::string_view uri) {
  size_t hash = uri.find('#');
  if (hash == std::string_view::npos) return {std::string(uri), ""};
  return {std::string(uri.substr(0, hash)), std::string(uri.substr(hash + 1))};
}

bool ParsePointer(std::string_view pointer, std::vector<std::string>* tokens) {
  auto split = SplitPointer(PercentDecode(pointer));
  if (!split) return false;
  *tokens = std::move(*split);
  return true;
}

}  // namespace structure::pipeline
