// Edit distance for suggestions. Names are short, but a generated program
// may have many thousands of them in scope, so the row-by-row distance stops
// as soon as every entry of a row is past the limit. That holds with swaps
// too: a row's minimum is at most one more than the row before's, so when
// row i is past the limit, row i-1 is at least at it, and a swap (an entry
// of row i-1 plus one, for row i+1) cannot get back under it.
#include "parser/suggest.h"

#include <algorithm>

namespace simplec {

size_t editDistance(const std::string& a, const std::string& b, size_t limit) {
  size_t la = a.size(), lb = b.size();
  if ((la > lb ? la - lb : lb - la) > limit) return limit + 1;
  // Rows i-2, i-1 and i of the distance table.
  std::vector<size_t> prev2(lb + 1), prev(lb + 1), row(lb + 1);
  for (size_t j = 0; j <= lb; j++) prev[j] = j;
  for (size_t i = 1; i <= la; i++) {
    row[0] = i;
    size_t best = row[0];
    for (size_t j = 1; j <= lb; j++) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        row[j] = std::min(row[j], prev2[j - 2] + 1);  // swapped neighbours
      best = std::min(best, row[j]);
    }
    if (best > limit) return limit + 1;
    std::swap(prev2, prev);
    std::swap(prev, row);
  }
  return std::min(prev[lb], limit + 1);
}

std::string closestName(const std::string& name, const std::vector<std::string>& candidates) {
  size_t limit = std::max<size_t>(1, name.size() / 3);
  if (limit >= name.size()) limit = name.size() - (name.empty() ? 0 : 1);
  std::string best;
  size_t bestDist = limit + 1;
  for (const std::string& c : candidates) {
    if (c == name || c.empty()) continue;
    size_t d = editDistance(name, c, limit);
    if (d < bestDist || (d == bestDist && d <= limit && c < best)) {
      bestDist = d;
      best = c;
    }
  }
  return bestDist <= limit ? best : "";
}

std::string didYouMean(const std::string& name, const std::vector<std::string>& candidates) {
  std::string s = closestName(name, candidates);
  return s.empty() ? "" : "; did you mean '" + s + "'?";
}

}  // namespace simplec
