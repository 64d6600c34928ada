#include "sim/prompt_cache.h"

#include <string>
#include <vector>

#include "base/hash.h"
#include "providers/prompt_cache.h"
#include "sim/rng.h"

namespace structure::sim {
namespace {

constexpr size_t kBlockBytes = 512;  // 128 tokens of 4 bytes

// One piece of the prompt in the order the provider reads it: tools, the response schema, then
// the messages. `tag` separates pieces of equal text in different roles without counting bytes.
struct Piece {
  std::string_view text;
  std::string_view tag;
  bool breakpoint = false;
};

std::vector<Piece> Pieces(const ChatRequest& r) {
  std::vector<Piece> out;
  for (const ToolSpec& t : r.tools) {
    out.push_back({t.name, "tool", false});
    out.push_back({t.schema.text(), "tool-schema", t.cache_breakpoint});
  }
  if (!r.schema->is_null()) out.push_back({r.schema.text(), "schema", false});
  for (const ChatMessage& m : r.messages) out.push_back({m.text, m.role, m.cache_breakpoint});
  return out;
}

uint64_t MixTag(uint64_t h, std::string_view tag) { return Fnv1a64(tag, h ^ 0x9e37ULL); }

}  // namespace

int64_t CacheMinTokens(Provider provider, std::string_view model) {
  switch (provider) {
    case Provider::kOpenAi:
      return providers::DocumentedCacheMinTokens(providers::ProviderKind::kOpenAi, model);
    case Provider::kAnthropic:
      return providers::DocumentedCacheMinTokens(providers::ProviderKind::kAnthropic, model);
    case Provider::kGemini:
      return providers::DocumentedCacheMinTokens(providers::ProviderKind::kGemini, model);
    case Provider::kOllama:
      return 0;
  }
  return 0;
}

bool PromptCache::Seen(uint64_t hash) {
  if (seen_.size() > 1000000) seen_.clear();
  return !seen_.insert(hash).second;
}

void PromptCache::Reset() {
  std::lock_guard<std::mutex> lock(mu_);
  seen_.clear();
}

CacheUsage PromptCache::Account(const ChatRequest& request, int64_t min_tokens) {
  if (min_tokens <= 0) return {};
  if (request.provider == Provider::kAnthropic) return AccountMarked(request, min_tokens);
  if (request.provider == Provider::kOllama) return {};
  return AccountImplicit(request, min_tokens);
}

// The running hash at every block boundary of the prompt's bytes; a prefix is cached when its
// block hash was seen before (the model is part of the hash: caches are per model).
CacheUsage PromptCache::AccountImplicit(const ChatRequest& request, int64_t min_tokens) {
  std::vector<uint64_t> blocks;
  uint64_t h = Fnv1a64(request.model);
  size_t in_block = 0;
  for (const Piece& p : Pieces(request)) {
    h = MixTag(h, p.tag);
    std::string_view rest = p.text;
    while (!rest.empty()) {
      size_t take = std::min(rest.size(), kBlockBytes - in_block);
      h = Fnv1a64(rest.substr(0, take), h);
      rest.remove_prefix(take);
      in_block += take;
      if (in_block == kBlockBytes) {
        blocks.push_back(h);
        in_block = 0;
      }
    }
  }
  size_t hits = 0;
  std::lock_guard<std::mutex> lock(mu_);
  bool prefix = true;
  for (uint64_t b : blocks) {
    bool seen = Seen(b);
    if (prefix && seen)
      ++hits;
    else
      prefix = false;
  }
  int64_t tokens = static_cast<int64_t>(hits * kBlockBytes / 4);
  return {tokens >= min_tokens ? tokens : 0, 0};
}

// Each breakpoint ends a prefix; the longest one seen before is read, the last one (when longer)
// is written. Prefixes below the minimum are not cached at all.
CacheUsage PromptCache::AccountMarked(const ChatRequest& request, int64_t min_tokens) {
  struct Mark {
    uint64_t hash;
    int64_t tokens;
  };
  std::vector<Mark> marks;
  uint64_t h = Fnv1a64(request.model);
  size_t bytes = 0;
  for (const Piece& p : Pieces(request)) {
    h = Fnv1a64(p.text, MixTag(h, p.tag));
    bytes += p.text.size();
    if (p.breakpoint) marks.push_back({h, static_cast<int64_t>(bytes / 4)});
  }
  CacheUsage u;
  std::lock_guard<std::mutex> lock(mu_);
  for (const Mark& m : marks) {
    if (m.tokens < min_tokens) continue;
    if (Seen(m.hash)) {
      u.read = m.tokens;
      u.written = 0;
    } else {
      u.written = m.tokens - u.read;
    }
  }
  return u;
}

}  // namespace structure::sim
