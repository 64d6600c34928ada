#include "providers/transport/curl_header_lists.h"

#include <string>

namespace structure::providers {
namespace {

curl_slist* Build(const HttpHeaders& headers) {
  curl_slist* list = nullptr;
  std::string line;
  for (const auto& [k, v] : headers) {
    line.assign(k).append(": ").append(v);
    list = curl_slist_append(list, line.c_str());
  }
  return curl_slist_append(list, "Expect:");
}

}  // namespace

curl_slist* CurlHeaderLists::For(const HttpHeaders& headers, bool* owned) {
  *owned = false;
  for (const Shared& s : shared_) {
    if (s.headers == headers) return s.list;
  }
  curl_slist* list = Build(headers);
  if (shared_.size() < kShared) {
    shared_.push_back({headers, list});
  } else {
    *owned = true;
  }
  return list;
}

void CurlHeaderLists::Clear() {
  for (Shared& s : shared_) curl_slist_free_all(s.list);
  shared_.clear();
}

}  // namespace structure::providers
