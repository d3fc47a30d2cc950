// Tests for the lexer on bad input: every diagnostic with its position, the
// tokens produced after an error (lexing always continues), and robustness:
// random bytes, pathological inputs and large files must end in one Eof.
#include <catch2/catch.hpp>
#include <cstring>
#include <random>

#include "lexer/lexer.h"
#include "lexer/literal_value.h"
#include "test/unit/lexer/lex_helpers.h"

using namespace simplec;
using simplec::test::errorLines;
using simplec::test::kindsOf;
using simplec::test::lc;
using simplec::test::Lexed;
using simplec::test::lexText;
using V = std::vector<Tok>;
using S = std::vector<std::string>;

namespace {

// Lexes `src` and returns its "LINE:COL: error: MSG" lines.
S errorsOf(const std::string& src) {
  Lexed l = lexText(src);
  S lines = errorLines(l);
  CHECK(static_cast<int>(lines.size()) == l.errors);
  CHECK(l.toks.back().kind == Tok::Eof);
  return lines;
}

}  // namespace

TEST_CASE("unexpected characters are reported and skipped", "[lexer][errors]") {
  Lexed l = lexText("a @ b");
  CHECK(errorLines(l) == S{"1:3: error: unexpected character '@'"});
  CHECK(kindsOf(l) == V{Tok::Ident, Tok::Ident});
  CHECK(lc(l.toks[1].pos()) == "1:5");

  CHECK(errorsOf("$") == S{"1:1: error: unexpected character '$'"});
  CHECK(errorsOf("`") == S{"1:1: error: unexpected character '`'"});
  CHECK(errorsOf("x\\") == S{"1:2: error: unexpected character '\\'"});
  CHECK(errorsOf(std::string("a\0b", 3)) == S{"1:2: error: unexpected character '\\x00'"});
  CHECK(errorsOf("\x80") == S{"1:1: error: unexpected character '\\x80'"});
  CHECK(errorsOf("\x7f") == S{"1:1: error: unexpected character '\\x7F'"});
  CHECK(errorsOf("\x01") == S{"1:1: error: unexpected character '\\x01'"});
  CHECK(errorsOf("\n  \x1b") == S{"2:3: error: unexpected character '\\x1B'"});
  // A well-formed multibyte character is one error, one column; a broken
  // sequence is one error per byte.
  CHECK(errorsOf("caf\xC3\xA9 x \xC3") == S{"1:4: error: unexpected character U+00E9 '\xC3\xA9'",
                                            "1:8: error: unexpected character '\\xC3'"});
  Lexed l2 = lexText("a \xE2\x80\x8B\xC3\x97 b");  // zero-width space, then ×
  CHECK(errorLines(l2) == S{"1:3: error: unexpected character U+200B",
                            "1:4: error: unexpected character U+00D7 '\xC3\x97'"});
  REQUIRE(l2.toks.size() == 3);
  CHECK(lc(l2.toks[1].pos()) == "1:6");
  CHECK(errorsOf("\xE4\xB8") == S{"1:1: error: unexpected character '\\xE4'",
                                   "1:2: error: unexpected character '\\xB8'"});
}

TEST_CASE("the full diagnostic shows the line and a caret", "[lexer][errors]") {
  Lexed l = lexText("val x = 1;\n\tx = 0 @ 2;\n");
  CHECK(l.diags ==
        "t.smp:2:8: error: unexpected character '@'\n"
        "\tx = 0 @ 2;\n"
        "\t      ^\n");
}

TEST_CASE("unterminated block comment is reported at its start", "[lexer][errors]") {
  Lexed l = lexText("x /* abc\n\n");
  CHECK(errorLines(l) == S{"1:3: error: unterminated block comment"});
  CHECK(kindsOf(l) == V{Tok::Ident});
  CHECK(lc(l.toks.back().pos()) == "3:1");
  CHECK(errorsOf("/*/") == S{"1:1: error: unterminated block comment"});
  CHECK(errorsOf("a\n  /* */ /* *") == S{"2:9: error: unterminated block comment"});
}

