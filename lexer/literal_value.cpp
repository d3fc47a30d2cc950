// Literal values from token spellings.
#include "lexer/literal_value.h"

#include <cstdlib>
#include <string>

namespace simplec {

namespace {

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

uint64_t decimalDigitsValue(std::string_view s, bool& tooLarge) {
  // 2^63 itself is kept (valid only after a unary minus: the parser decides).
  constexpr uint64_t kMax = uint64_t(1) << 63;
  uint64_t v = 0;
  tooLarge = false;
  for (char ch : s) {
    if (ch == '_') continue;
    if (ch < '0' || ch > '9') break;
    uint64_t d = uint64_t(ch - '0');
    if (v > (kMax - d) / 10) {
      tooLarge = true;
      return 0;
    }
    v = v * 10 + d;
  }
  return v;
}

uint64_t hexDigitsValue(std::string_view s, bool& tooLarge) {
  uint64_t v = 0;
  tooLarge = false;
  for (char ch : s) {
    if (ch == '_') continue;
    int d = hexDigit(ch);
    if (d < 0) break;
    if (v >> 60) tooLarge = true;
    v = (v << 4) | uint64_t(d);
  }
  return tooLarge ? 0 : v;
}

uint64_t intLiteralValue(const Token& t) {
  if (t.kind != Tok::IntLit || t.bad || t.intTooLarge) return 0;
  std::string_view s = t.text;
  bool tooLarge = false;
  return t.isHex ? hexDigitsValue(s.substr(2), tooLarge) : decimalDigitsValue(s, tooLarge);
}

double floatLiteralValue(const Token& t) {
  if (t.kind != Tok::FloatLit || t.bad) return 0.0;
  std::string clean;
  for (char ch : std::string_view(t.text))
    if (ch != '_') clean += ch;
  // strtod in the "C" locale (the compiler never calls setlocale).
  return std::strtod(clean.c_str(), nullptr);
}

uint64_t charLiteralValue(const Token& t) {
  if (t.kind != Tok::CharLit || t.bad || t.text.size() != 1) return 0;
  return static_cast<unsigned char>(t.text[0]);
}

}  // namespace simplec
