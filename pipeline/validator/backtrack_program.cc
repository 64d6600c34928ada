#include "pipeline/validator/backtrack_program.h"

namespace structure::pipeline::backtrack {

const Ranges kDigit = {{'0', '9'}};
const Ranges kWord = {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};
const Ranges kSpace = {{9, 13},          {32, 32},         {0xA0, 0xA0},     {0x1680, 0x1680},
                       {0x2000, 0x200A}, {0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F},
                       {0x3000, 0x3000}, {0xFEFF, 0xFEFF}};

bool InRanges(const Ranges& ranges, uint32_t c) {
  for (const auto& [lo, hi] : ranges) {
    if (c >= lo && c <= hi) return true;
  }
  return false;
}

bool IsWordChar(uint32_t c) { return InRanges(kWord, c); }
bool IsLineTerminator(uint32_t c) { return c == '\n' || c == '\r' || c == 0x2028 || c == 0x2029; }

}  // namespace structure::pipeline::backtrack
