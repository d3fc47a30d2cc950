// SourceFile: the bytes of one input file plus a table of line starts, so a
// byte offset maps to line:col by binary search. Invariant: lineStarts_[0] is
// 0 and lineStarts_[k] is the offset just past the k-th '\n', in increasing
// order; a file ending in '\n' therefore has a final empty line.
#include "lexer/source.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace simplec {

namespace {

// Line and column numbers are 32-bit; a position beyond that (only in a
// file of more than 4 GB) saturates rather than wrapping around.
uint32_t saturate32(size_t v) {
  constexpr size_t kMax = std::numeric_limits<uint32_t>::max();
  return static_cast<uint32_t>(v > kMax ? kMax : v);
}

}  // namespace

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  lineStarts_.push_back(0);
  const char* base = text_.data();
  size_t size = text_.size();
  size_t off = 0;
  // memchr keeps this fast on files of tens of megabytes.
  while (off < size) {
    const void* nl = std::memchr(base + off, '\n', size - off);
    if (!nl) break;
    off = static_cast<size_t>(static_cast<const char*>(nl) - base) + 1;
    lineStarts_.push_back(off);
  }
}

SrcPos SourceFile::posOf(size_t off) const {
  off = std::min(off, text_.size());
  // The last line start that is <= off.
  auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), off);
  size_t idx = static_cast<size_t>(it - lineStarts_.begin()) - 1;
  SrcPos p;
  p.line = saturate32(idx + 1);
  p.col = saturate32(off - lineStarts_[idx] + 1);
  return p;
}

std::string_view SourceFile::lineText(uint32_t line) const {
  if (line == 0 || line > lineStarts_.size()) return {};
  size_t begin = lineStarts_[line - 1];
  size_t end = line < lineStarts_.size() ? lineStarts_[line] - 1 : text_.size();
  // A CRLF file shows its lines without the '\r', so carets are not
  // followed by a stray carriage return on the terminal.
  if (end > begin && text_[end - 1] == '\r') --end;
  return std::string_view(text_).substr(begin, end - begin);
}

}  // namespace simplec
