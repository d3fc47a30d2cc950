// SourceFile: the bytes of one input file plus a table of line starts, so a
// byte offset maps to line:col by binary search. Invariant: lineStarts_[0] is
// 0 (3 after a UTF-8 byte order mark, which belongs to no line, as in gcc)
// and lineStarts_[k] is the offset just past the k-th '\n', in increasing
// order; a file ending in '\n' therefore has a final empty line. Columns
// count UTF-8 characters; in an ASCII file that is the byte offset plus one.
#include "lexer/source.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "lexer/utf8.h"

namespace simplec {

namespace {

// Line and column numbers are 32-bit; a position beyond that (only in a
// file of more than 4 GB) saturates rather than wrapping around.
uint32_t saturate32(size_t v) {
  constexpr size_t kMax = std::numeric_limits<uint32_t>::max();
  return static_cast<uint32_t>(v > kMax ? kMax : v);
}

constexpr size_t kMarkBytes = 1024;

}  // namespace

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  lineStarts_.push_back(text_.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0);
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
  bool ascii = true;
  for (unsigned char c : text_) {
    if (c >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return;
  size_t chars = 0;
  for (size_t i = 0; i < size;) {
    if (i >= marks_.size() * kMarkBytes) marks_.push_back({i, chars});
    i += utf8CharLen(text_, i);
    ++chars;
  }
}

size_t SourceFile::charsBefore(size_t off) const {
  size_t k = std::min(off / kMarkBytes, marks_.size() - 1);
  if (marks_[k].off > off) --k;  // off is inside the character that crosses the mark
  size_t i = marks_[k].off, chars = marks_[k].chars;
  while (i < off) {
    size_t n = utf8CharLen(text_, i);
    if (i + n > off) break;
    i += n;
    ++chars;
  }
  return chars;
}

SrcPos SourceFile::posOf(size_t off) const {
  off = std::max(std::min(off, text_.size()), lineStarts_[0]);
  // The last line start that is <= off.
  auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), off);
  size_t idx = static_cast<size_t>(it - lineStarts_.begin()) - 1;
  SrcPos p;
  p.line = saturate32(idx + 1);
  size_t cols = isAscii() ? off - lineStarts_[idx] : charsBefore(off) - charsBefore(lineStarts_[idx]);
  p.col = saturate32(cols + 1);
  return p;
}

size_t SourceFile::lineOffsetOf(SrcPos pos) const {
  if (pos.line == 0 || pos.line > lineStarts_.size()) return 0;
  std::string_view line = lineText(pos.line);
  size_t want = pos.col == 0 ? 0 : pos.col - 1;
  if (isAscii()) return std::min(want, line.size());
  // From the mark at or before the wanted character, walk to it.
  size_t begin = lineStarts_[pos.line - 1];
  size_t target = charsBefore(begin) + want;
  auto it = std::upper_bound(marks_.begin(), marks_.end(), target,
                             [](size_t t, const Mark& m) { return t < m.chars; });
  size_t i = std::max(std::prev(it)->off, begin), chars = std::max(std::prev(it)->chars, target - want);
  size_t end = begin + line.size();
  while (chars < target && i < end) {
    i += utf8CharLen(text_, i);
    ++chars;
  }
  return std::min(i, end) - begin;
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
