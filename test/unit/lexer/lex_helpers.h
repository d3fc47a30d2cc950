// Test helpers for the lexer: tokenize a string with diagnostics captured,
// and short views of the result (kinds, "line:col" positions, first error).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "lexer/lexer.h"
#include "test/unit/lexer/diag_capture.h"

namespace simplec::test {

struct Lexed {
  std::shared_ptr<SourceFile> file;
  std::vector<Token> toks;  // always ends with Eof
  SrcPos end(const Token& t) const { return tokenEnd(*file, t); }
  std::string diags;        // everything the DiagEngine printed
  int errors = 0;
};

// errorLimit 0 prints every diagnostic.
inline Lexed lexText(const std::string& src, int errorLimit = 0) {
  Lexed out;
  out.file = std::make_shared<SourceFile>("t.smp", src);
  DiagCapture cap;
  DiagEngine diag(cap.file());
  diag.setErrorLimit(errorLimit);
  out.toks = tokenize(*out.file, diag);
  out.diags = cap.text();
  out.errors = diag.errorCount();
  return out;
}

// The kinds of all tokens but the final Eof.
inline std::vector<Tok> kindsOf(const Lexed& l) {
  std::vector<Tok> k;
  for (size_t i = 0; i + 1 < l.toks.size(); ++i) k.push_back(l.toks[i].kind);
  return k;
}

inline std::string lc(SrcPos p) { return std::to_string(p.line) + ":" + std::to_string(p.col); }

// The "LINE:COL: error: MSG" part of every error line printed.
inline std::vector<std::string> errorLines(const Lexed& l) {
  std::vector<std::string> out;
  const std::string prefix = "t.smp:";
  size_t p = 0;
  while (p < l.diags.size()) {
    size_t e = l.diags.find('\n', p);
    if (e == std::string::npos) e = l.diags.size();
    std::string line = l.diags.substr(p, e - p);
    if (line.rfind(prefix, 0) == 0 && line.find(": error: ") != std::string::npos)
      out.push_back(line.substr(prefix.size()));
    p = e + 1;
  }
  return out;
}

}  // namespace simplec::test
