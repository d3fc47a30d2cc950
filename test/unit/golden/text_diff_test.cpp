// Tests for test/golden_runner/text_diff: unified diffs of expected and
// actual output (hunks, context, missing final newline, truncation) and the
// escaping that keeps reports printable.
#include "test/golden_runner/text_diff.h"

#include <catch2/catch.hpp>

using namespace simplec::golden;

TEST_CASE("unifiedDiff: equal texts give nothing", "[golden_runner]") {
  CHECK(unifiedDiff("a\nb\n", "a\nb\n").empty());
  CHECK(unifiedDiff("", "").empty());
}

TEST_CASE("unifiedDiff: one changed line with context", "[golden_runner]") {
  std::string exp, act;
  for (int i = 0; i < 20; i++) {
    exp += std::to_string(i) + "\n";
    act += std::to_string(i == 10 ? 99 : i) + "\n";
  }
  CHECK(unifiedDiff(exp, act) ==
        "--- expected\n+++ actual\n"
        "@@ -8,7 +8,7 @@\n"
        " 7\n 8\n 9\n-10\n+99\n 11\n 12\n 13\n");
}

TEST_CASE("unifiedDiff: separate hunks and pure insertions", "[golden_runner]") {
  std::string exp, act;
  for (int i = 0; i < 30; i++) exp += std::to_string(i) + "\n";
  act = "x\n" + exp + "y\n";
  CHECK(unifiedDiff(exp, act) ==
        "--- expected\n+++ actual\n"
        "@@ -1,3 +1,4 @@\n+x\n 0\n 1\n 2\n"
        "@@ -28,3 +29,4 @@\n 27\n 28\n 29\n+y\n");
  CHECK(unifiedDiff("", "a\n") == "--- expected\n+++ actual\n@@ -0,0 +1,1 @@\n+a\n");
  CHECK(unifiedDiff("a\n", "") == "--- expected\n+++ actual\n@@ -1,1 +0,0 @@\n-a\n");
}

TEST_CASE("unifiedDiff: a missing final newline is visible", "[golden_runner]") {
  CHECK(unifiedDiff("x\n", "x") ==
        "--- expected\n+++ actual\n@@ -1,1 +1,1 @@\n-x\n+x\n\\ No newline at end of file\n");
}

TEST_CASE("unifiedDiff: long diffs are cut", "[golden_runner]") {
  std::string act;
  for (int i = 0; i < 1000; i++) act += "line\n";
  std::string d = unifiedDiff("", act, 50);
  CHECK(d.find("... (diff truncated)") != std::string::npos);
  CHECK(d.size() < 50 * 8 + 100);
}

TEST_CASE("unifiedDiff: huge inputs still give a correct diff", "[golden_runner]") {
  // Too big for the LCS table once prefix and suffix are stripped: shown as
  // a replacement of the whole middle.
  std::string exp, act;
  for (int i = 0; i < 3000; i++) {
    exp += "e" + std::to_string(i) + "\n";
    act += "a" + std::to_string(i) + "\n";
  }
  std::string d = unifiedDiff(exp, act, 10);
  CHECK(d.rfind("--- expected\n+++ actual\n@@ -1,3000 +1,3000 @@\n-e0\n-e1\n", 0) == 0);
}

TEST_CASE("escapeForDisplay keeps text readable and bytes visible", "[golden_runner]") {
  CHECK(escapeForDisplay("plain\ttext \\n") == "plain\ttext \\n");
  CHECK(escapeForDisplay(std::string("a\0b\x1b[0m\x7f", 8)) == "a\\x00b\\x1b[0m\\x7f");
  CHECK(escapeForDisplay("caf\xc3\xa9 \xe2\x82\xac") == "caf\xc3\xa9 \xe2\x82\xac");  // UTF-8 kept
  CHECK(escapeForDisplay("\xff\xc3") == "\\xff\\xc3");              // invalid bytes escaped
  CHECK(escapeForDisplay("\xed\xa0\x80") == "\\xed\\xa0\\x80");     // surrogate
  CHECK(escapeForDisplay("\xc0\xaf") == "\\xc0\\xaf");              // overlong
}

TEST_CASE("indentLines prefixes, limits and escapes", "[golden_runner]") {
  CHECK(indentLines("a\nb\n", "  ") == "  a\n  b\n");
  CHECK(indentLines("a\nb\nc", "> ", 2) == "> a\n> b\n> ... (more lines)\n");
  CHECK(indentLines("abcdef", "", 5, 3) == "abc...\n");
  CHECK(indentLines(std::string("\0", 1), "") == "\\x00\n");
}
