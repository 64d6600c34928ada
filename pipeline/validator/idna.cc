#include "pipeline/validator/idna.h"

#include <algorithm>

#include <re2/re2.h>

#include "base/utf8.h"

namespace structure::pipeline {
namespace {

constexpr uint32_t kBase = 36, kTmin = 1, kTmax = 26, kSkew = 38, kDamp = 700;

uint32_t Adapt(uint32_t delta, uint32_t points, bool first) {
  delta = first ? delta / kDamp : delta / 2;
  delta += delta / points;
  uint32_t k = 0;
  while (delta > ((kBase - kTmin) * kTmax) / 2) {
    delta /= kBase - kTmin;
    k += kBase;
  }
  return k + (kBase - kTmin + 1) * delta / (delta + kSkew);
}

int DigitValue(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= '0' && c <= '9') return c - '0' + 26;
  return -1;
}

bool HasProperty(uint32_t cp, const re2::RE2& re) {
  std::string s;
  AppendUtf8(s, cp);
  return re2::RE2::FullMatch(s, re);
}

constexpr uint32_t kViramas[] = {
    0x094D,  0x09CD,  0x0A4D,  0x0ACD,  0x0B4D,  0x0BCD,  0x0C4D,  0x0CCD,  0x0D3B,  0x0D3C,
    0x0D4D,  0x0DCA,  0x0E3A,  0x0EBA,  0x0F84,  0x1039,  0x103A,  0x1714,  0x1734,  0x17D2,
    0x1A60,  0x1B44,  0x1BAA,  0x1BAB,  0x1BF2,  0x1BF3,  0x2D7F,  0xA806,  0xA8C4,  0xA953,
    0xA9C0,  0xAAF6,  0xABED,  0x10A3F, 0x11046, 0x110B9, 0x11133, 0x11134, 0x111C0, 0x11235,
    0x112EA, 0x1134D, 0x11442, 0x114C2, 0x115BF, 0x1163F, 0x116B6, 0x1172B, 0x11839, 0x119E0,
    0x11A34, 0x11A47, 0x11A99, 0x11C3F, 0x11D44, 0x11D45, 0x11D97};

}  // namespace

bool DecodePunycode(std::string_view input, std::u32string* output) {
  output->clear();
  size_t b = input.rfind('-');
  size_t pos = 0;
  if (b != std::string_view::npos) {
    for (size_t j = 0; j < b; ++j) {
      if (static_cast<unsigned char>(input[j]) >= 0x80) return false;
      output->push_back(static_cast<unsigned char>(input[j]));
    }
    pos = b + 1;
  }
  uint64_t i = 0, n = 128, bias = 72;
  while (pos < input.size()) {
    uint64_t old_i = i, w = 1;
    for (uint64_t k = kBase;; k += kBase) {
      if (pos >= input.size()) return false;
      int digit = DigitValue(input[pos++]);
      if (digit < 0) return false;
      i += digit * w;
      if (i > 0x10FFFF * 64ULL) return false;
      uint64_t t = k <= bias ? kTmin : k >= bias + kTmax ? kTmax : k - bias;
      if (static_cast<uint64_t>(digit) < t) break;
      w *= kBase - t;
      if (w > 0x10FFFF * 64ULL) return false;
    }
    uint64_t points = output->size() + 1;
    bias = Adapt(static_cast<uint32_t>(i - old_i), static_cast<uint32_t>(points), old_i == 0);
    n += i / points;
    i %= points;
    if (n > 0x10FFFF || (n >= 0xD800 && n <= 0xDFFF)) return false;
    output->insert(output->begin() + i, static_cast<char32_t>(n));
    ++i;
  }
  return true;
}

bool IsValidALabel(std::string_view label) {
  std::u32string u;
  if (label.size() < 5 || !DecodePunycode(label.substr(4), &u) || u.empty()) return false;
  if (u.size() >= 4 && u[2] == '-' && u[3] == '-') return false;
  static const re2::RE2 kMark("\\p{M}");
  static const re2::RE2 kGreek("\\p{Greek}");
  static const re2::RE2 kHebrew("\\p{Hebrew}");
  static const re2::RE2 kJapanese("[\\p{Hiragana}\\p{Katakana}\\p{Han}]");
  if (HasProperty(u[0], kMark)) return false;
  bool arabic_indic = false, extended_arabic_indic = false, japanese = false, katakana_dot = false;
  for (size_t k = 0; k < u.size(); ++k) {
    uint32_t c = u[k];
    if (c == 0x0640 || c == 0x07FA || c == 0x302E || c == 0x302F || (c >= 0x3031 && c <= 0x3035) ||
        c == 0x303B) {
      return false;  // RFC 5892 section 2.6 exceptions: DISALLOWED
    }
    if (c == 0x00B7 && !(k > 0 && u[k - 1] == 'l' && k + 1 < u.size() && u[k + 1] == 'l'))
      return false;
    if (c == 0x0375 && !(k + 1 < u.size() && HasProperty(u[k + 1], kGreek))) return false;
    if ((c == 0x05F3 || c == 0x05F4) && !(k > 0 && HasProperty(u[k - 1], kHebrew))) return false;
    if (c == 0x200D) {
      if (k == 0 ||
          std::find(std::begin(kViramas), std::end(kViramas), u[k - 1]) == std::end(kViramas))
        return false;
    }
    if (c >= 0x0660 && c <= 0x0669) arabic_indic = true;
    if (c >= 0x06F0 && c <= 0x06F9) extended_arabic_indic = true;
    if (c == 0x30FB) {
      katakana_dot = true;
    } else if (HasProperty(c, kJapanese)) {
      japanese = true;
    }
  }
  if (arabic_indic && extended_arabic_indic) return false;
  if (katakana_dot && !japanese) return false;
  return true;
}

}  // namespace structure::pipeline
