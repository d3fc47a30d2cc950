// Line diff by longest common subsequence: common prefix and suffix are
// stripped first (usually leaving a tiny middle), then an O(n*m) table; if
// the middle is still too big for that, it is shown as all removed and all
// added, which is still a correct (if not minimal) diff.
#include "test/golden_runner/text_diff.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace simplec::golden {
namespace {

constexpr size_t kContext = 3;
constexpr size_t kMaxTableCells = 4'000'000;

struct Line {
  std::string_view text;
  bool newline;  // followed by '\n'
  bool operator==(const Line&) const = default;
};

std::vector<Line> toLines(std::string_view s) {
  std::vector<Line> lines;
  size_t start = 0;
  while (start < s.size()) {
    size_t nl = s.find('\n', start);
    if (nl == std::string_view::npos) {
      lines.push_back({s.substr(start), false});
      break;
    }
    lines.push_back({s.substr(start, nl - start), true});
    start = nl + 1;
  }
  return lines;
}

enum class Op : uint8_t { Same, Del, Add };

struct Edit {
  Op op;
  size_t a, b;  // index into expected (Same/Del) and actual (Same/Add)
};

// Edit script turning a[lo..aHi) into b[lo..bHi).
void diffMiddle(const std::vector<Line>& a, const std::vector<Line>& b, size_t lo, size_t aHi,
                size_t bHi, std::vector<Edit>& edits) {
  size_t n = aHi - lo, m = bHi - lo;
  if (n == 0 || m == 0 || (n + 1) * (m + 1) > kMaxTableCells) {
    for (size_t i = 0; i < n; i++) edits.push_back({Op::Del, lo + i, lo});
    for (size_t j = 0; j < m; j++) edits.push_back({Op::Add, lo + n, lo + j});
    return;
  }
  // lcs[i][j] = LCS length of a[lo+i..aHi) and b[lo+j..bHi).
  std::vector<uint32_t> lcs((n + 1) * (m + 1), 0);
  auto at = [&](size_t i, size_t j) -> uint32_t& { return lcs[i * (m + 1) + j]; };
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      at(i, j) = a[lo + i] == b[lo + j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[lo + i] == b[lo + j]) {
      edits.push_back({Op::Same, lo + i, lo + j});
      i++;
      j++;
    } else if (i < n && (j == m || at(i + 1, j) >= at(i, j + 1))) {
      edits.push_back({Op::Del, lo + i, lo + j});  // removals first, as diff(1)
      i++;
    } else {
      edits.push_back({Op::Add, lo + i, lo + j});
      j++;
    }
  }
}

// Length of the well-formed UTF-8 sequence starting at s[i] (2-4 bytes, no
// overlong forms or surrogates), or 0 if there is none.
size_t utf8SequenceLength(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  size_t len = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c <= 0xdf ? 2 : 0;
  if (c > 0xf4 || len == 0 || i + len > s.size()) return 0;
  for (size_t k = 1; k < len; k++)
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
  unsigned char c1 = byte(i + 1);
  if ((c == 0xe0 && c1 < 0xa0) || (c == 0xed && c1 >= 0xa0) || (c == 0xf0 && c1 < 0x90) ||
      (c == 0xf4 && c1 >= 0x90))
    return 0;
  return len;
}

}  // namespace

std::string escapeForDisplay(std::string_view s) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t len = c >= 0x80 ? utf8SequenceLength(s, i) : 1;
    if ((c < 0x20 && c != '\t') || c == 0x7f || len == 0) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
      i++;
    } else {
      out.append(s.substr(i, len));
      i += len;
    }
  }
  return out;
}

std::string unifiedDiff(std::string_view expected, std::string_view actual, size_t maxLines) {
  if (expected == actual) return "";
  std::vector<Line> a = toLines(expected), b = toLines(actual);
  size_t pre = 0;
  while (pre < a.size() && pre < b.size() && a[pre] == b[pre]) pre++;
  size_t suf = 0;
  while (suf < a.size() - pre && suf < b.size() - pre && a[a.size() - 1 - suf] == b[b.size() - 1 - suf])
    suf++;
  std::vector<Edit> edits;
  for (size_t i = 0; i < pre; i++) edits.push_back({Op::Same, i, i});
  diffMiddle(a, b, pre, a.size() - suf, b.size() - suf, edits);
  for (size_t k = suf; k-- > 0;) edits.push_back({Op::Same, a.size() - 1 - k, b.size() - 1 - k});

  std::string out = "--- expected\n+++ actual\n";
  size_t emitted = 0;
  auto emit = [&](char tag, const Line& l) {
    out += tag;
    out += escapeForDisplay(l.text);
    out += '\n';
    if (!l.newline) out += "\\ No newline at end of file\n";
    emitted++;
  };
  size_t k = 0;
  while (k < edits.size()) {
    if (edits[k].op == Op::Same) {
      k++;
      continue;
    }
    // A hunk: from kContext lines before this change to kContext after the
    // last change that is within 2*kContext of the previous one.
    size_t start = k >= kContext ? k - kContext : 0;
    size_t end = k;
    size_t sameRun = 0;
    for (size_t q = k; q < edits.size(); q++) {
      if (edits[q].op == Op::Same) {
        if (++sameRun > 2 * kContext) break;
      } else {
        sameRun = 0;
        end = q;
      }
    }
    size_t stop = std::min(edits.size(), end + 1 + kContext);
    size_t aStart = edits[start].a, bStart = edits[start].b, aLen = 0, bLen = 0;
    for (size_t q = start; q < stop; q++) {
      if (edits[q].op != Op::Add) aLen++;
      if (edits[q].op != Op::Del) bLen++;
    }
    out += "@@ -" + std::to_string(aLen ? aStart + 1 : aStart) + "," + std::to_string(aLen) + " +" +
           std::to_string(bLen ? bStart + 1 : bStart) + "," + std::to_string(bLen) + " @@\n";
    for (size_t q = start; q < stop; q++) {
      if (emitted >= maxLines) {
        out += "... (diff truncated)\n";
        return out;
      }
      const Edit& e = edits[q];
      if (e.op == Op::Same) emit(' ', a[e.a]);
      else if (e.op == Op::Del) emit('-', a[e.a]);
      else emit('+', b[e.b]);
    }
    k = stop;
  }
  return out;
}

std::string indentLines(std::string_view s, std::string_view indent, size_t maxLines,
                        size_t maxWidth) {
  std::string out;
  size_t count = 0, start = 0;
  while (start < s.size()) {
    if (count == maxLines) {
      out += std::string(indent) + "... (more lines)\n";
      break;
    }
    size_t nl = s.find('\n', start);
    size_t end = nl == std::string_view::npos ? s.size() : nl;
    std::string_view line = s.substr(start, end - start);
    out += std::string(indent) + escapeForDisplay(line.substr(0, maxWidth));
    out += line.size() > maxWidth ? "...\n" : "\n";
    count++;
    start = end + 1;
  }
  return out;
}

}  // namespace simplec::golden
