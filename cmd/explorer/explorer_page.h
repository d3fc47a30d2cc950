// --emit=html: the graph explorer page, one self-contained HTML file. The
// data (source, graphs per pass, schedules, assembly) goes into a
// <script type="application/json"> element as JSON; page.html, explorer.css
// and explorer.js (this folder, compiled into simplec by CMake) draw it in
// the browser. The bytes depend only on the inputs: no time, no addresses.
#pragma once
#include <string>
#include <vector>

#include "cmd/explorer/asm_lines.h"
#include "cmd/explorer/pass_history.h"
#include "cmd/explorer/schedule_snapshot.h"

namespace simplec {

struct ExplorerInput {
  std::string fileName;  // as diagnostics name it
  std::string source;
  int optLevel = 2;
  const PassHistory* history = nullptr;
  std::vector<FunctionSchedule> schedules;
  std::vector<AsmLine> assembly;
};

// The page's data as JSON (escaped for a <script> element).
std::string explorerJson(const ExplorerInput& in);
// The whole page.
std::string explorerPage(const ExplorerInput& in);

}  // namespace simplec
