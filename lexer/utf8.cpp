// UTF-8 decoding for columns and carets. Only well-formed sequences (RFC
// 3629: no overlong forms, no surrogates, nothing above U+10FFFF) are one
// character; the decoder looks at most 4 bytes ahead and never past the end.
#include "lexer/utf8.h"

namespace simplec {

namespace {

bool isCont(unsigned char c) { return (c & 0xC0) == 0x80; }

struct Range {
  int32_t lo, hi;
};

bool inRanges(int32_t cp, const Range* r, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (cp >= r[i].lo && cp <= r[i].hi) return true;
  return false;
}

// Combining marks and invisible characters: no cell of their own.
constexpr Range kZeroWidth[] = {
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x0610, 0x061A}, {0x064B, 0x065F},
    {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x200B, 0x200F}, {0x202A, 0x202E}, {0x2060, 0x2064},
    {0x20D0, 0x20FF}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF},
};

// East Asian wide and fullwidth characters, and emoji (Markus Kuhn's wcwidth).
constexpr Range kWide[] = {
    {0x1100, 0x115F},   {0x2329, 0x232A},   {0x2E80, 0x303E},   {0x3040, 0xA4CF},
    {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE10, 0xFE19},   {0xFE30, 0xFE6F},
    {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x1F300, 0x1F64F}, {0x1F900, 0x1F9FF},
    {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

}  // namespace

size_t utf8CharLen(std::string_view s, size_t i) {
  auto at = [&](size_t k) -> unsigned char { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0; };
  unsigned char c = at(0);
  if (c < 0x80) return 1;
  // The second byte's range depends on the first, which rules out overlong
  // forms, surrogates and code points above U+10FFFF.
  unsigned char lo = 0x80, hi = 0xBF;
  size_t n;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 1;
  }
  if (at(1) < lo || at(1) > hi) return 1;
  for (size_t k = 2; k < n; k++)
    if (!isCont(at(k))) return 1;
  return n;
}

int32_t utf8Decode(std::string_view s, size_t i) {
  size_t n = utf8CharLen(s, i);
  auto c = static_cast<unsigned char>(s[i]);
  if (n == 1) return c < 0x80 ? c : -1;
  int32_t cp = c & (0x7F >> n);
  for (size_t k = 1; k < n; k++) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  return cp;
}

int utf8DisplayWidth(std::string_view s, size_t i) {
  int32_t cp = utf8Decode(s, i);
  if (cp < 0x300) return 1;  // ASCII, Latin-1, and bad bytes
  if (inRanges(cp, kZeroWidth, sizeof kZeroWidth / sizeof kZeroWidth[0])) return 0;
  if (inRanges(cp, kWide, sizeof kWide / sizeof kWide[0])) return 2;
  return 1;
}

}  // namespace simplec
