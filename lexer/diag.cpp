// DiagEngine: prints diagnostics the way gcc does ("FILE:LINE:COL: error:
// MSG", the source line, a caret under the column) and counts errors.
// Invariant: every error is counted, even once printing has stopped at the
// error limit, so the driver's exit status never depends on the limit.
#include "lexer/diag.h"

#include <algorithm>
#include <string_view>
#include <tuple>

#include "lexer/utf8.h"

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


bool isCont(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Prints the source line, then a caret under the character at byte offset
// `target` of the line. The caret line copies the tabs of the source line so
// the caret lines up whatever the terminal's tab width; every other character
// is padded by the cells it takes (two for a CJK character, none for a
// combining mark).
void printSnippet(FILE* out, bool color, std::string_view line, size_t target) {
  target = std::min(target, line.size());
  size_t begin = 0;
  size_t end = line.size();
  bool cutFront = false, cutBack = false;
  if (line.size() > kLongLine) {
    // The window never cuts a character in two.
    begin = target > kWindowBefore ? target - kWindowBefore : 0;
    while (begin < target && isCont(line[begin])) ++begin;
    end = std::min(line.size(), target + kWindowAfter);
    while (end < line.size() && isCont(line[end])) ++end;
    cutFront = begin > 0;
    cutBack = end < line.size();
  }
  if (cutFront) std::fputs("...", out);
  writeView(out, line.substr(begin, end - begin));
  if (cutBack) std::fputs("...", out);
  std::fputc('\n', out);

  std::string pad;
  if (cutFront) pad = "   ";
  for (size_t i = begin; i < target; i += utf8CharLen(line, i)) {
    if (line[i] == '\t')
      pad += '\t';
    else
      pad.append(static_cast<size_t>(utf8DisplayWidth(line, i)), ' ');
  }
  writeView(out, pad);
  if (color) std::fputs(kGreen, out);
  std::fputc('^', out);
  if (color) std::fputs(kReset, out);
  std::fputc('\n', out);
}

// Source order; diagnostics without a position go after those with one.
bool before(SrcPos a, SrcPos b) {
  auto key = [](SrcPos p) { return std::make_tuple(p.file, p.valid() ? p.line : UINT32_MAX, p.col); };
  return key(a) < key(b);
}

}  // namespace

void DiagEngine::print(const Diag& d) {
  std::string where = d.file->path();
  if (d.pos.valid()) {
    where += ':';
    where += std::to_string(d.pos.line);
    where += ':';
    where += std::to_string(d.pos.col);
  }
  printHeader(out_, color_, where, d.sev, d.msg);
  if (d.pos.valid()) printSnippet(out_, color_, d.file->lineText(d.pos.line), d.file->lineOffsetOf(d.pos));
  std::fflush(out_);
}

bool DiagEngine::passesLimit(Severity sev, const std::string& where) {
  if (stopped_) return false;
  if (sev == Severity::Error && errorLimit_ > 0 && ++shownErrors_ > errorLimit_) {
    stopped_ = true;
    printHeader(out_, color_, where, Severity::Note, "too many errors emitted, stopping now");
    std::fflush(out_);
    return false;
  }
  return true;
}

bool DiagEngine::show(const Diag& d) {
  if (!passesLimit(d.sev, d.file->path())) return false;
  print(d);
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
  heldErrors_ = 0;
  // Files keep the order in which they first reported.
  std::vector<const SourceFile*> files;
  for (const Held& e : h)
    if (std::find(files.begin(), files.end(), e.d.file) == files.end()) files.push_back(e.d.file);
  auto rank = [&](const SourceFile* f) { return std::find(files.begin(), files.end(), f) - files.begin(); };
  std::stable_sort(h.begin(), h.end(), [&](const Held& a, const Held& b) {
    if (a.d.file != b.d.file) return rank(a.d.file) < rank(b.d.file);
    return before(a.d.pos, b.d.pos);
  });
  for (const Held& e : h) {
    lastDropped_ = !show(e.d);
    if (lastDropped_) continue;
    for (const Diag& n : e.notes) print(n);
  }
}

void DiagEngine::discard() {
  holding_ = false;
  held_.clear();
  errors_ -= heldErrors_;
  heldErrors_ = 0;
}

void DiagEngine::report(const SourceFile& file, SrcPos pos, Severity sev,
                        const std::string& msg) {
  Diag d{&file, pos, sev, msg};
  if (sev == Severity::Note) {
    if (lastDropped_) return;
    if (!holding_)
      print(d);
    else if (!held_.empty())
      held_.back().notes.push_back(std::move(d));
    return;
  }
  if (sev == Severity::Error) ++errors_;
  if (holding_) {
    if (sev == Severity::Error) ++heldErrors_;
    held_.push_back({std::move(d), {}});
    lastDropped_ = false;
    return;
  }
  lastDropped_ = !show(d);
}

void DiagEngine::warn(const SourceFile& file, SrcPos pos, Warn w, const std::string& msg) {
  if (!warnings_.enabled(w)) {
    lastDropped_ = true;
    return;
  }
  if (warnings_.asError(w)) {
    report(file, pos, Severity::Error, msg + " [-Werror=" + warnName(w) + "]");
    return;
  }
  report(file, pos, Severity::Warning, msg + " [-W" + warnName(w) + "]");
}

void DiagEngine::errorNoPos(const std::string& where, const std::string& msg) {
  ++errors_;
  lastDropped_ = true;  // nothing for a note to follow
  if (!passesLimit(Severity::Error, where)) return;
  printHeader(out_, color_, where, Severity::Error, msg);
  std::fflush(out_);
}

void internalError(const std::string& pass, const std::string& msg) {
  throw InternalError(pass, msg);
}

}  // namespace simplec
