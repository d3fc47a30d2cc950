// Tests for the "did you mean" helpers: the edit distance (swaps of
// neighbours count one) and the closeness rule for suggestions.
#include "parser/suggest.h"

#include <catch2/catch.hpp>

using simplec::closestName;
using simplec::didYouMean;
using simplec::editDistance;

TEST_CASE("edit distance counts inserts, deletes, substitutions and swaps", "[parser][suggest]") {
  CHECK(editDistance("square", "square", 5) == 0);
  CHECK(editDistance("squar", "square", 5) == 1);
  CHECK(editDistance("sqaure", "square", 5) == 1);  // swapped neighbours
  CHECK(editDistance("kitten", "sitting", 5) == 3);
  CHECK(editDistance("", "abc", 5) == 3);
  CHECK(editDistance("abc", "", 5) == 3);
  CHECK(editDistance("ab", "ba", 5) == 1);
  CHECK(editDistance("ca", "abc", 5) == 3);  // optimal string alignment: no edit of a swapped pair
}

TEST_CASE("edit distance stops at the limit", "[parser][suggest]") {
  CHECK(editDistance("kitten", "sitting", 2) == 3);  // limit + 1
  CHECK(editDistance("a", "abcdefgh", 3) == 4);
  CHECK(editDistance("abcdef", "abcdeg", 1) == 1);
}

TEST_CASE("suggestions only for close names", "[parser][suggest]") {
  std::vector<std::string> names{"square", "count", "x", "y", "origin", "length"};
  CHECK(closestName("squar", names) == "square");
  CHECK(closestName("cuont", names) == "count");
  CHECK(closestName("lenght", names) == "length");  // 6 letters: up to 2 edits
  CHECK(closestName("orign", names) == "origin");
  CHECK(closestName("squre", names) == "square");
  CHECK(closestName("sq", names).empty());
  CHECK(closestName("z", names).empty());     // one letter: another letter is no typo
  CHECK(closestName("xx", names) == "x");
  CHECK(closestName("totally", names).empty());
  CHECK(closestName("square", names).empty());  // the name itself is not a suggestion
  CHECK(closestName("", names).empty());
  CHECK(closestName("abc", {}).empty());
}

TEST_CASE("ties go to the alphabetically first candidate", "[parser][suggest]") {
  CHECK(closestName("cat", {"cut", "bat", "cot"}) == "bat");
  CHECK(closestName("cat", {"cot", "cut", "bat"}) == "bat");
  CHECK(closestName("cats", {"cat", "bats"}) == "bats");  // both one edit away
}

TEST_CASE("didYouMean is the message suffix", "[parser][suggest]") {
  CHECK(didYouMean("squar", {"square"}) == "; did you mean 'square'?");
  CHECK(didYouMean("q", {"square"}).empty());
}
