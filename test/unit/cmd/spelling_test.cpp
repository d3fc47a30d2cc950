// Edit distance and option suggestions (cmd/spelling.h).
#include <catch2/catch.hpp>

#include "cmd/spelling.h"

using namespace simplec;

TEST_CASE("edit distance counts insertions, deletions, substitutions and swaps") {
  CHECK(editDistance("", "") == 0);
  CHECK(editDistance("abc", "") == 3);
  CHECK(editDistance("", "ab") == 2);
  CHECK(editDistance("--emit", "--emit") == 0);
  CHECK(editDistance("--emi", "--emit") == 1);       // insertion
  CHECK(editDistance("--emitt", "--emit") == 1);     // deletion
  CHECK(editDistance("--emut", "--emit") == 1);      // substitution
  CHECK(editDistance("--emti", "--emit") == 1);      // swap of neighbours
  CHECK(editDistance("kitten", "sitting") == 3);
  CHECK(editDistance("ca", "abc") == 3);             // optimal string alignment, not Damerau
}

TEST_CASE("the closest option is suggested only when it is a likely typo") {
  std::vector<std::string> opts{"-o", "-c", "--emit", "--run", "--runtime-dir", "--verify-each", "-MD"};
  CHECK(closestMatch("--emti", opts) == "--emit");
  CHECK(closestMatch("--rn", opts) == "--run");
  CHECK(closestMatch("--runtime-dri", opts) == "--runtime-dir");
  CHECK(closestMatch("--verbose", opts) == "");      // too far from --verify-each
  CHECK(closestMatch("--MD", opts) == "-MD");
  CHECK(closestMatch("-q", opts) == "");              // one letter: anything is one edit away
  CHECK(closestMatch("--frobnicate", opts) == "");
  CHECK(closestMatch("--emit", {}) == "");
}
