// DiagEngine: prints diagnostics the way gcc does ("FILE:LINE:COL: error:
// MSG", the source line, a caret under the column) and counts errors.
// Invariant: every error is counted, even once printing has stopped at the
// error limit, so the driver's exit status never depends on the limit.
#include "lexer/diag.h"

#include <algorithm>
#include <string_view>

namespace simplec {

namespace {

// gcc's colours: bold location and message, bold red/magenta/cyan severity,
// bold green caret.
constexpr const char* kBold = "\033[1m";
constexpr const char* kReset = "\033[0m";
constexpr const char* kRed = "\033[1;31m";
constexpr const char* kMagenta = "\033[1;35m";
constexpr const char* kCyan = "\033[1;36m";
constexpr const char* kGreen = "\033[1;32m";

// Lines longer than this are shown as a window around the column, so an
// error in a multi-megabyte one-line file prints a few hundred bytes, not
// megabytes per diagnostic.
constexpr size_t kLongLine = 4096;
constexpr size_t kWindowBefore = 256;
constexpr size_t kWindowAfter = 256;

const char* severityWord(Severity sev) {
  switch (sev) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

const char* severityColor(Severity sev) {
  switch (sev) {
    case Severity::Error: return kRed;
    case Severity::Warning: return kMagenta;
    case Severity::Note: return kCyan;
  }
  return kRed;
}

void writeView(FILE* out, std::string_view s) {
  if (!s.empty()) std::fwrite(s.data(), 1, s.size(), out);
}

// Prints "WHERE: SEVERITY: MSG\n" (WHERE already holds ":LINE:COL").
void printHeader(FILE* out, bool color, const std::string& where, Severity sev,
                        const std::string& msg) {
  if (color) std::fputs(kBold, out);
  writeView(out, where);
  std::fputs(": ", out);
  if (color) std::fputs(severityColor(sev), out);
  std::fputs(severityWord(sev), out);
  std::fputs(":", out);
  if (color) {
    std::fputs(kReset, out);
    std::fputs(kBold, out);
  }
  std::fputc(' ', out);
  writeView(out, msg);
  if (color) std::fputs(kReset, out);
  std::fputc('\n', out);
}

// Prints the source line, then a caret under byte column `col` (1-based).
// The caret line copies the tabs of the source line so the caret lines up
// whatever the terminal's tab width.
void printSnippet(FILE* out, bool color, std::string_view line, uint32_t col) {
  size_t target = std::min<size_t>(col == 0 ? 0 : col - 1, line.size());
  size_t begin = 0;
  size_t end = line.size();
  bool cutFront = false, cutBack = false;
  if (line.size() > kLongLine) {
    begin = target > kWindowBefore ? target - kWindowBefore : 0;
    end = std::min(line.size(), target + kWindowAfter);
    cutFront = begin > 0;
    cutBack = end < line.size();
  }
  if (cutFront) std::fputs("...", out);
  writeView(out, line.substr(begin, end - begin));
  if (cutBack) std::fputs("...", out);
  std::fputc('\n', out);

  std::string pad;
  if (cutFront) pad = "   ";
  for (size_t i = begin; i < target; ++i) pad += line[i] == '\t' ? '\t' : ' ';
  writeView(out, pad);
  if (color) std::fputs(kGreen, out);
  std::fputc('^', out);
  if (color) std::fputs(kReset, out);
  std::fputc('\n', out);
}

}  // namespace

bool DiagEngine::admit(Severity sev, const std::string& where) {
  if (sev == Severity::Error) ++errors_;
  if (stopped_) return false;
  if (sev == Severity::Error && errorLimit_ > 0 && errors_ > errorLimit_) {
    stopped_ = true;
    printHeader(out_, color_, where, Severity::Note, "too many errors emitted, stopping now");
    std::fflush(out_);
    return false;
  }
  return true;
}

void DiagEngine::hold() {
  holding_ = true;
  held_.clear();
  heldErrors_ = 0;
}

void DiagEngine::release() {
  holding_ = false;
  std::vector<Held> h = std::move(held_);
  held_.clear();
  errors_ -= heldErrors_;
  heldErrors_ = 0;
  for (const Held& d : h) report(*d.file, d.pos, d.sev, d.msg);
}

void DiagEngine::discard() {
  holding_ = false;
  held_.clear();
  errors_ -= heldErrors_;
  heldErrors_ = 0;
}

void DiagEngine::report(const SourceFile& file, SrcPos pos, Severity sev,
                        const std::string& msg) {
  if (holding_) {
    held_.push_back({&file, pos, sev, msg});
    if (sev == Severity::Error) {
      errors_++;
      heldErrors_++;
    }
    return;
  }
  if (!admit(sev, file.path())) return;
  std::string where = file.path();
  if (pos.valid()) {
    where += ':';
    where += std::to_string(pos.line);
    where += ':';
    where += std::to_string(pos.col);
  }
  printHeader(out_, color_, where, sev, msg);
  if (pos.valid()) printSnippet(out_, color_, file.lineText(pos.line), pos.col);
  std::fflush(out_);
}

void DiagEngine::warn(const SourceFile& file, SrcPos pos, Warn w, const std::string& msg) {
  if (!warnings_.enabled(w)) return;
  if (warnings_.asError(w)) {
    report(file, pos, Severity::Error, msg + " [-Werror=" + warnName(w) + "]");
    return;
  }
  report(file, pos, Severity::Warning, msg + " [-W" + warnName(w) + "]");
}

void DiagEngine::errorNoPos(const std::string& where, const std::string& msg) {
  if (!admit(Severity::Error, where)) return;
  printHeader(out_, color_, where, Severity::Error, msg);
  std::fflush(out_);
}

void internalError(const std::string& pass, const std::string& msg) {
  throw InternalError(pass, msg);
}

}  // namespace simplec
