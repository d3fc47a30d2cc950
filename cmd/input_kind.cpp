// Input kinds by -x, suffix or content (input_kind.h).
#include "cmd/input_kind.h"

#include <cctype>
#include <cstring>
#include <fstream>

namespace simplec {

namespace {
bool endsWith(const std::string& s, const char* suf) {
  size_t n = std::strlen(suf);
  return s.size() >= n && s.compare(s.size() - n, n, suf) == 0;
}

// libfoo.so.1, libfoo.so.1.2: a versioned shared library.
bool isVersionedSharedLib(const std::string& path) {
  size_t at = path.rfind(".so.");
  if (at == std::string::npos || path.find('/', at) != std::string::npos) return false;
  for (size_t i = at + 4; i < path.size(); i++)
    if (!(std::isdigit(static_cast<unsigned char>(path[i])) || path[i] == '.')) return false;
  return path.size() > at + 4;
}

// The linker reads ELF objects and ar archives whatever their names.
bool looksLikeObject(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char head[8] = {};
  in.read(head, sizeof head);
  if (in.gcount() >= 4 && std::memcmp(head, "\x7f" "ELF", 4) == 0) return true;
  return in.gcount() == 8 && (std::memcmp(head, "!<arch>\n", 8) == 0 || std::memcmp(head, "!<thin>\n", 8) == 0);
}
}  // namespace

bool isKnownLanguage(const std::string& language) {
  return language == "smp" || language == "c" || language == "assembler" ||
         language == "assembler-with-cpp" || language == "none";
}

InputKind classifyInput(const std::string& path, const std::string& language) {
  if (language == "smp") return InputKind::Simple;
  if (!language.empty() && language != "none") return InputKind::Foreign;
  if (path == "-" || endsWith(path, ".smp")) return InputKind::Simple;
  if (endsWith(path, ".c") || endsWith(path, ".s") || endsWith(path, ".S")) return InputKind::Foreign;
  if (endsWith(path, ".o") || endsWith(path, ".a") || endsWith(path, ".so") || isVersionedSharedLib(path))
    return InputKind::Object;
  return looksLikeObject(path) ? InputKind::Object : InputKind::Unknown;
}

}  // namespace simplec
