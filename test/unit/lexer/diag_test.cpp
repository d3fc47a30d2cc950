// Tests for DiagEngine: the exact gcc-style text (location, severity, the
// source line, a caret aligned through tabs), colour codes, error counting
// and the error limit, and internal errors.
#include "lexer/diag.h"

#include <catch2/catch.hpp>

#include "test/unit/lexer/diag_capture.h"

using simplec::DiagEngine;
using simplec::Severity;
using simplec::SourceFile;
using simplec::SrcPos;
using simplec::test::DiagCapture;

namespace {

SrcPos at(uint32_t line, uint32_t col) {
  SrcPos p;
  p.line = line;
  p.col = col;
  return p;
}

}  // namespace

TEST_CASE("diagnostic format is file:line:col, source line, caret", "[lexer][diag]") {
  SourceFile f("prog.smp", "int y = 1;\nint z = 2;\n    return x + 1;\n");
  DiagCapture cap;
  DiagEngine d(cap.file());
  d.error(f, at(3, 12), "undefined name 'x'");
  CHECK(cap.text() ==
        "prog.smp:3:12: error: undefined name 'x'\n"
        "    return x + 1;\n"
        "           ^\n");
  CHECK(d.errorCount() == 1);
  CHECK(d.hasErrors());
}

TEST_CASE("caret line copies the tabs of the source line", "[lexer][diag]") {
  SourceFile f("t.smp", "\tif (\tx) y;\n");
  DiagCapture cap;
  DiagEngine d(cap.file());
  d.error(f, at(1, 7), "bad");
  CHECK(cap.text() ==
        "t.smp:1:7: error: bad\n"
        "\tif (\tx) y;\n"
        "\t    \t^\n");
}

TEST_CASE("caret at column 1 and just past the end of the line", "[lexer][diag]") {
  SourceFile f("t.smp", "ab\ncd");
  DiagCapture cap;
  DiagEngine d(cap.file());
  d.error(f, at(1, 1), "first");
  d.error(f, at(2, 3), "expected ';'");
  CHECK(cap.text() ==
        "t.smp:1:1: error: first\n"
        "ab\n"
        "^\n"
        "t.smp:2:3: error: expected ';'\n"
        "cd\n"
        "  ^\n");
  CHECK(d.errorCount() == 2);
}

TEST_CASE("caret on the empty last line of a file", "[lexer][diag]") {
  SourceFile f("t.smp", "x\n");
  DiagCapture cap;
  DiagEngine d(cap.file());
  d.error(f, f.posOf(2), "unexpected end of file");
  CHECK(cap.text() == "t.smp:2:1: error: unexpected end of file\n\n^\n");
}

TEST_CASE("source line of a CRLF file is shown without the CR", "[lexer][diag]") {
  SourceFile f("t.smp", "a = 1;\r\nb = @;\r\n");
  DiagCapture cap;
  DiagEngine d(cap.file());
  d.error(f, at(2, 5), "unexpected character '@'");
  CHECK(cap.text() == "t.smp:2:5: error: unexpected character '@'\nb = @;\n    ^\n");
}

TEST_CASE("warnings and notes use their words and are not errors", "[lexer][diag]") {
  SourceFile f("w.smp", "val x = 1;\n");
  DiagCapture cap;
  DiagEngine d(cap.file());
  d.report(f, at(1, 5), Severity::Warning, "unused name 'x'");
  d.report(f, at(1, 1), Severity::Note, "declared here");
  CHECK(cap.text() ==
        "w.smp:1:5: warning: unused name 'x'\n"
        "val x = 1;\n"
        "    ^\n"
        "w.smp:1:1: note: declared here\n"
        "val x = 1;\n"
        "^\n");
  CHECK(d.errorCount() == 0);
  CHECK_FALSE(d.hasErrors());
}

TEST_CASE("errorNoPos prints WHERE: error: MSG", "[lexer][diag]") {
  DiagCapture cap;
  DiagEngine d(cap.file());
  d.errorNoPos("missing.smp", "cannot open file: No such file or directory");
  CHECK(cap.text() == "missing.smp: error: cannot open file: No such file or directory\n");
  CHECK(d.errorCount() == 1);
}