TEST_CASE("leading zero in a decimal literal", "[lexer][errors]") {
  Lexed l = lexText("x = 012;");
  CHECK(errorLines(l) == S{"1:5: error: leading zero in integer literal"});
  CHECK(kindsOf(l) == V{Tok::Ident, Tok::Assign, Tok::IntLit, Tok::Semi});
  CHECK(intLiteralValue(l.toks[2]) == 0);
  CHECK(lc(l.end(l.toks[2])) == "1:8");
  CHECK(errorsOf("00") == S{"1:1: error: leading zero in integer literal"});
  CHECK(errorsOf("0_1") == S{"1:1: error: leading zero in integer literal"});
  CHECK(errorsOf("0_") == S{"1:2: error: misplaced '_' in number"});  // not a leading zero: one digit
  CHECK(errorsOf("01_") == S{"1:1: error: leading zero in integer literal"});
  CHECK(errorsOf("09abc") == S{"1:1: error: leading zero in integer literal"});
  // Not integers: no leading-zero rule.
  CHECK(errorsOf("0 0.5 00.5 0x00 0e1").empty());
}

TEST_CASE("misplaced digit separators", "[lexer][errors]") {
  const char* msg = ": error: misplaced '_' in number";
  CHECK(errorsOf("1_") == S{std::string("1:2") + msg});
  CHECK(errorsOf("1__0") == S{std::string("1:2") + msg});
  CHECK(errorsOf("1_000_") == S{std::string("1:6") + msg});
  CHECK(errorsOf("0x_1") == S{std::string("1:3") + msg});
  CHECK(errorsOf("0x1__2") == S{std::string("1:4") + msg});
  CHECK(errorsOf("1.5_") == S{std::string("1:4") + msg});
  CHECK(errorsOf("1e5_") == S{std::string("1:4") + msg});
  CHECK(errorsOf("1_abc") == S{std::string("1:2") + msg});  // one error per literal
  Lexed l = lexText("1_.5");
  CHECK(errorLines(l) == S{std::string("1:2") + msg});
  CHECK(kindsOf(l) == V{Tok::FloatLit});
}

TEST_CASE("hex literal without digits", "[lexer][errors]") {
  Lexed l = lexText("0x;");
  CHECK(errorLines(l) == S{"1:1: error: missing digits after '0x'"});
  CHECK(kindsOf(l) == V{Tok::IntLit, Tok::Semi});
  CHECK(intLiteralValue(l.toks[0]) == 0);
  Lexed g = lexText("0Xg y");
  CHECK(errorLines(g) == S{"1:1: error: missing digits after '0X'"});
  CHECK(kindsOf(g) == V{Tok::IntLit, Tok::Ident});
  CHECK(lc(g.end(g.toks[0])) == "1:4");
  CHECK(errorsOf("0x") == S{"1:1: error: missing digits after '0x'"});
  CHECK(errorsOf("0x_") == S{"1:1: error: missing digits after '0x'"});
}

TEST_CASE("invalid suffixes on number literals", "[lexer][errors]") {
  Lexed l = lexText("12abc;");
  CHECK(errorLines(l) == S{"1:3: error: invalid suffix 'abc' on integer literal"});
  CHECK(kindsOf(l) == V{Tok::IntLit, Tok::Semi});
  CHECK(lc(l.end(l.toks[0])) == "1:6");
  CHECK(l.toks[0].text == "12abc");
  CHECK(intLiteralValue(l.toks[0]) == 0);
  CHECK(errorsOf("1.5f") == S{"1:4: error: invalid suffix 'f' on float literal"});
  CHECK(errorsOf("2.0e-3x1") == S{"1:7: error: invalid suffix 'x1' on float literal"});
  CHECK(errorsOf("0x1Fg") == S{"1:5: error: invalid suffix 'g' on integer literal"});
  CHECK(errorsOf("0x1x") == S{"1:4: error: invalid suffix 'x' on integer literal"});
  CHECK(errorsOf("1e") == S{"1:2: error: invalid suffix 'e' on integer literal"});
  CHECK(errorsOf("1e_5") == S{"1:2: error: invalid suffix 'e_5' on integer literal"});
  Lexed e = lexText("1e+2e");
  CHECK(errorLines(e) == S{"1:5: error: invalid suffix 'e' on float literal"});
  Lexed plus = lexText("1e+");
  CHECK(errorLines(plus) == S{"1:2: error: invalid suffix 'e' on integer literal"});
  CHECK(kindsOf(plus) == V{Tok::IntLit, Tok::Plus});
  std::string longSuffix(40, 'a');
  CHECK(errorsOf("7" + longSuffix) ==
        S{"1:2: error: invalid suffix '" + std::string(32, 'a') + "...' on integer literal"});
}

