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
  // The parser keeps every token of a file, by the million.
  CHECK(sizeof(Token) == 16);
  CHECK(sizeof(InternedString) == 4);
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
  CHECK(lc(l.end(t[0])) == "1:2");
  CHECK(lc(t[1].pos()) == "2:3");
  CHECK(lc(l.end(t[1])) == "2:10");
  CHECK(t[1].text == "a\n\"");
  CHECK(lc(l.end(t[2])) == "2:12");
  CHECK(lc(l.end(t[3])) == "3:6");
  CHECK(lc(l.end(t[4])) == "4:6");
  CHECK(t[4].text == "open");
  CHECK(lc(t[5].pos()) == "5:1");  // Eof after the last newline
  CHECK(lc(l.end(t[5])) == "5:1");
}

TEST_CASE("tokens too wide for their width byte find their end again", "[lexer][token]") {
  // 300-character identifier and string; a long string with escapes and a
  // two-byte character; an unterminated long string; a long number after a
  // multibyte character on the same line (columns count characters).
  std::string id(300, 'a'), str = "\"" + std::string(298, 'b') + "\"";
  std::string esc = "\"" + std::string(250, 'c') + "\\n\\t\xC3\xA9" + std::string(10, 'd') + "\"";
  std::string open = "\"" + std::string(400, 'e');
  std::string num = "\"\xC3\xA9\" " + std::string(260, '7');
  Lexed l = lexText(id + " " + str + "\n" + esc + " x\n" + open + "\n" + num + "\n");
  const auto& t = l.toks;
  REQUIRE(t.size() == 8);
  CHECK(t[0].width == Token::kWide);
  CHECK(lc(l.end(t[0])) == "1:301");
  CHECK(lc(l.end(t[1])) == "1:602");  // from column 302, 300 wide
  CHECK(lc(l.end(t[2])) == "2:268");  // 1 + 250 + 4 escape chars + 1 + 10 + 1, +1
  CHECK(t[2].text.size() == 250 + 2 + 2 + 10);
  CHECK(lc(l.end(t[3])) == "2:270");  // x, narrow
  CHECK(t[3].width == 1);
  CHECK(lc(l.end(t[4])) == "3:402");  // the unterminated string ends at its newline
  CHECK(lc(t[6].pos()) == "4:5");
  CHECK(lc(l.end(t[6])) == "4:265");
  CHECK(t[6].width == Token::kWide);
}

TEST_CASE("the end position keeps the file of the token", "[lexer][token]") {
  Lexed l = lexText("name");
  Token t = l.toks[0];
  t.file = kSysLibraryFile;
  CHECK(l.end(t).file == kSysLibraryFile);
  CHECK(lc(l.end(t)) == "1:5");
}
