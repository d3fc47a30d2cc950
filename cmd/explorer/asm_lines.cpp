// asmLines: a scan that remembers the last .loc.
#include "cmd/explorer/asm_lines.h"

#include <sstream>

namespace simplec {

namespace {

bool startsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

std::vector<AsmLine> asmLines(const std::string& asmText) {
  std::vector<AsmLine> out;
  std::istringstream in(asmText);
  std::string raw;
  uint32_t line = 0;
  while (std::getline(in, raw)) {
    size_t first = raw.find_first_not_of(" \t");
    std::string body = first == std::string::npos ? "" : raw.substr(first);
    if (body.empty()) continue;
    if (startsWith(body, ".loc")) {
      // ".loc FILE LINE COL ...": file 1 is the main source.
      std::istringstream loc(body.substr(4));
      unsigned file = 0, l = 0;
      loc >> file >> l;
      line = loc && file == 1 ? l : 0;
      continue;
    }
    if (startsWith(body, ".cfi_") || startsWith(body, ".file")) continue;
    // A new function starts without a line until its first .loc.
    if (startsWith(body, ".type")) line = 0;
    bool label = body.back() == ':';
    out.push_back({raw, label || body[0] == '.' ? 0u : line});
  }
  return out;
}

}  // namespace simplec
