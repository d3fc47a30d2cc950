// Tests for the lexer on valid input: every operator (maximal munch),
// keywords vs type names vs identifiers, comments, positions and end
// positions, and every literal form with its value, including the limits.
#include "lexer/lexer.h"
#include "lexer/literal_value.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>

#include "test/unit/lexer/lex_helpers.h"

using namespace simplec;
using simplec::test::kindsOf;
using simplec::test::lc;
using simplec::test::Lexed;
using simplec::test::lexText;

namespace {

// Lexes `src`, requires no diagnostics, returns the tokens.
std::vector<Token> lexOk(const std::string& src) {
  Lexed l = lexText(src);
  INFO("source: " << src << "\ndiagnostics:\n" << l.diags);
  REQUIRE(l.errors == 0);
  REQUIRE(l.diags.empty());
  REQUIRE(!l.toks.empty());
  REQUIRE(l.toks.back().kind == Tok::Eof);
  return l.toks;
}

// Lexes a single token (plus Eof) and returns it.
// Where t, a token of src, ends.
SrcPos endIn(const std::string& src, const Token& t) {
  SourceFile file("t.smp", src);
  return tokenEnd(file, t);
}

Token lexOne(const std::string& src) {
  std::vector<Token> t = lexOk(src);
  INFO("source: " << src);
  REQUIRE(t.size() == 2);
  return t[0];
}

std::vector<Tok> kinds(const std::string& src) {
  Lexed l = lexText(src);
  INFO("source: " << src << "\ndiagnostics:\n" << l.diags);
  REQUIRE(l.errors == 0);
  return kindsOf(l);
}

}  // namespace

TEST_CASE("every punctuation token lexes alone from its spelling", "[lexer]") {
  for (int k = static_cast<int>(Tok::LParen); k <= static_cast<int>(Tok::MinusMinus); ++k) {
    Tok t = static_cast<Tok>(k);
    std::string spelling = tokSpelling(t);
    INFO("token " << spelling);
    Token tok = lexOne(spelling);
    CHECK(tok.kind == t);
    CHECK(lc(tok.pos()) == "1:1");
    CHECK(lc(endIn(spelling, tok)) == "1:" + std::to_string(1 + spelling.size()));
  }
}

TEST_CASE("all punctuation separated by spaces", "[lexer]") {
  std::string src;
  std::vector<Tok> expected;
  for (int k = static_cast<int>(Tok::LParen); k <= static_cast<int>(Tok::MinusMinus); ++k) {
    src += tokSpelling(static_cast<Tok>(k));
    src += ' ';
    expected.push_back(static_cast<Tok>(k));
  }
  CHECK(kinds(src) == expected);
}

TEST_CASE("operators use maximal munch", "[lexer]") {
  using V = std::vector<Tok>;
  CHECK(kinds(">>>=") == V{Tok::ShrAssign});
  CHECK(kinds(">>>") == V{Tok::Shr});
  CHECK(kinds(">>=") == V{Tok::SarAssign});
  CHECK(kinds(">>") == V{Tok::Sar});
  CHECK(kinds(">=") == V{Tok::Ge});
  CHECK(kinds(">>>>") == V{Tok::Shr, Tok::Gt});
  CHECK(kinds(">>>>=") == V{Tok::Shr, Tok::Ge});
  CHECK(kinds("> >") == V{Tok::Gt, Tok::Gt});
  CHECK(kinds("<<<") == V{Tok::Shl, Tok::Lt});
  CHECK(kinds("<<=") == V{Tok::ShlAssign});
  CHECK(kinds("<<==") == V{Tok::ShlAssign, Tok::Assign});
  CHECK(kinds("+++") == V{Tok::PlusPlus, Tok::Plus});
  CHECK(kinds("+=+") == V{Tok::PlusAssign, Tok::Plus});
  CHECK(kinds("--->") == V{Tok::MinusMinus, Tok::Arrow});
  CHECK(kinds("->-") == V{Tok::Arrow, Tok::Minus});
  CHECK(kinds("-=>") == V{Tok::MinusAssign, Tok::Gt});
  CHECK(kinds("&&&") == V{Tok::AndAnd, Tok::Amp});
  CHECK(kinds("&&=") == V{Tok::AndAnd, Tok::Assign});
  CHECK(kinds("|||") == V{Tok::OrOr, Tok::Pipe});
  CHECK(kinds("===") == V{Tok::Eq, Tok::Assign});
  CHECK(kinds("!==") == V{Tok::Ne, Tok::Assign});
  CHECK(kinds("!!") == V{Tok::Bang, Tok::Bang});
  CHECK(kinds("a-->b") == V{Tok::Ident, Tok::MinusMinus, Tok::Gt, Tok::Ident});
  CHECK(kinds("x>>>=1") == V{Tok::Ident, Tok::ShrAssign, Tok::IntLit});
  CHECK(kinds("a[i]#") == V{Tok::Ident, Tok::LBracket, Tok::Ident, Tok::RBracket, Tok::Hash});
  CHECK(kinds("u8[~]?") == V{Tok::TypeName, Tok::LBracket, Tok::Tilde, Tok::RBracket,
                             Tok::Question});
}