TEST_CASE("float literal out of range", "[lexer][errors]") {
  Lexed l = lexText("x = 1e400;");
  CHECK(errorLines(l) == S{"1:5: error: float literal out of range"});
  CHECK(kindsOf(l) == V{Tok::Ident, Tok::Assign, Tok::FloatLit, Tok::Semi});
  CHECK(floatLiteralValue(l.toks[2]) == 0.0);
  CHECK(errorsOf("1" + std::string(400, '0') + ".0") ==
        S{"1:1: error: float literal out of range"});
}

TEST_CASE("invalid escape sequences are reported at the backslash", "[lexer][errors]") {
  Lexed s = lexText("\"a\\qb\"");
  CHECK(errorLines(s) == S{"1:3: error: invalid escape sequence '\\q'"});
  CHECK(kindsOf(s) == V{Tok::StrLit});
  CHECK(s.toks[0].text == "aqb");
  Lexed c = lexText("'\\q' 1");
  CHECK(errorLines(c) == S{"1:2: error: invalid escape sequence '\\q'"});
  CHECK(kindsOf(c) == V{Tok::CharLit, Tok::IntLit});
  CHECK(charLiteralValue(c.toks[0]) == 0);
  CHECK(errorsOf("\"\\q\\w\"") == S{"1:2: error: invalid escape sequence '\\q'",
                                    "1:4: error: invalid escape sequence '\\w'"});
  CHECK(errorsOf("\"\\x4\"") == S{"1:2: error: escape sequence '\\x' needs two hex digits"});
  CHECK(errorsOf("\"\\xg0\"") == S{"1:2: error: escape sequence '\\x' needs two hex digits"});
  CHECK(errorsOf("'\\x'") == S{"1:2: error: escape sequence '\\x' needs two hex digits"});
  CHECK(errorsOf("\"\\\x01\"") == S{"1:2: error: invalid escape sequence '\\\\x01'"});
  CHECK(errorsOf("\"\\a\\b\\v\\f\\e\\u\"").size() == 6);
  CHECK(errorsOf("'\\q\\n'") == S{"1:2: error: invalid escape sequence '\\q'"});
}

TEST_CASE("unterminated string literals", "[lexer][errors]") {
  Lexed l = lexText("x = \"abc\ny;");
  CHECK(errorLines(l) == S{"1:5: error: unterminated string literal"});
  CHECK(kindsOf(l) == V{Tok::Ident, Tok::Assign, Tok::StrLit, Tok::Ident, Tok::Semi});
  CHECK(l.toks[2].text == "abc");
  CHECK(lc(l.end(l.toks[2])) == "1:9");
  CHECK(lc(l.toks[3].pos()) == "2:1");
  CHECK(errorsOf("\"abc") == S{"1:1: error: unterminated string literal"});
  CHECK(errorsOf("\"") == S{"1:1: error: unterminated string literal"});
  CHECK(errorsOf("  \"abc\\\n") == S{"1:3: error: unterminated string literal"});
  CHECK(errorsOf("\"abc\\") == S{"1:1: error: unterminated string literal"});
  CHECK(errorsOf("\"a\\\"") == S{"1:1: error: unterminated string literal"});
}

