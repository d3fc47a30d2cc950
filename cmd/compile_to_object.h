// compileSourceToObject: the whole compiler for one in-memory source, up to
// the ELF object in memory (lex, parse, optimize, schedule, codegen, emit),
// with no file system, no exit() and no process-wide state beyond the
// interned types. It exists for in-process drivers such as the libFuzzer
// targets (test/fuzz/libfuzzer); the `simplec` driver does the same steps.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "lexer/diag.h"
#include "opt/pipeline.h"

namespace simplec {

struct CompileResult {
  // 0: object written; 1: the source has errors (diagnostics went to the
  // DiagEngine) or the emitter refused it (message says why).
  int status = 0;
  std::vector<uint8_t> object;
  std::string message;
};

// Internal errors (InternalError, std::bad_alloc, ...) are not caught here:
// they are the caller's to report.
CompileResult compileSourceToObject(const std::string& path, std::string text, const PassOptions& po,
                                    DiagEngine& diag);

}  // namespace simplec
