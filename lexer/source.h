// A source file held in memory, and positions inside it.
// Lines and columns are 1-based; columns count characters (lexer/utf8.h),
// so a caret lands under the same character whatever bytes precede it.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace simplec {

// Source files a compilation reads: the file being compiled, and the sys
// library embedded in the compiler (parser/sys_prelude.h), which runtime
// errors name by this path.
enum SrcFile : uint8_t { kMainFile = 0, kSysLibraryFile = 1, kNumSrcFiles = 2 };
constexpr const char* kSysLibraryPath = "sys.smp";

struct SrcPos {
  uint32_t line = 0;
  uint32_t col = 0;
  SrcFile file = kMainFile;
  // Code inlined from another function: the index of its call site in
  // Unit::inlineSites (son/call_chain.h), -1 for a function's own code.
  int32_t site = -1;
  bool valid() const { return line != 0; }
};

class SourceFile {
 public:
  SourceFile(std::string path, std::string text);
  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  // The position of byte offset `off` (clamped to the end of the file). An
  // offset inside a multibyte character gets that character's column.
  SrcPos posOf(size_t off) const;
  // The byte offset, within its line's text, of the character at `pos`
  // (clamped to the end of the line).
  size_t lineOffsetOf(SrcPos pos) const;
  // The text of line `line` without its newline ("" when out of range).
  std::string_view lineText(uint32_t line) const;
  // No byte above 0x7F: columns are byte offsets plus one.
  bool isAscii() const { return marks_.empty(); }
  // Where line 1 starts: 0, or 3 after a UTF-8 byte order mark (which is
  // not part of the program and takes no column, as in gcc).
  size_t textStart() const { return lineStarts_[0]; }

 private:
  std::string path_;
  std::string text_;
  std::vector<size_t> lineStarts_;
  // Only for a file with non-ASCII bytes: every kMarkBytes bytes, the first
  // character boundary there and how many characters precede it, so that
  // a column is found in O(kMarkBytes) even on a line of megabytes.
  struct Mark {
    size_t off;
    size_t chars;
  };
  std::vector<Mark> marks_;
  // Characters wholly before byte offset `off`.
  size_t charsBefore(size_t off) const;
};

}  // namespace simplec