TEST_CASE("unterminated character literals", "[lexer][errors]") {
  const std::string msg = "1:1: error: unterminated character literal";
  CHECK(errorsOf("'a") == S{msg});
  CHECK(errorsOf("'") == S{msg});
  CHECK(errorsOf("'\\") == S{msg});
  CHECK(errorsOf("'\\\n") == S{msg});
  CHECK(errorsOf("'\\'") == S{msg});
  Lexed l = lexText("'ab\nx");
  CHECK(errorLines(l) == S{msg});
  CHECK(kindsOf(l) == V{Tok::CharLit, Tok::Ident});
  CHECK(lc(l.toks[1].pos()) == "2:1");
  // The rest of the line belongs to the broken literal.
  Lexed rest = lexText("x = 'a; y\nz");
  CHECK(errorLines(rest) == S{"1:5: error: unterminated character literal"});
  CHECK(kindsOf(rest) == V{Tok::Ident, Tok::Assign, Tok::CharLit, Tok::Ident});
  CHECK(lc(rest.end(rest.toks[2])) == "1:10");
}

TEST_CASE("empty and multi-byte character literals", "[lexer][errors]") {
  Lexed e = lexText("'' x");
  CHECK(errorLines(e) == S{"1:1: error: empty character literal"});
  CHECK(kindsOf(e) == V{Tok::CharLit, Tok::Ident});
  CHECK(lc(e.end(e.toks[0])) == "1:3");

  Lexed m = lexText("'ab' x");
  CHECK(errorLines(m) == S{"1:1: error: character literal has more than one byte"});
  CHECK(kindsOf(m) == V{Tok::CharLit, Tok::Ident});
  CHECK(lc(m.end(m.toks[0])) == "1:5");
  CHECK(charLiteralValue(m.toks[0]) == 0);
  CHECK(errorsOf("'\xC3\xA9'") == S{"1:1: error: character literal has more than one byte"});
  CHECK(errorsOf("'\\n\\n'") == S{"1:1: error: character literal has more than one byte"});
  CHECK(errorsOf("'a\\''") == S{"1:1: error: character literal has more than one byte"});
}

TEST_CASE("lexing continues after every error", "[lexer][errors]") {
  Lexed l = lexText("@ 012 'ab' \"\\q\" 1_ ok\n$ 0x");
  CHECK(errorLines(l) == S{"1:1: error: unexpected character '@'",
                           "1:3: error: leading zero in integer literal",
                           "1:7: error: character literal has more than one byte",
                           "1:13: error: invalid escape sequence '\\q'",
                           "1:18: error: misplaced '_' in number",
                           "2:1: error: unexpected character '$'",
                           "2:3: error: missing digits after '0x'"});
  CHECK(kindsOf(l) == V{Tok::IntLit, Tok::CharLit, Tok::StrLit, Tok::IntLit, Tok::Ident,
                        Tok::IntLit});
  CHECK(l.errors == 7);
}

namespace {

// Checks the invariants every token stream has, whatever the input.
void checkStream(const std::string& src, const Lexed& l) {
  SourceFile file("t.smp", src);
  REQUIRE(!l.toks.empty());
  REQUIRE(l.toks.back().kind == Tok::Eof);
  SrcPos end = file.posOf(src.size());
  REQUIRE(l.toks.back().pos().line == end.line);
  REQUIRE(l.toks.back().pos().col == end.col);
  // Line lengths in bytes, to bound columns.
  std::vector<size_t> lineLen(1, 0);
  for (char c : src) {
    if (c == '\n') lineLen.push_back(0);
    else ++lineLen.back();
  }
  auto before = [](SrcPos a, SrcPos b) {
    return a.line < b.line || (a.line == b.line && a.col <= b.col);
  };
  SrcPos prevEnd{1, 1};
  for (size_t i = 0; i < l.toks.size(); ++i) {
    const Token& t = l.toks[i];
    REQUIRE((t.kind == Tok::Eof) == (i + 1 == l.toks.size()));
    REQUIRE(t.pos().valid());
    REQUIRE(l.end(t).valid());
    REQUIRE(before(prevEnd, t.pos()));
    REQUIRE(before(t.pos(), l.end(t)));
    REQUIRE(l.end(t).line <= lineLen.size());
    REQUIRE(l.end(t).col <= lineLen[l.end(t).line - 1] + 1);
    prevEnd = l.end(t);
  }
  REQUIRE(static_cast<int>(errorLines(l).size()) == l.errors);
}

}  // namespace