TEST_CASE("keywords get their own kinds and keep their text", "[lexer]") {
  for (int k = static_cast<int>(Tok::KwIf); k <= static_cast<int>(Tok::KwVal); ++k) {
    Tok t = static_cast<Tok>(k);
    INFO(tokSpelling(t));
    Token tok = lexOne(tokSpelling(t));
    CHECK(tok.kind == t);
    CHECK(tok.text == tokSpelling(t));
  }
}

TEST_CASE("type names are TypeName tokens with their text", "[lexer]") {
  for (const char* name : {"int", "i8", "i16", "i32", "i64", "u1", "u8", "u16", "u32", "bool",
                           "byte", "flt", "f32", "f64"}) {
    INFO(name);
    Token tok = lexOne(name);
    CHECK(tok.kind == Tok::TypeName);
    CHECK(tok.text == name);
  }
}

TEST_CASE("identifiers, including ones that look like keywords", "[lexer]") {
  for (const char* name : {"x", "_", "__", "_x1", "Abc_9", "iff", "If", "whiles", "int8", "u64",
                           "f16", "i128", "nulls", "true_", "valx", "Z"}) {
    INFO(name);
    Token tok = lexOne(name);
    CHECK(tok.kind == Tok::Ident);
    CHECK(tok.text == name);
  }
  std::string longName(100000, 'a');
  Token tok = lexOne(longName);
  CHECK(tok.kind == Tok::Ident);
  CHECK(tok.text == longName);
  CHECK(lc(endIn(longName, tok)) == "1:100001");
}

TEST_CASE("identifier boundaries", "[lexer]") {
  std::vector<Token> t = lexOk("if(x)return y;else z");
  using V = std::vector<Tok>;
  CHECK(kindsOf(Lexed{nullptr, t, "", 0}) == V{Tok::KwIf, Tok::LParen, Tok::Ident, Tok::RParen,
                                      Tok::KwReturn, Tok::Ident, Tok::Semi, Tok::KwElse,
                                      Tok::Ident});
  CHECK(t[2].text == "x");
  CHECK(t[5].text == "y");
  CHECK(t[8].text == "z");
}

TEST_CASE("comments are skipped", "[lexer]") {
  using V = std::vector<Tok>;
  CHECK(kinds("a // comment ; b\nc").size() == 2);
  CHECK(kinds("a // to the end of file") == V{Tok::Ident});
  CHECK(kinds("//") == V{});
  CHECK(kinds("a /* b\n c\n */ d") == V{Tok::Ident, Tok::Ident});
  CHECK(kinds("/**/x") == V{Tok::Ident});
  CHECK(kinds("/***/x") == V{Tok::Ident});
  CHECK(kinds("/*/ still comment */x") == V{Tok::Ident});
  CHECK(kinds("/* // */ x") == V{Tok::Ident});
  CHECK(kinds("// /* \n x") == V{Tok::Ident});
  // Not nested: the first "*/" closes the comment.
  CHECK(kinds("/* /* */ */") == V{Tok::Star, Tok::Slash});
  CHECK(kinds("a / b") == V{Tok::Ident, Tok::Slash, Tok::Ident});
  CHECK(kinds("a /= b") == V{Tok::Ident, Tok::SlashAssign, Tok::Ident});
  CHECK(kinds("a/ /b") == V{Tok::Ident, Tok::Slash, Tok::Slash, Tok::Ident});
  CHECK(kinds("a*/b") == V{Tok::Ident, Tok::Star, Tok::Slash, Tok::Ident});
}

