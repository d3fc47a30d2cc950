// Tests for SourceFile: byte offsets to 1-based line:col, and line texts.
// Columns count characters (UTF-8); a file ending in '\n' has a final empty line.
#include "lexer/source.h"

#include <catch2/catch.hpp>

#include "lexer/utf8.h"

using simplec::SourceFile;
using simplec::SrcPos;

namespace {

std::pair<uint32_t, uint32_t> lc(const SourceFile& f, size_t off) {
  SrcPos p = f.posOf(off);
  return {p.line, p.col};
}

}  // namespace

TEST_CASE("posOf maps offsets to line and column", "[lexer][source]") {
  SourceFile f("a.smp", "ab\ncde\n\nf");
  using P = std::pair<uint32_t, uint32_t>;
  CHECK(lc(f, 0) == P{1, 1});
  CHECK(lc(f, 1) == P{1, 2});
  CHECK(lc(f, 2) == P{1, 3});  // the '\n' belongs to line 1
  CHECK(lc(f, 3) == P{2, 1});
  CHECK(lc(f, 5) == P{2, 3});
  CHECK(lc(f, 6) == P{2, 4});
  CHECK(lc(f, 7) == P{3, 1});
  CHECK(lc(f, 8) == P{4, 1});
  CHECK(lc(f, 9) == P{4, 2});   // end of file
  CHECK(lc(f, 10) == P{4, 2});  // clamped
  CHECK(lc(f, 1000000) == P{4, 2});
  CHECK(f.posOf(0).valid());
  CHECK_FALSE(SrcPos{}.valid());
}

TEST_CASE("posOf on an empty file and a file ending in a newline", "[lexer][source]") {
  using P = std::pair<uint32_t, uint32_t>;
  SourceFile empty("e.smp", "");
  CHECK(lc(empty, 0) == P{1, 1});
  CHECK(lc(empty, 5) == P{1, 1});
  CHECK(empty.lineText(1).empty());
  CHECK(empty.lineText(2).empty());

  SourceFile nl("n.smp", "x\n");
  CHECK(lc(nl, 2) == P{2, 1});
  CHECK(nl.lineText(1) == "x");
  CHECK(nl.lineText(2).empty());
}

TEST_CASE("lineText returns lines without their newline", "[lexer][source]") {
  SourceFile f("a.smp", "first\n\tsecond line\n\nlast");
  CHECK(f.path() == "a.smp");
  CHECK(f.lineText(0).empty());
  CHECK(f.lineText(1) == "first");
  CHECK(f.lineText(2) == "\tsecond line");
  CHECK(f.lineText(3).empty());
  CHECK(f.lineText(4) == "last");
  CHECK(f.lineText(5).empty());
  CHECK(f.lineText(0xFFFFFFFFu).empty());
}

TEST_CASE("lineText drops the carriage return of a CRLF line", "[lexer][source]") {
  SourceFile f("a.smp", "one\r\ntwo\r\n");
  CHECK(f.lineText(1) == "one");
  CHECK(f.lineText(2) == "two");
  CHECK(lc(f, 5) == std::pair<uint32_t, uint32_t>{2, 1});
}

TEST_CASE("lineText keeps every byte, including NUL", "[lexer][source]") {
  std::string text("a\0b\nc", 5);
  SourceFile f("a.smp", text);
  CHECK(f.lineText(1) == std::string_view("a\0b", 3));
  CHECK(lc(f, 4) == std::pair<uint32_t, uint32_t>{2, 1});
}