TEST_CASE("an invalid position prints no source line", "[lexer][diag]") {
  SourceFile f("p.smp", "x\n");
  DiagCapture cap;
  DiagEngine d(cap.file());
  d.error(f, SrcPos{}, "no entry point");
  CHECK(cap.text() == "p.smp: error: no entry point\n");
}

TEST_CASE("colour codes only when enabled, as gcc prints them", "[lexer][diag]") {
  SourceFile f("c.smp", "x = y;\n");
  DiagCapture cap;
  DiagEngine d(cap.file());
  d.setColor(true);
  d.error(f, at(1, 5), "undefined name 'y'");
  d.report(f, at(1, 1), Severity::Warning, "w");
  d.report(f, at(1, 1), Severity::Note, "n");
  d.errorNoPos("c.smp", "e");
  CHECK(cap.text() ==
        "\033[1mc.smp:1:5: \033[1;31merror:\033[0m\033[1m undefined name 'y'\033[0m\n"
        "x = y;\n"
        "    \033[1;32m^\033[0m\n"
        "\033[1mc.smp:1:1: \033[1;35mwarning:\033[0m\033[1m w\033[0m\n"
        "x = y;\n"
        "\033[1;32m^\033[0m\n"
        "\033[1mc.smp:1:1: \033[1;36mnote:\033[0m\033[1m n\033[0m\n"
        "x = y;\n"
        "\033[1;32m^\033[0m\n"
        "\033[1mc.smp: \033[1;31merror:\033[0m\033[1m e\033[0m\n");
}

TEST_CASE("error limit stops printing but not counting", "[lexer][diag]") {
  SourceFile f("l.smp", "a\n");
  DiagCapture cap;
  DiagEngine d(cap.file());
  d.setErrorLimit(2);
  d.error(f, at(1, 1), "one");
  d.error(f, at(1, 1), "two");
  std::string before = cap.text();
  d.error(f, at(1, 1), "three");
  d.report(f, at(1, 1), Severity::Warning, "warn");
  d.errorNoPos("l.smp", "four");
  CHECK(d.errorCount() == 4);
  CHECK(cap.text() == before + "l.smp: note: too many errors emitted, stopping now\n");
  CHECK(before.find("two") != std::string::npos);
}

TEST_CASE("default error limit is 100, and 0 means no limit", "[lexer][diag]") {
  SourceFile f("l.smp", "a\n");
  {
    DiagCapture cap;
    DiagEngine d(cap.file());
    for (int i = 0; i < 150; ++i) d.error(f, at(1, 1), "e");
    std::string out = cap.text();
    size_t printed = 0;
    for (size_t p = 0; (p = out.find(": error: e\n", p)) != std::string::npos; ++p) ++printed;
    CHECK(printed == 100);
    CHECK(d.errorCount() == 150);
  }
  {
    DiagCapture cap;
    DiagEngine d(cap.file());
    d.setErrorLimit(0);
    for (int i = 0; i < 150; ++i) d.error(f, at(1, 1), "e");
    std::string out = cap.text();
    size_t printed = 0;
    for (size_t p = 0; (p = out.find(": error: e\n", p)) != std::string::npos; ++p) ++printed;
    CHECK(printed == 150);
    CHECK(out.find("too many errors") == std::string::npos);
  }
}

TEST_CASE("a very long line is shown as a window around the column", "[lexer][diag]") {
  std::string line(10000, 'x');
  line[4999] = '@';
  SourceFile f("big.smp", line);
  DiagCapture cap;
  DiagEngine d(cap.file());
  d.error(f, at(1, 5000), "unexpected character '@'");
  std::string expected = "big.smp:1:5000: error: unexpected character '@'\n";
  expected += "..." + line.substr(4999 - 256, 512) + "...\n";
  expected += std::string(3 + 256, ' ') + "^\n";
  CHECK(cap.text() == expected);
}

