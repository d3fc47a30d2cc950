// "Did you mean ...?" for a name that is not defined: the known name
// closest to it by edit distance, when the two are close enough that a typo
// is the likely story (as clang does: a few edits for a long name, one for
// a short one, never a wholly different name).
#pragma once
#include <string>
#include <vector>

namespace simplec {

// Edit distance: insertions, deletions, substitutions and swaps of two
// neighbouring characters ("cuont") cost 1 each (optimal string alignment).
// Gives up early: anything above `limit` is reported as limit + 1.
size_t editDistance(const std::string& a, const std::string& b, size_t limit);

// The candidate closest to `name` within max(1, |name| / 3) edits and fewer
// edits than `name` has characters, or "" if there is none. Ties go to the
// alphabetically first, so the answer does not depend on candidate order.
std::string closestName(const std::string& name, const std::vector<std::string>& candidates);

// "; did you mean 'x'?" for the closest candidate, or "".
std::string didYouMean(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace simplec