TEST_CASE("posOf agrees with a naive count on many lines", "[lexer][source]") {
  std::string text;
  for (int i = 0; i < 500; ++i) text += std::string(static_cast<size_t>(i % 7), 'x') + "\n";
  SourceFile f("a.smp", text);
  uint32_t line = 1, col = 1;
  for (size_t off = 0; off <= text.size(); ++off) {
    SrcPos p = f.posOf(off);
    REQUIRE(p.line == line);
    REQUIRE(p.col == col);
    if (off < text.size() && text[off] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
}

TEST_CASE("columns count UTF-8 characters, not bytes", "[lexer][source]") {
  // s = "héllo"; x   (é is two bytes)
  SourceFile f("u.smp", "s = \"h\xC3\xA9llo\"; x\n\xE4\xB8\xAD\xE6\x96\x87 y\n");
  using P = std::pair<uint32_t, uint32_t>;
  CHECK(lc(f, 5) == P{1, 6});    // h
  CHECK(lc(f, 6) == P{1, 7});    // the first byte of é
  CHECK(lc(f, 7) == P{1, 7});    // inside é: its column
  CHECK(lc(f, 8) == P{1, 8});    // the 'l' after it
  CHECK(lc(f, 14) == P{1, 14});  // x: byte column 15, character 14
  CHECK(lc(f, 16) == P{2, 1});
  CHECK(lc(f, 23) == P{2, 4});   // y after two three-byte characters and a space
  CHECK(f.lineOffsetOf(SrcPos{1, 14}) == 14);
  CHECK(f.lineOffsetOf(SrcPos{1, 7}) == 6);
  CHECK(f.lineOffsetOf(SrcPos{1, 8}) == 8);
  CHECK(f.lineOffsetOf(SrcPos{2, 4}) == 7);
  CHECK(f.lineOffsetOf(SrcPos{2, 99}) == f.lineText(2).size());  // clamped
  CHECK_FALSE(f.isAscii());
  CHECK(SourceFile("a.smp", "abc").isAscii());
}

TEST_CASE("invalid bytes are one column each", "[lexer][source]") {
  SourceFile f("b.smp", "\x80\x80\xFFx");
  using P = std::pair<uint32_t, uint32_t>;
  CHECK(lc(f, 1) == P{1, 2});
  CHECK(lc(f, 2) == P{1, 3});
  CHECK(lc(f, 3) == P{1, 4});
}

TEST_CASE("character columns agree with a naive count on long mixed lines", "[lexer][source]") {
  // Long enough to cross many of the file's column marks, with characters
  // straddling them, and bad bytes between.
  std::string text;
  const char* pieces[] = {"a", "\xC3\xA9", "\xE4\xB8\xAD", "\xF0\x9F\x98\x80", "\xFF", "\n", "\x80"};
  for (int i = 0; i < 9000; ++i) {
    int k = (i * 7 + i / 13) % 7;
    if (i < 6000 || k != 5) text += pieces[k];  // the last third is one long line
  }
  SourceFile f("m.smp", text);
  uint32_t line = 1, col = 1;
  size_t off = 0, lineStart = 0;
  while (off <= text.size()) {
    SrcPos p = f.posOf(off);
    REQUIRE(p.line == line);
    REQUIRE(p.col == col);
    REQUIRE(f.lineOffsetOf(p) == off - lineStart);  // and back
    if (off == text.size()) break;
    size_t n = simplec::utf8CharLen(text, off);
    for (size_t k = 1; k < n; ++k) REQUIRE(lc(f, off + k) == std::pair<uint32_t, uint32_t>{line, col});
    off += n;
    if (text[off - n] == '\n') {
      ++line;
      col = 1;
      lineStart = off;
    } else {
      ++col;
    }
  }
}

TEST_CASE("a UTF-8 byte order mark takes no column and is not part of line 1", "[lexer][source]") {
  // As gcc and clang count: `int x = ;` after a BOM has its ';' at 1:9.
  SourceFile f("a.smp", "\xEF\xBB\xBFint x = ;\nreturn 0;\n");
  using P = std::pair<uint32_t, uint32_t>;
  CHECK(lc(f, 3) == P{1, 1});
  CHECK(lc(f, 11) == P{1, 9});
  CHECK(lc(f, 0) == P{1, 1});  // inside the mark: the line's start
  CHECK(lc(f, 13) == P{2, 1});
  CHECK(f.lineText(1) == "int x = ;");
  CHECK(f.lineOffsetOf(SrcPos{1, 9}) == 8);
}
