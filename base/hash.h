// FNV-1a, 64 bits: the project's one fast, stable, non-cryptographic hash of bytes (cache keys,
// shard numbers, the simulator's seeds). Not for secrets or for input an attacker picks to
// collide (base/sha256.h is).
#pragma once

#include <cstdint>
#include <string_view>

namespace structure {

inline constexpr uint64_t kFnv1a64Basis = 0xcbf29ce484222325ULL;  // the offset basis
inline constexpr uint64_t kFnv1a64Prime = 0x100000001b3ULL;

// FNV-1a of `bytes`, continuing from `h`: Fnv1a64(b, Fnv1a64(a)) == Fnv1a64(a + b).
constexpr uint64_t Fnv1a64(std::string_view bytes, uint64_t h = kFnv1a64Basis) {
  for (unsigned char c : bytes) {
    h ^= c;
    h *= kFnv1a64Prime;
  }
  return h;
}

// One FNV-1a step over a whole 64-bit word (not its bytes): for hashing a sequence of numbers.
constexpr uint64_t Fnv1a64Word(uint64_t word, uint64_t h) { return (h ^ word) * kFnv1a64Prime; }

}  // namespace structure
