// Tests for the compact token: its size bound, spellings shared through the
// InternedString pool (names, literal spellings, decoded string bytes), and end
// positions rebuilt from the end column.
#include "lexer/interned_string.h"

#include <catch2/catch.hpp>
#include <string>

#include "lexer/lexer.h"
#include "lexer/literal_value.h"
#include "test/unit/lexer/lex_helpers.h"

using namespace simplec;
using simplec::test::lc;
using simplec::test::Lexed;
using simplec::test::lexText;

TEST_CASE("a token stays small", "[lexer][token]") {
  // The parser keeps every token of a file: 40 bytes on a 64-bit host.
  CHECK(sizeof(Token) <= 48);
  CHECK(sizeof(InternedString) == sizeof(void*));
}

TEST_CASE("InternedString interns: equal spellings share one string", "[lexer][token]") {
  InternedString a("counter"), b(std::string("count") + "er"), c("other");
  CHECK(a == b);
  CHECK(&a.str() == &b.str());
  CHECK(a != c);
  CHECK(a == "counter");
  CHECK(a == std::string("counter"));
  CHECK(a.size() == 7);
  CHECK(a[0] == 'c');
  CHECK(std::string(a.c_str()) == "counter");
  CHECK("'" + a + "'" == "'counter'");
  InternedString none;
  CHECK(none.empty());
  CHECK(none == "");
  CHECK(&InternedString("").str() == &none.str());
}

TEST_CASE("tokens carry pooled spellings and decoded string bytes", "[lexer][token]") {
  Lexed l = lexText("abc = \"a\\tb\\x41\\0z\" + abc + 0x1F + 2.5e3;");
  REQUIRE(l.errors == 0);
  const auto& t = l.toks;
  REQUIRE(t.size() == 11);
  CHECK(t[0].text == "abc");
  CHECK(&t[0].text.str() == &t[4].text.str());  // one copy for both uses
  CHECK(t[1].text.empty());                     // punctuation has no spelling
  CHECK(t[2].kind == Tok::StrLit);
  CHECK(t[2].text.str() == std::string("a\tbA\0z", 6));
  CHECK(t[2].text.size() == 6);
  CHECK(t[6].text == "0x1F");
  CHECK(intLiteralValue(t[6]) == 0x1F);
  CHECK(t[8].text == "2.5e3");
  CHECK(floatLiteralValue(t[8]) == 2500.0);
}

TEST_CASE("end positions follow the source, line and column", "[lexer][token]") {
  // Escapes count as source characters; a multibyte character is one column;
  // an unterminated string ends at its newline, on its own line.
  Lexed l = lexText("x\n  \"a\\n\\\"\" y\n\"\xC3\xA9t\xC3\xA9\"\n\"open\n");
  const auto& t = l.toks;
  REQUIRE(t.size() == 6);
  CHECK(lc(t[0].endPos()) == "1:2");
  CHECK(lc(t[1].pos()) == "2:3");
  CHECK(lc(t[1].endPos()) == "2:10");
  CHECK(t[1].text == "a\n\"");
  CHECK(lc(t[2].endPos()) == "2:12");
  CHECK(lc(t[3].endPos()) == "3:6");
  CHECK(lc(t[4].endPos()) == "4:6");
  CHECK(t[4].text == "open");
  CHECK(lc(t[5].pos()) == "5:1");  // Eof after the last newline
  CHECK(lc(t[5].endPos()) == "5:1");
}

TEST_CASE("the end position keeps the file of the token", "[lexer][token]") {
  Lexed l = lexText("name");
  Token t = l.toks[0];
  t.file = kSysLibraryFile;
  CHECK(t.endPos().file == kSysLibraryFile);
  CHECK(lc(t.endPos()) == "1:5");
}