TEST_CASE("whitespace includes CR, tab, form feed and vertical tab", "[lexer]") {
  using V = std::vector<Tok>;
  CHECK(kinds("a\r\nb\t\f\vc") == V{Tok::Ident, Tok::Ident, Tok::Ident});
  CHECK(kinds(" \t\r\n") == V{});
}

TEST_CASE("token positions and end positions", "[lexer]") {
  const std::string src = "int x = 42;\n\tif (x >>>= 3)\n  \"ab\\n\" 'c' /* c */ y\n";
  std::vector<Token> t = lexOk(src);
  REQUIRE(t.size() == 15);
  struct Want { Tok kind; const char* pos; const char* end; };
  const Want want[] = {
      {Tok::TypeName, "1:1", "1:4"}, {Tok::Ident, "1:5", "1:6"},
      {Tok::Assign, "1:7", "1:8"},   {Tok::IntLit, "1:9", "1:11"},
      {Tok::Semi, "1:11", "1:12"},   {Tok::KwIf, "2:2", "2:4"},
      {Tok::LParen, "2:5", "2:6"},   {Tok::Ident, "2:6", "2:7"},
      {Tok::ShrAssign, "2:8", "2:12"}, {Tok::IntLit, "2:13", "2:14"},
      {Tok::RParen, "2:14", "2:15"}, {Tok::StrLit, "3:3", "3:9"},
      {Tok::CharLit, "3:10", "3:13"}, {Tok::Ident, "3:22", "3:23"},
      {Tok::Eof, "4:1", "4:1"},
  };
  for (size_t i = 0; i < std::size(want); ++i) {
    INFO("token " << i);
    CHECK(t[i].kind == want[i].kind);
    CHECK(lc(t[i].pos()) == want[i].pos);
    CHECK(lc(endIn(src, t[i])) == want[i].end);
  }
}

TEST_CASE("Eof sits at the end of the file", "[lexer]") {
  CHECK(lc(lexOk("")[0].pos()) == "1:1");
  CHECK(lc(lexOk("ab")[1].pos()) == "1:3");
  CHECK(lc(lexOk("ab\n")[1].pos()) == "2:1");
  CHECK(lc(lexOk("ab\n\n  ")[1].pos()) == "3:3");
  CHECK(lc(lexOk("x /* a\nb */")[1].pos()) == "2:5");
  std::vector<Token> t = lexOk("");
  REQUIRE(t.size() == 1);
  CHECK(t[0].kind == Tok::Eof);
  CHECK(lc(endIn("", t[0])) == "1:1");
}

TEST_CASE("positions after a multi-line block comment", "[lexer]") {
  std::vector<Token> t = lexOk("a /* 1\n2\n3 */ b\nc");
  REQUIRE(t.size() == 4);
  CHECK(lc(t[1].pos()) == "3:6");
  CHECK(lc(t[2].pos()) == "4:1");
}

TEST_CASE("decimal integer literals", "[lexer]") {
  struct Case { const char* src; uint64_t value; };
  const Case cases[] = {
      {"0", 0}, {"7", 7}, {"123", 123}, {"1_000_000", 1000000}, {"1_2_3", 123},
      {"9223372036854775807", 9223372036854775807ull},
      {"9_223_372_036_854_775_807", 9223372036854775807ull},
  };
  for (const Case& c : cases) {
    INFO(c.src);
    Token t = lexOne(c.src);
    CHECK(t.kind == Tok::IntLit);
    CHECK(intLiteralValue(t) == c.value);
    CHECK_FALSE(t.intTooLarge);
    CHECK_FALSE(t.isHex);
    CHECK(t.text == c.src);
  }
}

