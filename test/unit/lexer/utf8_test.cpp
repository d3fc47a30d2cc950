// Tests for the UTF-8 helpers behind columns and carets: which byte runs are
// one character, what they decode to, and how many cells they take.
#include "lexer/utf8.h"

#include <catch2/catch.hpp>
#include <string>

using simplec::utf8CharLen;
using simplec::utf8Decode;
using simplec::utf8DisplayWidth;

TEST_CASE("well-formed sequences are one character each", "[lexer][utf8]") {
  std::string s = "a\xC3\xA9\xE4\xB8\xAD\xF0\x9F\x98\x80z";  // a é 中 😀 z
  CHECK(utf8CharLen(s, 0) == 1);
  CHECK(utf8CharLen(s, 1) == 2);
  CHECK(utf8CharLen(s, 3) == 3);
  CHECK(utf8CharLen(s, 6) == 4);
  CHECK(utf8CharLen(s, 10) == 1);
  CHECK(utf8Decode(s, 1) == 0xE9);
  CHECK(utf8Decode(s, 3) == 0x4E2D);
  CHECK(utf8Decode(s, 6) == 0x1F600);
}

TEST_CASE("a byte outside a well-formed sequence is a character by itself", "[lexer][utf8]") {
  CHECK(utf8CharLen("\x80", 0) == 1);          // stray continuation byte
  CHECK(utf8CharLen("\xC3", 0) == 1);          // truncated at the end
  CHECK(utf8CharLen("\xC3z", 0) == 1);         // continuation missing
  CHECK(utf8CharLen("\xC0\xAF", 0) == 1);      // overlong '/'
  CHECK(utf8CharLen("\xE0\x80\xAF", 0) == 1);  // overlong, three bytes
  CHECK(utf8CharLen("\xED\xA0\x80", 0) == 1);  // a surrogate
  CHECK(utf8CharLen("\xF4\x90\x80\x80", 0) == 1);  // above U+10FFFF
  CHECK(utf8CharLen("\xFF", 0) == 1);
  CHECK(utf8Decode("\xFF", 0) == -1);
  CHECK(utf8Decode("\x80", 0) == -1);
  // A character never swallows a newline.
  CHECK(utf8CharLen("\xE4\xB8\n", 0) == 1);
}

TEST_CASE("display width: wide, zero-width and ordinary characters", "[lexer][utf8]") {
  CHECK(utf8DisplayWidth("a", 0) == 1);
  CHECK(utf8DisplayWidth("\xC3\xA9", 0) == 1);          // é
  CHECK(utf8DisplayWidth("\xE4\xB8\xAD", 0) == 2);      // 中
  CHECK(utf8DisplayWidth("\xF0\x9F\x98\x80", 0) == 2);  // 😀
  CHECK(utf8DisplayWidth("\xCC\x81", 0) == 0);          // combining acute accent
  CHECK(utf8DisplayWidth("\xE2\x80\x8B", 0) == 0);      // zero-width space
  CHECK(utf8DisplayWidth("\xFF", 0) == 1);              // shown as one replacement character
}
