#include "base/hex.h"

namespace structure {

std::string Hex64(uint64_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) out[static_cast<size_t>(i)] = kDigits[v & 15];
  return out;
}

std::string PercentDecode(std::string_view text, PlusIs plus) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    int high = i + 2 < text.size() ? HexDigitValue(text[i + 1]) : -1;
    int low = i + 2 < text.size() ? HexDigitValue(text[i + 2]) : -1;
    if (text[i] == '%' && high >= 0 && low >= 0) {
      out += static_cast<char>(high * 16 + low);
      i += 2;
    } else if (text[i] == '+' && plus == PlusIs::kSpace) {
      out += ' ';
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace structure