TEST_CASE("decimal literals at and beyond 2^63", "[lexer]") {
  Token min = lexOne("9223372036854775808");
  CHECK(intLiteralValue(min) == (uint64_t(1) << 63));
  CHECK_FALSE(min.intTooLarge);

  for (const char* big : {"9223372036854775809", "18446744073709551615", "18446744073709551616",
                          "99999999999999999999999999999999", "92233720368547758080"}) {
    INFO(big);
    Token t = lexOne(big);  // no diagnostic: the parser reports it
    CHECK(t.kind == Tok::IntLit);
    CHECK(t.intTooLarge);
  }
  std::vector<Token> t = lexOk("-9223372036854775808");
  REQUIRE(t.size() == 3);
  CHECK(t[0].kind == Tok::Minus);
  CHECK(intLiteralValue(t[1]) == (uint64_t(1) << 63));
}

TEST_CASE("hex integer literals", "[lexer]") {
  struct Case { const char* src; uint64_t value; };
  const Case cases[] = {
      {"0x0", 0}, {"0x1F", 31}, {"0X1f", 31}, {"0xabcdef", 0xabcdef}, {"0xDEAD_BEEF", 0xdeadbeef},
      {"0xFFFF_FFFF_FFFF_FFFF", ~uint64_t(0)}, {"0x8000000000000000", uint64_t(1) << 63},
      {"0x0000_0000_0000_0000_0000_0001", 1}, {"0x1e5", 0x1e5},
  };
  for (const Case& c : cases) {
    INFO(c.src);
    Token t = lexOne(c.src);
    CHECK(t.kind == Tok::IntLit);
    CHECK(intLiteralValue(t) == c.value);
    CHECK_FALSE(t.intTooLarge);
    CHECK(t.isHex);
    CHECK(t.text == c.src);
  }
  for (const char* big : {"0x1_0000_0000_0000_0000", "0xFFFFFFFFFFFFFFFFF",
                          "0x123456789abcdef0123456789"}) {
    INFO(big);
    Token t = lexOne(big);
    CHECK(t.intTooLarge);
    CHECK(t.isHex);
  }
}

TEST_CASE("float literals", "[lexer]") {
  struct Case { const char* src; double value; };
  const Case cases[] = {
      {"1.5", 1.5}, {"2.0e-3", 2.0e-3}, {"1e5", 1e5}, {"1E+5", 1e5}, {"1e-5", 1e-5},
      {"0.5", 0.5}, {"0.0", 0.0}, {"3.14159", 3.14159}, {"1_000.25", 1000.25},
      {"1.000_5", 1.0005}, {"1e1_0", 1e10}, {"0e0", 0.0}, {"00.5", 0.5},
      {"1.7976931348623157e308", 1.7976931348623157e308}, {"4.9e-324", 4.9e-324},
      {"0.1", 0.1}, {"123456789012345678901234567890.0", 123456789012345678901234567890.0},
  };
  for (const Case& c : cases) {
    INFO(c.src);
    Token t = lexOne(c.src);
    CHECK(t.kind == Tok::FloatLit);
    CHECK(floatLiteralValue(t) == c.value);
    CHECK(t.text == c.src);
  }
  // Underflow is not an error, as in C.
  Token tiny = lexOne("1e-400");
  CHECK(tiny.kind == Tok::FloatLit);
  CHECK(floatLiteralValue(tiny) == 0.0);
}

TEST_CASE("dots next to numbers", "[lexer]") {
  using V = std::vector<Tok>;
  CHECK(kinds(".5") == V{Tok::Dot, Tok::IntLit});
  CHECK(kinds("1.") == V{Tok::IntLit, Tok::Dot});
  CHECK(kinds("1.x") == V{Tok::IntLit, Tok::Dot, Tok::Ident});
  CHECK(kinds("1.e5") == V{Tok::IntLit, Tok::Dot, Tok::Ident});
  CHECK(kinds("1..2") == V{Tok::IntLit, Tok::Dot, Tok::Dot, Tok::IntLit});
  CHECK(kinds("1.5.x") == V{Tok::FloatLit, Tok::Dot, Tok::Ident});
  CHECK(kinds("a.b.c") == V{Tok::Ident, Tok::Dot, Tok::Ident, Tok::Dot, Tok::Ident});
  CHECK(kinds("0x1.5") == V{Tok::IntLit, Tok::Dot, Tok::IntLit});
  CHECK(kinds("1._5") == V{Tok::IntLit, Tok::Dot, Tok::Ident});
  CHECK(kinds("1+2") == V{Tok::IntLit, Tok::Plus, Tok::IntLit});
}

