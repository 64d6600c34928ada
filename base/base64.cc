#include "base/base64.h"

#include <cstdint>

namespace structure {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int DigitValue(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

}  // namespace

std::string Base64Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    uint32_t v = static_cast<uint32_t>(static_cast<unsigned char>(bytes[i])) << 16 |
                 static_cast<uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8 |
                 static_cast<unsigned char>(bytes[i + 2]);
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  size_t rest = bytes.size() - i;
  if (rest > 0) {
    uint32_t v = static_cast<uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
    if (rest == 2) v |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::optional<std::string> Base64Decode(std::string_view text) {
  std::string out;
  out.reserve(text.size() / 4 * 3);
  uint32_t acc = 0;
  int digits = 0;  // of the current quantum
  int padding = 0;
  for (char ch : text) {
    if (IsSpace(ch)) continue;
    if (ch == '=') {
      ++padding;
      continue;
    }
    if (padding > 0) return std::nullopt;  // a digit after "="
    int v = DigitValue(static_cast<unsigned char>(ch));
    if (v < 0) return std::nullopt;
    acc = acc << 6 | static_cast<uint32_t>(v);
    if (++digits == 4) {
      out += static_cast<char>(acc >> 16);
      out += static_cast<char>((acc >> 8) & 255);
      out += static_cast<char>(acc & 255);
      acc = 0;
      digits = 0;
    }
  }
  if (digits == 1) return std::nullopt;  // 6 bits make no byte
  if (padding > 0 && digits + padding != 4) return std::nullopt;
  if (digits == 2) {
    out += static_cast<char>(acc >> 4);
  } else if (digits == 3) {
    out += static_cast<char>(acc >> 10);
    out += static_cast<char>((acc >> 2) & 255);
  }
  return out;
}

}  // namespace structure
