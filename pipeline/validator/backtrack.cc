// A continuation-passing backtracking matcher over code points. Bounded three ways: a step
// budget per search, a bound on the stack its own recursion may take (measured in bytes
// against the calling thread's real stack, so a counted group like (a{2}){600} fits however
// large the frames of this build are), and single-character repetitions that loop instead of
// recursing.
#include "pipeline/validator/backtrack.h"

#include <pthread.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "base/utf8.h"
#include "pipeline/validator/backtrack_program.h"

namespace structure::pipeline {
namespace {

using namespace backtrack;

// Stack the matcher may use below its first frame: what the thread has left, minus a margin
// for the callers' own needs, capped. Without the thread's bounds, a conservative 1 MiB.
constexpr size_t kStackMargin = size_t{1} << 20;
constexpr size_t kStackCap = size_t{16} << 20;

size_t StackBudget(const char* here) {
  thread_local const char* low = [] {
    const char* out = nullptr;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      void* addr = nullptr;
      size_t size = 0;
      if (pthread_attr_getstack(&attr, &addr, &size) == 0) out = static_cast<const char*>(addr);
      pthread_attr_destroy(&attr);
    }
    return out;
  }();
  if (low == nullptr || here <= low) return size_t{1} << 20;
  size_t left = static_cast<size_t>(here - low);
  return left > kStackMargin ? std::min(left - kStackMargin, kStackCap) : 0;
}

struct Cont {
  enum Type { kAccept, kSeqNext, kRepeatNext, kGroupClose, kLookBehindEnd } type;
  int node = -1;
  int index = 0;   // kSeqNext: next kid; kRepeatNext: iterations done
  size_t pos = 0;  // kRepeatNext: where the iteration started; kLookBehindEnd: required end
  const Cont* next = nullptr;
};

class Matcher {
 public:
  Matcher(const EcmaRegex::Backtracker& prog, const std::vector<uint32_t>& s, uint64_t max_steps)
      : prog_(prog), s_(s), max_steps_(max_steps), caps_(2 * prog.groups, SIZE_MAX) {}

  bool Search(bool* limit) {
    base_ = static_cast<const char*>(__builtin_frame_address(0));
    stack_budget_ = StackBudget(base_);
    Cont accept{Cont::kAccept};
    for (size_t start = 0; start <= s_.size(); ++start) {
      if (Match(prog_.root, start, &accept)) return true;
      if (limit_) break;
      if (prog_.anchored) break;
    }
    *limit = limit_;
    return false;
  }

 private:
  bool Charge() {
    const char* frame = static_cast<const char*>(__builtin_frame_address(0));
    if (++steps_ > max_steps_ || static_cast<size_t>(base_ - frame) > stack_budget_) limit_ = true;
    return !limit_;
  }

  bool SetMatches(const RNode& n, uint32_t c) const {
    bool any = false;
    for (const ClassItem& item : n.items) {
      if (InRanges(item.ranges, c) != item.negate) {
        any = true;
        break;
      }
    }
    return any != n.negate;
  }

  bool SingleChar(const RNode& n, size_t i) const {
    if (i >= s_.size()) return false;
    if (n.kind == RK::kAny) return !IsLineTerminator(s_[i]);
    return SetMatches(n, s_[i]);
  }

  bool Match(int id, size_t i, const Cont* k) {
    if (!Charge()) return false;
    const RNode& n = prog_.nodes[id];
    switch (n.kind) {
      case RK::kEmpty:
        return Next(k, i);
      case RK::kSet:
      case RK::kAny:
        return SingleChar(n, i) && Next(k, i + 1);
      case RK::kBol:
        return i == 0 && Next(k, i);
      case RK::kEol:
        return i == s_.size() && Next(k, i);
      case RK::kWordBoundary:
      case RK::kNotWordBoundary: {
        bool a = i > 0 && IsWordChar(s_[i - 1]);
        bool b = i < s_.size() && IsWordChar(s_[i]);
        return ((a != b) == (n.kind == RK::kWordBoundary)) && Next(k, i);
      }
      case RK::kSeq: {
        if (n.kids.empty()) return Next(k, i);
        Cont c{Cont::kSeqNext, id, 1, 0, k};
        return Match(n.kids[0], i, &c);
      }
      case RK::kAlt:
        for (int kid : n.kids) {
          if (Match(kid, i, k)) return true;
          if (limit_) return false;
        }
        return false;
      case RK::kGroup: {
        if (n.group < 0) return Match(n.child, i, k);
        size_t old_start = caps_[2 * n.group];
        caps_[2 * n.group] = i;
        Cont c{Cont::kGroupClose, id, 0, 0, k};
        if (Match(n.child, i, &c)) return true;
        caps_[2 * n.group] = old_start;
        return false;
      }
      case RK::kRepeat:
        return Repeat(id, 0, i, k);
      case RK::kLook: {
        Cont accept{Cont::kAccept};
        bool found = false;
        if (n.ahead) {
          found = Match(n.child, i, &accept);
        } else {
          Cont end{Cont::kLookBehindEnd, id, 0, i, &accept};
          for (size_t j = i + 1; j-- > 0 && !found && !limit_;) found = Match(n.child, j, &end);
        }
        if (limit_) return false;
        return found != n.negate && Next(k, i);
      }
      case RK::kBackref: {
        size_t a = caps_[2 * n.group], b = caps_[2 * n.group + 1];
        if (a == SIZE_MAX || b == SIZE_MAX || b < a) return Next(k, i);
        size_t len = b - a;
        if (i + len > s_.size()) return false;
        for (size_t x = 0; x < len; ++x) {
          if (s_[a + x] != s_[i + x]) return false;
        }
        return Next(k, i + len);
      }
    }
    return false;
  }

