// The part both libFuzzer targets share: compile one source in process with
// compileSourceToObject, on a thread with the compiler's large stack (as the
// `simplec` driver does: its nesting limits assume it). A diagnostic is a
// fine outcome; an internal error or a crash is a finding, so it aborts,
// which libFuzzer reports with the input that caused it.
#pragma once
#include <string>

#include "opt/pipeline.h"

namespace simplec::fuzz {

// Returns the compile status (0 object written, 1 diagnostics). Aborts on an
// internal error, printing it.
int compileOrAbort(const std::string& text, const PassOptions& po);

// A small deterministic hash of the input, to pick options from it.
uint64_t inputHash(const uint8_t* data, size_t size);

}  // namespace simplec::fuzz