TEST_CASE("internalError throws InternalError naming the pass", "[lexer][diag]") {
  try {
    simplec::internalError("gcm", "node without block");
    FAIL("internalError returned");
  } catch (const simplec::InternalError& e) {
    CHECK(e.pass == "gcm");
    CHECK(std::string(e.what()) == "node without block");
  }
  auto check = [](bool cond) { SIMPLEC_CHECK(cond, "opt", "arithmetic"); };
  CHECK_NOTHROW(check(1 + 1 == 2));
  CHECK_THROWS_AS(check(1 + 1 == 3), simplec::InternalError);
}

TEST_CASE("named warnings: on by default, silenced, or errors", "[lexer][diag]") {
  SourceFile f("w.smp", "return a && b || c;\n");
  {
    DiagCapture cap;
    DiagEngine d(cap.file());
    d.warn(f, at(1, 15), simplec::Warn::Parentheses, "mixed");
    CHECK(cap.text() ==
          "w.smp:1:15: warning: mixed [-Wparentheses]\n"
          "return a && b || c;\n"
          "              ^\n");
    CHECK_FALSE(d.hasErrors());  // a warning is no error
  }
  {
    DiagCapture cap;
    DiagEngine d(cap.file());
    simplec::WarningOptions w;
    REQUIRE(w.apply("no-parentheses"));
    d.setWarnings(w);
    d.warn(f, at(1, 15), simplec::Warn::Parentheses, "mixed");
    CHECK(cap.text().empty());
  }
  {
    DiagCapture cap;
    DiagEngine d(cap.file());
    simplec::WarningOptions w;
    REQUIRE(w.apply("error"));
    d.setWarnings(w);
    d.warn(f, at(1, 15), simplec::Warn::Parentheses, "mixed");
    CHECK(cap.text().rfind("w.smp:1:15: error: mixed [-Werror=parentheses]\n", 0) == 0);
    CHECK(d.errorCount() == 1);
  }
}

TEST_CASE("column and caret count characters after a multibyte string", "[lexer][diag]") {
  // `s = "héllo"; x` with é two bytes: x is the 14th character, 15th byte.
  SourceFile f("u.smp", "s = \"h\xC3\xA9llo\"; x\n");
  DiagCapture cap;
  DiagEngine d(cap.file());
  d.error(f, f.posOf(14), "undefined name 'x'");
  CHECK(cap.text() ==
        "u.smp:1:14: error: undefined name 'x'\n"
        "s = \"h\xC3\xA9llo\"; x\n"
        "             ^\n");
}

TEST_CASE("caret pads wide characters by two cells and keeps tabs", "[lexer][diag]") {
  // \t"中文" @  : 中 and 文 take two cells each on a terminal.
  SourceFile f("w.smp", "\t\"\xE4\xB8\xAD\xE6\x96\x87\" @\n");
  DiagCapture cap;
  DiagEngine d(cap.file());
  d.error(f, f.posOf(10), "unexpected character '@'");
  CHECK(cap.text() ==
        "w.smp:1:7: error: unexpected character '@'\n"
        "\t\"\xE4\xB8\xAD\xE6\x96\x87\" @\n"
        "\t       ^\n");
}

TEST_CASE("a long line's window does not cut a multibyte character", "[lexer][diag]") {
  std::string line;
  for (int i = 0; i < 3000; ++i) line += "\xC3\xA9";  // é, two bytes each
  line += "@";
  SourceFile f("big.smp", line);
  DiagCapture cap;
  DiagEngine d(cap.file());
  d.error(f, f.posOf(6000), "unexpected character '@'");
  std::string out = cap.text();
  CHECK(out.rfind("big.smp:1:3001: error: unexpected character '@'\n", 0) == 0);
  // 256 bytes before the '@' are 128 whole characters.
  std::string window;
  for (int i = 0; i < 128; ++i) window += "\xC3\xA9";
  CHECK(out.find("\n..." + window + "@\n" + std::string(3 + 128, ' ') + "^\n") != std::string::npos);
}

