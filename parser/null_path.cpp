// Paths for null facts (parser/null_path.h).
#include "parser/null_path.h"

namespace simplec {

NullPath NullPath::then(const PathStep& s) const {
  NullPath p = *this;
  if (p.valid()) p.steps.push_back(s);
  return p;
}

bool NullPath::mentions(int v) const {
  if (root == v) return true;
  for (const PathStep& s : steps)
    if (s.element && s.indexVar == v) return true;
  return false;
}

int NullPath::maxVar() const {
  int m = root;
  for (const PathStep& s : steps)
    if (s.element && s.indexVar > m) m = s.indexVar;
  return m;
}

bool NullPath::readsKey(bool element, int key) const {
  for (const PathStep& s : steps)
    if (s.element == element && s.key == key) return true;
  return false;
}

std::string NullPath::str() const {
  if (!valid()) return "-";
  std::string r = "v" + std::to_string(root);
  for (const PathStep& s : steps) {
    if (!s.element) {
      r += ".f" + std::to_string(s.key);
      continue;
    }
    r += "[e" + std::to_string(s.key) + ":";
    r += s.indexVar >= 0 ? "v" + std::to_string(s.indexVar) : "#" + std::to_string(s.index);
    r += "]";
  }
  return r;
}

}  // namespace simplec
