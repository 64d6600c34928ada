#include "config/unknown_key.h"

#include <algorithm>
#include <cctype>

namespace structure::config {
namespace {

// Lower case without '_' and '-': max_loops, maxLoops and max-loops read alike.
std::string Folded(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '_' || c == '-') continue;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

size_t Distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

bool LooksLikeASecret(const std::string& folded) {
  for (const char* s : {"apikey", "key", "token", "secret", "password", "pass", "pw", "bearertoken",
                        "accesstoken", "sharedpassword"}) {
    if (folded == s) return true;
  }
  return false;
}

}  // namespace

std::string UnknownKeyMessage(std::string_view key, const std::vector<std::string_view>& known) {
  std::string folded = Folded(key);
  if (LooksLikeASecret(folded)) {
    for (std::string_view k : known) {
      if (k.size() > 4 && k.substr(k.size() - 4) == "_env") {
        return "unknown key: a secret is never written in the config file; put it in an "
               "environment variable and name the variable with " +
               std::string(k) + " = \"VARIABLE\"";
      }
    }
  }
  if (folded.size() > 64) return "unknown key";
  std::string best;
  size_t best_distance = 3;
  for (std::string_view k : known) {
    std::string candidate = Folded(k);
    size_t d = candidate == folded ? 0 : Distance(folded, candidate);
    // At most 2 edits, and fewer than a third of the key: "ttl" is not a typo of "tpm".
    if (d < best_distance && d * 3 < std::max<size_t>(folded.size(), 3)) {
      best = std::string(k);
      best_distance = d;
    }
  }
  if (!best.empty()) return "unknown key (did you mean " + best + "?)";
  std::string list;
  for (std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
  return "unknown key (known: " + list + ")";
}

}  // namespace structure::config