  bool Repeat(int id, int count, size_t i, const Cont* k) {
    const RNode& n = prog_.nodes[id];
    const RNode& child = prog_.nodes[n.child];
    if (child.kind == RK::kSet || child.kind == RK::kAny) {
      // Single characters: count the run, then try continuation lengths without recursion.
      size_t run = 0;
      size_t limit = n.max == kUnbounded ? SIZE_MAX : static_cast<size_t>(n.max - count);
      while (run < limit && SingleChar(child, i + run)) ++run;
      size_t need = n.min > count ? static_cast<size_t>(n.min - count) : 0;
      if (run < need) return false;
      if (n.greedy) {
        for (size_t j = run + 1; j-- > need;) {
          if (Next(k, i + j)) return true;
          if (limit_ || !Charge()) return false;
        }
      } else {
        for (size_t j = need; j <= run; ++j) {
          if (Next(k, i + j)) return true;
          if (limit_ || !Charge()) return false;
        }
      }
      return false;
    }
    Cont c{Cont::kRepeatNext, id, count + 1, i, k};
    if (count < n.min) return Match(n.child, i, &c);
    bool can_more = n.max == kUnbounded || count < n.max;
    if (n.greedy) {
      if (can_more && Match(n.child, i, &c)) return true;
      if (limit_) return false;
      return Next(k, i);
    }
    if (Next(k, i)) return true;
    if (limit_) return false;
    return can_more && Match(n.child, i, &c);
  }

  bool Next(const Cont* k, size_t i) {
    if (!Charge()) return false;
    switch (k->type) {
      case Cont::kAccept:
        return true;
      case Cont::kLookBehindEnd:
        return i == k->pos && Next(k->next, i);
      case Cont::kSeqNext: {
        const RNode& n = prog_.nodes[k->node];
        if (static_cast<size_t>(k->index) >= n.kids.size()) return Next(k->next, i);
        Cont c{Cont::kSeqNext, k->node, k->index + 1, 0, k->next};
        return Match(n.kids[k->index], i, &c);
      }
      case Cont::kRepeatNext: {
        const RNode& n = prog_.nodes[k->node];
        if (i == k->pos && k->index > n.min) return false;  // an empty iteration ends the loop
        return Repeat(k->node, k->index, i, k->next);
      }
      case Cont::kGroupClose: {
        const RNode& n = prog_.nodes[k->node];
        size_t old_end = caps_[2 * n.group + 1];
        caps_[2 * n.group + 1] = i;
        if (Next(k->next, i)) return true;
        caps_[2 * n.group + 1] = old_end;
        return false;
      }
    }
    return false;
  }

  const EcmaRegex::Backtracker& prog_;
  const std::vector<uint32_t>& s_;
  uint64_t max_steps_;
  uint64_t steps_ = 0;
  const char* base_ = nullptr;
  size_t stack_budget_ = 0;
  bool limit_ = false;
  std::vector<size_t> caps_;
};

}  // namespace

bool BacktrackSearch(const EcmaRegex::Backtracker& program, std::string_view subject,
                     uint64_t max_steps, bool* step_limit_hit) {
  std::vector<uint32_t> s = DecodeUtf8(subject);
  Matcher matcher(program, s, max_steps);
  bool limit = false;
  bool found = matcher.Search(&limit);
  if (step_limit_hit != nullptr) *step_limit_hit = limit;
  return found;
}

}  // namespace structure::pipeline
