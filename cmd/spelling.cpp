// Edit distance and the closest candidate (spelling.h).
#include "cmd/spelling.h"

#include <algorithm>

namespace simplec {

size_t editDistance(std::string_view a, std::string_view b) {
  // d[i][j]: distance between the first i chars of a and the first j of b.
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); i++) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); j++) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); i++)
    for (size_t j = 1; j <= b.size(); j++) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

namespace {
size_t lengthWithoutDashes(std::string_view s) {
  size_t n = 0;
  while (n < s.size() && s[n] == '-') n++;
  return s.size() - n;
}
}  // namespace

std::string closestMatch(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t bestDist = SIZE_MAX;
  size_t wordLen = lengthWithoutDashes(word);
  for (const std::string& c : candidates) {
    size_t dist = editDistance(word, c);
    size_t cutoff = (std::max(wordLen, lengthWithoutDashes(c)) + 2) / 3;
    if (dist <= cutoff && dist < wordLen && dist < bestDist) {
      best = c;
      bestDist = dist;
    }
  }
  return best;
}

}  // namespace simplec