TEST_CASE("a note prints right after its diagnostic", "[lexer][diag]") {
  SourceFile f("n.smp", "val f = {\n  return 1;\n");
  DiagCapture cap;
  DiagEngine d(cap.file());
  d.error(f, at(2, 12), "expected '}'");
  d.note(f, at(1, 9), "to match this '{'");
  CHECK(cap.text() ==
        "n.smp:2:12: error: expected '}'\n"
        "  return 1;\n"
        "           ^\n"
        "n.smp:1:9: note: to match this '{'\n"
        "val f = {\n"
        "        ^\n");
  CHECK(d.errorCount() == 1);
}

TEST_CASE("held diagnostics print in source order, notes staying with theirs", "[lexer][diag]") {
  SourceFile f("o.smp", "a\nb\nc\nd\n");
  DiagCapture cap;
  DiagEngine d(cap.file());
  d.hold();
  d.error(f, at(3, 1), "third");
  d.note(f, at(1, 1), "note of third");
  d.report(f, at(2, 1), Severity::Warning, "second");
  d.error(f, SrcPos{}, "no position");
  d.error(f, at(1, 1), "first");
  d.error(f, at(3, 1), "third again");  // same place: report order kept
  CHECK(cap.text().empty());
  d.release();
  std::string out = cap.text();
  std::vector<std::string> heads;
  for (size_t p = 0; p < out.size();) {
    size_t e = out.find('\n', p);
    std::string l = out.substr(p, e - p);
    if (l.rfind("o.smp", 0) == 0) heads.push_back(l);
    p = e + 1;
  }
  CHECK(heads == std::vector<std::string>{
                     "o.smp:1:1: error: first", "o.smp:2:1: warning: second", "o.smp:3:1: error: third",
                     "o.smp:1:1: note: note of third", "o.smp:3:1: error: third again", "o.smp: error: no position"});
  CHECK(d.errorCount() == 4);
}

TEST_CASE("the error limit applies in source order after a hold", "[lexer][diag]") {
  SourceFile f("l.smp", "a\nb\nc\n");
  DiagCapture cap;
  DiagEngine d(cap.file());
  d.setErrorLimit(2);
  d.hold();
  d.error(f, at(3, 1), "three");
  d.note(f, at(3, 1), "note of three");
  d.error(f, at(2, 1), "two");
  d.error(f, at(1, 1), "one");
  d.release();
  std::string out = cap.text();
  CHECK(out.find("error: one") != std::string::npos);
  CHECK(out.find("error: two") != std::string::npos);
  CHECK(out.find("three") == std::string::npos);  // nor its note
  CHECK(out.find("l.smp: note: too many errors emitted, stopping now\n") != std::string::npos);
  CHECK(d.errorCount() == 3);
}

TEST_CASE("discard drops held diagnostics with their notes", "[lexer][diag]") {
  SourceFile f("t.smp", "a\n");
  DiagCapture cap;
  DiagEngine d(cap.file());
  d.hold();
  d.error(f, at(1, 1), "tried");
  d.note(f, at(1, 1), "why");
  d.discard();
  CHECK(d.errorCount() == 0);
  d.hold();
  d.error(f, at(1, 1), "kept");
  d.release();
  CHECK(cap.text() == "t.smp:1:1: error: kept\na\n^\n");
  CHECK(d.errorCount() == 1);
}

TEST_CASE("a note of a disabled warning is dropped with it", "[lexer][diag]") {
  SourceFile f("w.smp", "x\n");
  DiagCapture cap;
  DiagEngine d(cap.file());
  simplec::WarningOptions w;
  REQUIRE(w.apply("no-parentheses"));
  d.setWarnings(w);
  d.warn(f, at(1, 1), simplec::Warn::Parentheses, "mixed");
  d.note(f, at(1, 1), "use parentheses");
  d.hold();
  d.warn(f, at(1, 1), simplec::Warn::Parentheses, "mixed");
  d.note(f, at(1, 1), "use parentheses");
  d.release();
  CHECK(cap.text().empty());
}