TEST_CASE("character literals", "[lexer]") {
  struct Case { const char* src; uint64_t value; };
  const Case cases[] = {
      {"'a'", 'a'}, {"' '", ' '}, {"'\"'", '"'}, {"'\\n'", '\n'}, {"'\\t'", '\t'},
      {"'\\r'", '\r'}, {"'\\0'", 0}, {"'\\\\'", '\\'}, {"'\\''", '\''}, {"'\\\"'", '"'},
      {"'\\x41'", 0x41}, {"'\\xff'", 0xff}, {"'\\xFF'", 0xff}, {"'\\x00'", 0}, {"'\t'", '\t'},
      {"'\xC3'", 0xC3}, {"'/'", '/'},
  };
  for (const Case& c : cases) {
    INFO(c.src);
    Token t = lexOne(c.src);
    CHECK(t.kind == Tok::CharLit);
    CHECK(charLiteralValue(t) == c.value);
    CHECK(lc(endIn(c.src, t)) == "1:" + std::to_string(1 + std::strlen(c.src)));
  }
}

TEST_CASE("string literals decode their escapes", "[lexer]") {
  struct Case { const char* src; std::string bytes; };
  const Case cases[] = {
      {"\"\"", ""},
      {"\"hello, world\"", "hello, world"},
      {"\"a\\nb\\tc\\rd\"", "a\nb\tc\rd"},
      {"\"\\\\ \\\" \\'\"", "\\ \" '"},
      {"\"\\x41\\x42\\x414\"", "AB" "A4"},
      {"\"\\0\"", std::string(1, '\0')},
      {"\"\\x00x\"", std::string("\0x", 2)},
      {"\"'\"", "'"},
      {"\"tab\there\"", "tab\there"},
      {"\"caf\xC3\xA9\"", "caf\xC3\xA9"},
      {"\"// not a comment /* */\"", "// not a comment /* */"},
  };
  for (const Case& c : cases) {
    INFO(c.src);
    Token t = lexOne(c.src);
    CHECK(t.kind == Tok::StrLit);
    CHECK(t.text == c.bytes);
    // Columns count characters: the two bytes of "é" are one.
    size_t chars = 0;
    for (const char* p = c.src; *p; ++p) chars += (static_cast<unsigned char>(*p) & 0xC0) != 0x80;
    CHECK(lc(endIn(c.src, t)) == "1:" + std::to_string(1 + chars));
  }
  // A raw NUL byte inside a string is kept.
  Token nul = lexOne(std::string("\"a\0b\"", 5));
  CHECK(nul.text == std::string("a\0b", 3));
}

TEST_CASE("a small program lexes to the expected token stream", "[lexer]") {
  std::vector<Token> t = lexOk(
      "struct S { int x; flt y = 1.5; };\n"
      "val f = { S s, int a -> s.x += a; s.y * 2.0e1; };\n"
      "return f(new S, 0x10) >= -1 ? 'q' : 7;\n");
  std::string out;
  for (const Token& tok : t) out += tokDescription(tok.kind) + " ";
  CHECK(out ==
        "'struct' identifier '{' type name identifier ';' type name identifier '=' float ';' "
        "'}' ';' 'val' identifier '=' '{' identifier identifier ',' type name identifier '->' "
        "identifier '.' identifier '+=' identifier ';' identifier '.' identifier '*' float ';' "
        "'}' ';' 'return' identifier '(' 'new' identifier ',' integer ')' '>=' '-' integer "
        "'?' character ':' integer ';' end of file ");
}

TEST_CASE("a byte order mark takes no column: tokens after it start at 1:1", "[lexer]") {
  Lexed l = lexText("\xEF\xBB\xBFint x = 7;\n  x");
  REQUIRE(l.toks.size() == 7);
  CHECK(l.errors == 0);
  CHECK(lc(l.toks[0].pos()) == "1:1");   // int
  CHECK(lc(l.toks[1].pos()) == "1:5");   // x
  CHECK(lc(l.toks[4].pos()) == "1:10");  // ;
  CHECK(lc(l.toks[5].pos()) == "2:3");   // x
  // Elsewhere the same bytes are a character of their own.
  Lexed later = lexText("int x;\xEF\xBB\xBF");
  CHECK(later.errors == 1);
}
