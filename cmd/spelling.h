// Spelling suggestions for mistyped command-line options ("did you mean
// '--emit'?"), by edit distance as gcc and clang do.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace simplec {

// The optimal-string-alignment distance: insertions, deletions,
// substitutions and swaps of two adjacent characters each cost 1.
size_t editDistance(std::string_view a, std::string_view b);

// The candidate closest to `word`, or "" when none is close enough to be a
// likely typo: the distance must be at most a third of the longer name
// (leading dashes not counted) and less than the word's own length, so that
// "-q" suggests nothing. Ties go to the earlier candidate.
std::string closestMatch(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace simplec
