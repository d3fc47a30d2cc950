// The assembly text of a module (written with line tables) as the explorer
// page shows it: one entry per instruction, label or directive, each with
// the source line its code came from, read from the `.loc` directives. The
// .loc, .cfi_* and .file lines themselves are dropped: they are for tools.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace simplec {

struct AsmLine {
  std::string text;   // as written, leading tab kept
  uint32_t line = 0;  // source line of the main file; 0: none
};

std::vector<AsmLine> asmLines(const std::string& asmText);

}  // namespace simplec
