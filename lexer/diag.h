// DiagEngine: the one place user diagnostics and internal errors go through.
// User errors are collected (the compiler keeps going where it can) and printed
// as gcc does: "FILE:LINE:COL: error: message", the source line, a caret.
// A note belongs to the diagnostic before it and prints right after it.
// Named warnings (lexer/warnings.h) are printed, dropped or made errors as
// the command line says.
// A broken compiler invariant throws InternalError; the driver turns it into
// "internal compiler error" naming the pass, and exit status 70.
#pragma once
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "lexer/source.h"
#include "lexer/warnings.h"

namespace simplec {

enum class Severity { Error, Warning, Note };

class DiagEngine {
 public:
  explicit DiagEngine(FILE* out = stderr) : out_(out) {}
  void setColor(bool on) { color_ = on; }
  // Stop printing (but keep counting) after this many errors; the first
  // error past the limit prints one "too many errors emitted" note instead.
  // n <= 0 means no limit.
  void setErrorLimit(int n) { errorLimit_ = n; }

  // A Note attaches to the last error or warning reported, and is dropped
  // with it (a disabled warning, or one past the error limit).
  void report(const SourceFile& file, SrcPos pos, Severity sev, const std::string& msg);
  void error(const SourceFile& file, SrcPos pos, const std::string& msg) {
    report(file, pos, Severity::Error, msg);
  }
  void note(const SourceFile& file, SrcPos pos, const std::string& msg) {
    report(file, pos, Severity::Note, msg);
  }
  // A named warning: printed with " [-WNAME]" if enabled, or as an error
  // (" [-Werror=NAME]") if the options make it one.
  void warn(const SourceFile& file, SrcPos pos, Warn w, const std::string& msg);
  void setWarnings(const WarningOptions& w) { warnings_ = w; }

  // A diagnostic that has no source position (e.g. an unreadable input file).
  void errorNoPos(const std::string& where, const std::string& msg);

  int errorCount() const { return errors_; }
  bool hasErrors() const { return errors_ != 0; }

  // Trial runs (the parser may parse a file again with better assumptions):
  // diagnostics are held back, then either printed or dropped. The parser
  // holds a whole file's, so release() is where they get into source order:
  // sorted stably by file (in order of first report), line and column, with
  // each note kept after its diagnostic and the error limit applied in that
  // order. Outside a hold a diagnostic prints at once.
  void hold();
  void release();   // print what was held
  void discard();   // forget what was held, including its error count

 private:
  struct Diag {
    const SourceFile* file;
    SrcPos pos;
    Severity sev;
    std::string msg;
  };
  struct Held {
    Diag d;
    std::vector<Diag> notes;
  };
  bool holding_ = false;
  std::vector<Held> held_;
  int heldErrors_ = 0;
  // The last error or warning was dropped (or not printed): so are its notes.
  bool lastDropped_ = false;

  FILE* out_;
  bool color_ = false;
  WarningOptions warnings_;
  int errors_ = 0;        // every error, printed or not
  int shownErrors_ = 0;   // errors offered for printing, for the limit
  int errorLimit_ = 100;
  bool stopped_ = false;  // the error limit was reached: print nothing more
  // Counts an error against the limit; false once printing has stopped
  // (the first error past the limit prints "too many errors emitted").
  bool passesLimit(Severity sev, const std::string& where);
  // Prints d unless the error limit stops it; false when it was not printed.
  bool show(const Diag& d);
  void print(const Diag& d);
};

// Thrown for a broken compiler invariant; `pass` names the stage or pass.
struct InternalError : std::runtime_error {
  std::string pass;
  InternalError(std::string passName, const std::string& msg)
      : std::runtime_error(msg), pass(std::move(passName)) {}
};

[[noreturn]] void internalError(const std::string& pass, const std::string& msg);
#define SIMPLEC_CHECK(cond, pass, msg) \
  do {                                 \
    if (!(cond)) ::simplec::internalError(pass, msg); \
  } while (0)

}  // namespace simplec
