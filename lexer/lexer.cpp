// The lexer: one left-to-right pass over the bytes, no recursion, no
// backtracking beyond a fixed few bytes of lookahead, so it is linear in the
// file size. Invariants: every byte is either skipped (whitespace, comment,
// reported bad character) or inside exactly one token; token offsets only grow;
// the result always ends with exactly one Eof, at the end of the file.
#include "lexer/lexer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string_view>

#include "lexer/literal_value.h"
#include "lexer/utf8.h"

namespace simplec {

namespace {

constexpr int kEnd = -1;  // at(): past the end of the file
constexpr size_t kNone = std::string_view::npos;
// Long suffixes are cut in messages: the diagnostic names, it does not dump.
constexpr size_t kMaxQuoted = 32;

bool isDigit(int c) { return c >= '0' && c <= '9'; }
bool isHexDigit(int c) {
  return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool isIdentStart(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isIdentChar(int c) { return isIdentStart(c) || isDigit(c); }
// C's isspace in the "C" locale: a CRLF file or a form feed is fine.
bool isSpace(int c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
int hexValue(int c) {
  if (isDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

// A byte as a message shows it: printable ASCII as itself, others as \xHH.
std::string byteName(unsigned char c) {
  if (c >= 0x20 && c < 0x7f) return std::string(1, static_cast<char>(c));
  static const char kHex[] = "0123456789ABCDEF";
  return std::string("\\x") + kHex[c >> 4] + kHex[c & 15];
}

// A multibyte character as a message shows it: "U+00D7 '×'"; an invisible
// one (a zero-width space, a bidi control) by its code point alone.
std::string charName(std::string_view src, size_t i, size_t n) {
  char hex[16];
  std::snprintf(hex, sizeof hex, "U+%04X", static_cast<unsigned>(utf8Decode(src, i)));
  if (utf8DisplayWidth(src, i) == 0) return hex;
  return std::string(hex) + " '" + std::string(src.substr(i, n)) + "'";
}

std::string clip(std::string_view s) {
  if (s.size() <= kMaxQuoted) return std::string(s);
  return std::string(s.substr(0, kMaxQuoted)) + "...";
}

uint32_t saturate32(size_t v) {
  constexpr size_t kMax = std::numeric_limits<uint32_t>::max();
  return static_cast<uint32_t>(v > kMax ? kMax : v);
}

// The first (leftmost) problem found in a number literal. A malformed number
// gets one diagnostic, not one per defect.
struct FirstError {
  size_t off = kNone;
  std::string msg;
  void note(size_t at, std::string m) {
    if (at < off) {
      off = at;
      msg = std::move(m);
    }
  }
  bool any() const { return off != kNone; }
};

class Lexer {
 public:
  Lexer(const SourceFile& file, DiagEngine& diag)
      : file_(file), diag_(diag), src_(file.text()) {}
  std::vector<Token> run();
  // Lexes the one token that starts at byte `off` on line `line`, which
  // starts at byte lineStart; returns the column just past it.
  uint32_t endColOfTokenAt(size_t off, uint32_t line, size_t lineStart);

 private:
  const SourceFile& file_;
  DiagEngine& diag_;
  std::string_view src_;
  size_t i_ = 0;  // the next unread byte
  std::vector<Token> toks_;
  // posAt() state: the line containing trackOff_ starts at trackLineStart_;
  // in a non-ASCII file the character at trackColOff_ (on that line) is in
  // column trackCol_.
  size_t trackOff_ = 0;
  size_t trackLine_ = 1;
  size_t trackLineStart_ = 0;
  size_t trackColOff_ = 0;
  size_t trackCol_ = 1;

  int at(size_t off) const {
    return off < src_.size() ? static_cast<unsigned char>(src_[off]) : kEnd;
  }
  SrcPos posAt(size_t off);
  void error(size_t off, const std::string& msg) { diag_.error(file_, file_.posOf(off), msg); }
  Token& push(Tok kind, size_t start, size_t end);
  void lexToken();
  uint32_t lastEndCol_ = 0;  // of the token push() made last

  void skipTrivia();
  void lexWord();
  void lexNumber();
  void lexHex(size_t start);
  size_t scanDigitRun(size_t from, bool hex, FirstError& err) const;
  void lexString();
  void lexChar();
  int decodeEscape(size_t& k, bool& bad);
  bool lexPunct();
};

// Token positions come in increasing order, so line:col is found by walking
// forward from the previous one (memchr for newlines) instead of a binary
// search per token. An offset behind the walk falls back to posOf.
SrcPos Lexer::posAt(size_t off) {
  if (off < trackOff_) return file_.posOf(off);
  const char* base = src_.data();
  while (trackOff_ < off) {
    const void* nl = std::memchr(base + trackOff_, '\n', off - trackOff_);
    if (!nl) {
      trackOff_ = off;
      break;
    }
    size_t p = static_cast<size_t>(static_cast<const char*>(nl) - base);
    ++trackLine_;
    trackLineStart_ = p + 1;
    trackOff_ = p + 1;
  }
  SrcPos pos;
  pos.line = saturate32(trackLine_);
  if (file_.isAscii()) {
    pos.col = saturate32(off - trackLineStart_ + 1);
    return pos;
  }
  // Count characters from where the last call stopped on this line; a
  // character that ends past `off` contains it and gives its column.
  if (trackColOff_ < trackLineStart_) {
    trackColOff_ = trackLineStart_;
    trackCol_ = 1;
  }
  while (trackColOff_ < off) {
    size_t n = utf8CharLen(src_, trackColOff_);
    if (trackColOff_ + n > off) break;
    trackColOff_ += n;
    ++trackCol_;
  }
  pos.col = saturate32(trackCol_);
  return pos;
}

Token& Lexer::push(Tok kind, size_t start, size_t end) {
  Token& t = toks_.emplace_back();
  t.kind = kind;
  t.setPos(posAt(start));
  lastEndCol_ = posAt(end).col;  // same line: no token holds a newline
  t.width = uint8_t(std::min<uint32_t>(lastEndCol_ - t.col, Token::kWide));
  return t;
}

std::vector<Token> Lexer::run() {
  // Typical code has one token per 2.5 to 3.5 bytes (dense generated code
  // the fewer). Reserving more than that up front avoids growing the vector
  // (briefly holding it twice: old and new) on a huge file; capacity never
  // touched costs no memory.
  toks_.reserve(src_.size() / 2 + 16);
  // A UTF-8 byte order mark at the start is not part of the program, and
  // line 1 starts after it.
  i_ = trackOff_ = trackLineStart_ = trackColOff_ = file_.textStart();
  for (;;) {
    skipTrivia();
    if (i_ >= src_.size()) break;
    lexToken();
  }
  push(Tok::Eof, src_.size(), src_.size());
  return std::move(toks_);
}

// One token (or one reported stray character) starting at i_.
void Lexer::lexToken() {
  int c = at(i_);
  if (isIdentStart(c)) {
    lexWord();
  } else if (isDigit(c)) {
    lexNumber();
  } else if (c == '"') {
    lexString();
  } else if (c == '\'') {
    lexChar();
  } else if (!lexPunct()) {
    // A well-formed multibyte character is one problem, not one per byte.
    size_t n = utf8CharLen(src_, i_);
    error(i_, n > 1 ? "unexpected character " + charName(src_, i_, n)
                    : "unexpected character '" + byteName(static_cast<unsigned char>(c)) + "'");
    i_ += n;
  }
}

uint32_t Lexer::endColOfTokenAt(size_t off, uint32_t line, size_t lineStart) {
  i_ = off;
  trackOff_ = trackLineStart_ = trackColOff_ = lineStart;
  trackLine_ = line;
  trackCol_ = 1;
  lexToken();
  return toks_.empty() ? 0 : lastEndCol_;
}

// Whitespace, "// ..." to end of line, "/* ... */" (not nested).
void Lexer::skipTrivia() {
  const size_t n = src_.size();
  while (i_ < n) {
    int c = at(i_);
    if (isSpace(c)) {
      ++i_;
    } else if (c == '/' && at(i_ + 1) == '/') {
      const void* nl = std::memchr(src_.data() + i_ + 2, '\n', n - (i_ + 2));
      i_ = nl ? static_cast<size_t>(static_cast<const char*>(nl) - src_.data()) : n;
    } else if (c == '/' && at(i_ + 1) == '*') {
      // The search starts after "/*", so "/*/" does not close itself.
      size_t close = src_.find("*/", i_ + 2);
      if (close == kNone) {
        error(i_, "unterminated block comment");
        i_ = n;
      } else {
        i_ = close + 2;
      }
    } else {
      break;
    }
  }
}

// word = [A-Za-z_][A-Za-z0-9_]* ; keywords and type names are words too.
void Lexer::lexWord() {
  size_t start = i_;
  size_t j = i_ + 1;
  while (isIdentChar(at(j))) ++j;
  std::string_view word = src_.substr(start, j - start);
  Token& t = push(classifyWord(word), start, j);
  t.text = word;
  i_ = j;
}

// Consumes [digits _]* from `from`. A '_' must sit between two digits
// ("1_000"); the first one that does not is noted in `err`.
size_t Lexer::scanDigitRun(size_t from, bool hex, FirstError& err) const {
  auto digit = [hex](int c) { return hex ? isHexDigit(c) : isDigit(c); };
  size_t j = from;
  for (;;) {
    int c = at(j);
    if (digit(c)) {
      ++j;
    } else if (c == '_') {
      if (!(j > from && digit(at(j - 1)) && digit(at(j + 1))))
        err.note(j, "misplaced '_' in number");
      ++j;
    } else {
      return j;
    }
  }
}

// number = digits ["." digits] [("e"|"E") ["+"|"-"] digits] | "0x" hexdigits
// where digits may contain single '_' separators. "1." followed by a
// non-digit is the integer 1 and a Dot, so "1.x" and "a.1.b" stay
// unambiguous; letters glued to a number are an invalid suffix.
void Lexer::lexNumber() {
  size_t start = i_;
  if (at(start) == '0' && (at(start + 1) == 'x' || at(start + 1) == 'X')) {
    lexHex(start);
    return;
  }
  FirstError err;
  size_t intEnd = scanDigitRun(start, false, err);
  size_t j = intEnd;
  bool isFloat = false;
  if (at(j) == '.' && isDigit(at(j + 1))) {
    isFloat = true;
    j = scanDigitRun(j + 1, false, err);
  }
  if (at(j) == 'e' || at(j) == 'E') {
    size_t k = j + 1;
    if (at(k) == '+' || at(k) == '-') ++k;
    if (isDigit(at(k))) {
      isFloat = true;
      j = scanDigitRun(k, false, err);
    }
  }
  size_t numEnd = j;
  if (isIdentChar(at(j))) {
    while (isIdentChar(at(j))) ++j;
    err.note(numEnd, "invalid suffix '" + clip(src_.substr(numEnd, j - numEnd)) + "' on " +
                         (isFloat ? "float" : "integer") + " literal");
  }

  Token& t = push(isFloat ? Tok::FloatLit : Tok::IntLit, start, j);
  t.text = src_.substr(start, j - start);
  i_ = j;

  if (isFloat) {
    // Underflow to a denormal or zero is accepted, as C does.
    if (!err.any() && std::isinf(floatLiteralValue(t))) err.note(start, "float literal out of range");
  } else {
    size_t digits = 0;
    for (size_t k = start; k < numEnd; ++k) digits += src_[k] != '_';
    if (digits > 1 && at(start) == '0') err.note(start, "leading zero in integer literal");
    if (!err.any()) {
      // Above 2^63 is intTooLarge, which the parser reports where the
      // literal is used (2^63 itself is valid after a unary minus).
      bool tooLarge = false;
      decimalDigitsValue(src_.substr(start, numEnd - start), tooLarge);
      t.intTooLarge = tooLarge;
    }
  }
  t.bad = err.any();
  if (err.any()) error(err.off, err.msg);
}

// "0x" hexdigits: all 64 bits may be used (0xFFFF_FFFF_FFFF_FFFF is -1).
void Lexer::lexHex(size_t start) {
  FirstError err;
  size_t digitsFrom = start + 2;
  size_t numEnd = scanDigitRun(digitsFrom, true, err);
  size_t j = numEnd;
  if (isIdentChar(at(j))) {
    while (isIdentChar(at(j))) ++j;
    err.note(numEnd, "invalid suffix '" + clip(src_.substr(numEnd, j - numEnd)) +
                         "' on integer literal");
  }
  bool anyDigit = false;
  for (size_t k = digitsFrom; k < numEnd; ++k) anyDigit |= at(k) != '_';
  if (!anyDigit)
    err.note(start, "missing digits after '" + std::string(src_.substr(start, 2)) + "'");

  Token& t = push(Tok::IntLit, start, j);
  t.text = src_.substr(start, j - start);
  t.isHex = true;
  if (!err.any()) {
    bool tooLarge = false;
    hexDigitsValue(src_.substr(digitsFrom, numEnd - digitsFrom), tooLarge);
    t.intTooLarge = tooLarge;
  }
  t.bad = err.any();
  i_ = j;
  if (err.any()) error(err.off, err.msg);
}

// Decodes the escape whose backslash is at src_[k] and moves k past it. The
// caller guarantees a byte other than '\n' follows the backslash. A bad
// escape is reported at the backslash and sets `bad`.
int Lexer::decodeEscape(size_t& k, bool& bad) {
  size_t bs = k;
  int e = at(k + 1);
  k += 2;
  switch (e) {
    case 'n': return '\n';
    case 't': return '\t';
    case 'r': return '\r';
    case '0': return 0;
    case '\\': return '\\';
    case '"': return '"';
    case '\'': return '\'';
    case 'x':
      if (isHexDigit(at(k)) && isHexDigit(at(k + 1))) {
        int v = hexValue(at(k)) * 16 + hexValue(at(k + 1));
        k += 2;
        return v;
      }
      error(bs, "escape sequence '\\x' needs two hex digits");
      bad = true;
      return 0;
    default:
      error(bs, "invalid escape sequence '\\" + byteName(static_cast<unsigned char>(e)) + "'");
      bad = true;
      return e;
  }
}

// string = '"' (byte except '"' '\\' newline | escape)* '"'. An unterminated
// string ends at the newline; the token still holds what was read.
void Lexer::lexString() {
  size_t start = i_;
  size_t k = start + 1;
  std::string bytes;
  bool bad = false;
  for (;;) {
    int c = at(k);
    if (c == kEnd || c == '\n') {
      error(start, "unterminated string literal");
      break;
    }
    if (c == '"') {
      ++k;
      break;
    }
    if (c == '\\') {
      int e = at(k + 1);
      if (e == kEnd || e == '\n') {
        ++k;  // the loop then reports the string unterminated
        continue;
      }
      bytes += static_cast<char>(decodeEscape(k, bad));
      continue;
    }
    // Copy a run of plain bytes at once.
    size_t runEnd = k + 1;
    while (runEnd < src_.size()) {
      char r = src_[runEnd];
      if (r == '"' || r == '\\' || r == '\n') break;
      ++runEnd;
    }
    bytes.append(src_.data() + k, runEnd - k);
    k = runEnd;
  }
  Token& t = push(Tok::StrLit, start, k);
  t.text = bytes;
  i_ = k;
}

// char = "'" (byte except "'" '\\' newline | escape) "'" ; the text is the byte.
// After a problem the token is a CharLit of value 0 (bad, no text).
void Lexer::lexChar() {
  size_t start = i_;
  size_t k = start + 1;
  int c = at(k);
  bool bad = false;
  uint64_t value = 0;
  if (c == kEnd || c == '\n' || (c == '\\' && (at(k + 1) == kEnd || at(k + 1) == '\n'))) {
    error(start, "unterminated character literal");
    if (c == '\\') ++k;
  } else if (c == '\'') {
    error(start, "empty character literal");
    ++k;
  } else {
    if (c == '\\') {
      value = static_cast<unsigned char>(decodeEscape(k, bad));
    } else {
      value = static_cast<unsigned char>(c);
      ++k;
    }
    if (at(k) == '\'') {
      ++k;
    } else {
      // More than one element: find the closing quote on this line.
      for (;;) {
        int d = at(k);
        if (d == kEnd || d == '\n') {
          if (!bad) error(start, "unterminated character literal");
          break;
        }
        if (d == '\'') {
          ++k;
          if (!bad) error(start, "character literal has more than one byte");
          break;
        }
        if (d == '\\' && at(k + 1) != kEnd && at(k + 1) != '\n')
          k += 2;
        else
          ++k;
      }
      bad = true;
    }
  }
  Token& t = push(Tok::CharLit, start, k);
  t.bad = bad;
  char byte = static_cast<char>(value);
  if (!bad) t.text = std::string_view(&byte, 1);
  i_ = k;
}

// Punctuation by maximal munch: the longest operator that matches wins
// (">>>=" before ">>>" before ">>=" before ">>" before ">=" before ">").
bool Lexer::lexPunct() {
  int c = at(i_), c1 = at(i_ + 1), c2 = at(i_ + 2), c3 = at(i_ + 3);
  Tok k;
  size_t len = 1;
  auto two = [&](int next, Tok pair, Tok single) {
    if (c1 == next) {
      k = pair;
      len = 2;
    } else {
      k = single;
    }
  };
  switch (c) {
    case '(': k = Tok::LParen; break;
    case ')': k = Tok::RParen; break;
    case '{': k = Tok::LBrace; break;
    case '}': k = Tok::RBrace; break;
    case '[': k = Tok::LBracket; break;
    case ']': k = Tok::RBracket; break;
    case ',': k = Tok::Comma; break;
    case ';': k = Tok::Semi; break;
    case '.': k = Tok::Dot; break;
    case '#': k = Tok::Hash; break;
    case '?': k = Tok::Question; break;
    case ':': k = Tok::Colon; break;
    case '~': k = Tok::Tilde; break;
    case '*': two('=', Tok::StarAssign, Tok::Star); break;
    case '/': two('=', Tok::SlashAssign, Tok::Slash); break;
    case '%': two('=', Tok::PercentAssign, Tok::Percent); break;
    case '^': two('=', Tok::CaretAssign, Tok::Caret); break;
    case '=': two('=', Tok::Eq, Tok::Assign); break;
    case '!': two('=', Tok::Ne, Tok::Bang); break;
    case '+':
      if (c1 == '+') { k = Tok::PlusPlus; len = 2; }
      else two('=', Tok::PlusAssign, Tok::Plus);
      break;
    case '-':
      if (c1 == '-') { k = Tok::MinusMinus; len = 2; }
      else if (c1 == '>') { k = Tok::Arrow; len = 2; }
      else two('=', Tok::MinusAssign, Tok::Minus);
      break;
    case '&':
      if (c1 == '&') { k = Tok::AndAnd; len = 2; }
      else two('=', Tok::AmpAssign, Tok::Amp);
      break;
    case '|':
      if (c1 == '|') { k = Tok::OrOr; len = 2; }
      else two('=', Tok::PipeAssign, Tok::Pipe);
      break;
    case '<':
      if (c1 == '<') {
        if (c2 == '=') { k = Tok::ShlAssign; len = 3; }
        else { k = Tok::Shl; len = 2; }
      } else {
        two('=', Tok::Le, Tok::Lt);
      }
      break;
    case '>':
      if (c1 == '>') {
        if (c2 == '>') {
          if (c3 == '=') { k = Tok::ShrAssign; len = 4; }
          else { k = Tok::Shr; len = 3; }
        } else if (c2 == '=') {
          k = Tok::SarAssign; len = 3;
        } else {
          k = Tok::Sar; len = 2;
        }
      } else {
        two('=', Tok::Ge, Tok::Gt);
      }
      break;
    default:
      return false;
  }
  push(k, i_, i_ + len);
  i_ += len;
  return true;
}

}  // namespace

std::vector<Token> tokenize(const SourceFile& file, DiagEngine& diag) {
  Lexer lexer(file, diag);
  return lexer.run();
}

uint32_t tokenEndCol(const SourceFile& file, const Token& t) {
  if (t.width < Token::kWide) return t.col + t.width;
  std::string_view line = file.lineText(t.line);
  size_t lineStart = size_t(line.data() - file.text().data());
  size_t off = lineStart + file.lineOffsetOf(t.pos());
  DiagEngine quiet;
  quiet.hold();
  Lexer lexer(file, quiet);
  uint32_t end = lexer.endColOfTokenAt(off, t.line, lineStart);
  quiet.discard();
  // Lexing again always finds the same token; should it not, the width
  // kept is a lower bound.
  return std::max(end, t.col + Token::kWide);
}

SrcPos tokenEnd(const SourceFile& file, const Token& t) {
  SrcPos end = t.pos();
  end.col = tokenEndCol(file, t);
  return end;
}

}  // namespace simplec
