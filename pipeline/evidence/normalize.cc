#include "pipeline/evidence/normalize.h"

#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/utf16.h>
#include <unicode/utf8.h>

namespace structure::pipeline::evidence {
namespace {

const UNormalizer2* Nfkc() {
  // ICU caches the instance; the pointer stays valid for the process.
  static const UNormalizer2* instance = [] {
    UErrorCode err = U_ZERO_ERROR;
    const UNormalizer2* n = unorm2_getNFKCCasefoldInstance(&err);
    return U_SUCCESS(err) ? n : nullptr;
  }();
  return instance;
}

// Typographic forms NFKC keeps apart from their ASCII look-alikes.
UChar32 FoldPunctuation(UChar32 c) {
  switch (c) {
    case 0x2018:
    case 0x2019:
    case 0x201A:
    case 0x201B:
    case 0x2032:
    case 0x00B4:
    case 0x0060:
      return '\'';
    case 0x201C:
    case 0x201D:
    case 0x201E:
    case 0x201F:
    case 0x2033:
    case 0x00AB:
    case 0x00BB:
      return '"';
    case 0x2010:
    case 0x2011:
    case 0x2012:
    case 0x2013:
    case 0x2014:
    case 0x2015:
    case 0x2212:
      return '-';
    // The Arabic decimal and thousands separators and percent sign, beside Arabic-Indic digits.
    case 0x066B:
      return '.';
    case 0x066C:
      return ',';
    case 0x066A:
      return '%';
    default:
      return c;
  }
}

UChar32 NextCodePoint(std::string_view s, size_t* i) {
  UChar32 c;
  int32_t at = static_cast<int32_t>(*i);
  U8_NEXT(reinterpret_cast<const uint8_t*>(s.data()), at, static_cast<int32_t>(s.size()), c);
  *i = static_cast<size_t>(at);
  return c < 0 ? 0xFFFD : c;
}

class Builder {
 public:
  Builder(NormalizedText* out, bool keep_map) : out_(out), keep_map_(keep_map) {}

  void Emit(UChar32 c, uint32_t begin, uint32_t end) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' ||
        (c >= 0x80 && u_isUWhiteSpace(c))) {
      if (!pending_space_) space_begin_ = begin;
      pending_space_ = true;
      space_end_ = end;
      return;
    }
    if (pending_space_ && !out_->text.empty()) Push(' ', space_begin_, space_end_);
    pending_space_ = false;
    c = FoldPunctuation(c);
    // Every decimal digit (Unicode Nd: Arabic-Indic, Devanagari, ...) reads as its ASCII digit;
    // NFKC folds only the compatibility forms (full-width).
    if (c >= 0x80 && u_charType(c) == U_DECIMAL_DIGIT_NUMBER) c = '0' + u_charDigitValue(c);
    if (c < 0x80) {
      Push(static_cast<char>(c), begin, end);
      return;
    }
    char buf[4];
    int32_t n = 0;
    U8_APPEND_UNSAFE(reinterpret_cast<uint8_t*>(buf), n, c);
    for (int32_t k = 0; k < n; ++k) Push(buf[k], begin, end);
  }

 private:
  void Push(char b, uint32_t begin, uint32_t end) {
    out_->text += b;
    if (keep_map_) {
      out_->origin_begin.push_back(begin);
      out_->origin_end.push_back(end);
    }
  }

  NormalizedText* out_;
  bool keep_map_;
  bool pending_space_ = false;
  uint32_t space_begin_ = 0, space_end_ = 0;
};

void Run(std::string_view s, NormalizedText* out, bool keep_map) {
  out->text.reserve(s.size());
  if (keep_map) {
    out->origin_begin.reserve(s.size());
    out->origin_end.reserve(s.size());
  }
  Builder b(out, keep_map);
  const UNormalizer2* n2 = Nfkc();
  std::vector<UChar> in16, out16(64);
  size_t i = 0;
  while (i < s.size()) {
    size_t begin = i;
    UChar32 c = NextCodePoint(s, &i);
    bool next_ascii = i >= s.size() || static_cast<unsigned char>(s[i]) < 0x80;
    if (c < 0x80 && next_ascii) {
      if (c >= 'A' && c <= 'Z') c += 'a' - 'A';
      b.Emit(c, static_cast<uint32_t>(begin), static_cast<uint32_t>(i));
      continue;
    }
    // One segment: the code point and the following ones that normalise together with it.
    in16.clear();
    auto append16 = [&](UChar32 cp) {
      UChar units[2];
      int32_t n = 0;
      U16_APPEND_UNSAFE(units, n, cp);
      in16.insert(in16.end(), units, units + n);
    };
    append16(c);
    while (i < s.size() && n2 != nullptr) {
      size_t peek = i;
      UChar32 d = NextCodePoint(s, &peek);
      if (unorm2_hasBoundaryBefore(n2, d)) break;
      append16(d);
      i = peek;
    }
    uint32_t sb = static_cast<uint32_t>(begin), se = static_cast<uint32_t>(i);
    if (n2 == nullptr) {
      b.Emit(c, sb, se);
      continue;
    }
    UErrorCode err = U_ZERO_ERROR;
    int32_t len = unorm2_normalize(n2, in16.data(), static_cast<int32_t>(in16.size()), out16.data(),
                                   static_cast<int32_t>(out16.size()), &err);
    if (err == U_BUFFER_OVERFLOW_ERROR) {
      out16.resize(static_cast<size_t>(len) + 1);
      err = U_ZERO_ERROR;
      len = unorm2_normalize(n2, in16.data(), static_cast<int32_t>(in16.size()), out16.data(),
                             static_cast<int32_t>(out16.size()), &err);
    }
    if (U_FAILURE(err)) {
      b.Emit(c, sb, se);
      continue;
    }
    for (int32_t k = 0; k < len;) {
      UChar32 cp;
      U16_NEXT(out16.data(), k, len, cp);
      b.Emit(cp, sb, se);
    }
  }
}

}  // namespace

NormalizedText Normalize(std::string_view text) {
  NormalizedText out;
  Run(text, &out, true);
  return out;
}

std::string NormalizeString(std::string_view text) {
  NormalizedText out;
  Run(text, &out, false);
  return std::move(out.text);
}

}  // namespace structure::pipeline::evidence