TEST_CASE("random byte buffers always lex to a stream ending in Eof", "[lexer][robust]") {
  std::mt19937 rng(20240611);
  const std::string alphabet =
      "0123456789xXeE_.+-'\"\\/*\n\t\r abcfq;()<>=!&|#@$~?:[]{}";
  for (int iter = 0; iter < 10000; ++iter) {
    size_t len = rng() % 8 == 0 ? rng() % 1000 : rng() % 40;
    std::string src;
    bool rawBytes = rng() % 4 == 0;
    for (size_t i = 0; i < len; ++i) {
      if (rawBytes) src += static_cast<char>(rng() & 0xff);
      else src += alphabet[rng() % alphabet.size()];
    }
    Lexed l = lexText(src);
    INFO("iteration " << iter);
    checkStream(src, l);
  }
}

TEST_CASE("token positions match SourceFile::posOf", "[lexer][robust]") {
  const char* pieces[] = {"x", "while", "int", "0", "42", "0x1F", "1_000", "1.5", "2e-3", "'a'",
                          "'\\n'", "\"s\\t\"", "\"\"", ">>>=", ">>", "->", "++", "(", ";", "#"};
  const char* gaps[] = {" ", "\n", "\t", "\r\n", " /* c\n\n */ ", " // c\n", "  \n\n  "};
  std::mt19937 rng(7);
  for (int iter = 0; iter < 300; ++iter) {
    std::string src;
    std::vector<std::pair<size_t, size_t>> spans;
    int n = static_cast<int>(rng() % 60);
    for (int i = 0; i < n; ++i) {
      src += gaps[rng() % std::size(gaps)];
      const char* p = pieces[rng() % std::size(pieces)];
      spans.emplace_back(src.size(), src.size() + std::strlen(p));
      src += p;
    }
    Lexed l = lexText(src);
    REQUIRE(l.errors == 0);
    REQUIRE(l.toks.size() == spans.size() + 1);
    SourceFile file("t.smp", src);
    for (size_t i = 0; i < spans.size(); ++i) {
      REQUIRE(lc(l.toks[i].pos()) == lc(file.posOf(spans[i].first)));
      REQUIRE(lc(l.end(l.toks[i])) == lc(file.posOf(spans[i].second)));
    }
  }
}

TEST_CASE("pathological inputs finish and end in Eof", "[lexer][robust]") {
  const size_t n = 1 << 20;
  auto repeat = [n](const std::string& unit) {
    std::string s;
    s.reserve(n + unit.size());
    while (s.size() < n) s += unit;
    return s;
  };
  for (const std::string& src :
       {repeat("/*"), repeat("\""), repeat("'"), repeat("''"), repeat("0x"), repeat("_1"),
        repeat("\\"), repeat("1_"), repeat("9"), repeat("\"\\"), repeat(std::string(1, '\0')),
        repeat("\n"), repeat(">>>>="), repeat("'\\x"), repeat("1e+"), repeat("0."),
        std::string(n, 'a'), "\"" + std::string(n, 'a') + "\"", "//" + std::string(n, 'x')}) {
    // The default error limit: a million unlimited diagnostics would only
    // measure the memory stream.
    Lexed l = lexText(src, 100);
    REQUIRE(l.toks.back().kind == Tok::Eof);
    SourceFile file("t.smp", src);
    SrcPos end = file.posOf(src.size());
    CHECK(lc(l.toks.back().pos()) == lc(end));
  }
}

TEST_CASE("a file of several megabytes lexes completely", "[lexer][robust]") {
  const std::string stmt = "val x_1 = a.b[i] + 0x1F * 2.5e3 >>> 'c'; // note\n";
  std::string src;
  const int count = 100000;
  src.reserve(stmt.size() * count);
  for (int i = 0; i < count; ++i) src += stmt;
  Lexed l = lexText(src);
  REQUIRE(l.errors == 0);
  REQUIRE(l.toks.size() == static_cast<size_t>(count) * 16 + 1);
  CHECK(lc(l.toks[l.toks.size() - 2].pos()) == std::to_string(count) + ":40");
  CHECK(lc(l.toks.back().pos()) == std::to_string(count + 1) + ":1");
}
