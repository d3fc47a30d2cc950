// See lexical_scopes.h.
#include "codegen/lexical_scopes.h"

#include <algorithm>

#include "codegen/debug_versions.h"

namespace simplec {

namespace {

bool before(const SrcPos& a, const SrcPos& b) { return a.line < b.line || (a.line == b.line && a.col < b.col); }
bool same(const SrcPos& a, const SrcPos& b) { return a.line == b.line && a.col == b.col; }
bool holds(const LexicalScope& s, const SrcPos& p) { return !before(p, s.begin) && !before(s.end, p); }

// The innermost scope holding p, code or not: the last one starting at or
// before p, then out through its parents.
int innermost(const std::vector<LexicalScope>& scopes, const SrcPos& p) {
  auto it = std::upper_bound(scopes.begin(), scopes.end(), p,
                             [](const SrcPos& x, const LexicalScope& s) { return before(x, s.begin); });
  int k = int(it - scopes.begin()) - 1;
  while (k >= 0 && !holds(scopes[size_t(k)], p)) k = scopes[size_t(k)].parent;
  return k;
}

}  // namespace

std::vector<LexicalScope> lexicalScopes(const mir::MFunction& f) {
  std::vector<LexicalScope> scopes;
  for (const mir::DebugVarLoc& v : f.debugVars)
    if (v.var.scopeBegin.valid() && v.var.scopeBegin.file == kMainFile && v.var.scopeEnd.valid())
      scopes.push_back({v.var.scopeBegin, v.var.scopeEnd, -1, {}});
  if (scopes.empty()) return scopes;
  // Outer before inner: by start, the longer first.
  std::sort(scopes.begin(), scopes.end(), [](const LexicalScope& a, const LexicalScope& b) {
    return before(a.begin, b.begin) || (same(a.begin, b.begin) && before(b.end, a.end));
  });
  scopes.erase(std::unique(scopes.begin(), scopes.end(),
                           [](const LexicalScope& a, const LexicalScope& b) {
                             return same(a.begin, b.begin) && same(a.end, b.end);
                           }),
               scopes.end());
  std::vector<int> stack;  // the enclosing scopes of the next one
  for (size_t k = 0; k < scopes.size(); k++) {
    while (!stack.empty() && !(holds(scopes[size_t(stack.back())], scopes[k].begin) &&
                               holds(scopes[size_t(stack.back())], scopes[k].end)))
      stack.pop_back();
    scopes[k].parent = stack.empty() ? -1 : stack.back();
    stack.push_back(int(k));
  }
  // The ranges: the chain of scopes open at each instruction.
  std::vector<int> open, openedAt, chain;
  auto close = [&](size_t keep, int at) {
    for (; open.size() > keep; open.pop_back(), openedAt.pop_back()) {
      std::vector<InstRange>& r = scopes[size_t(open.back())].ranges;
      if (openedAt.back() < at) r.push_back({openedAt.back(), at});
    }
  };
  int current = -1, index = 0;
  for (const mir::MBlock& b : f.blocks)
    for (const mir::MInst& mi : b.insts) {
      SrcPos p = sourcePosition(f, mi);
      int k = p.valid() ? innermost(scopes, p) : current;
      if (k != current) {
        chain.clear();
        for (int x = k; x >= 0; x = scopes[size_t(x)].parent) chain.push_back(x);
        std::reverse(chain.begin(), chain.end());
        size_t keep = 0;
        while (keep < open.size() && keep < chain.size() && open[keep] == chain[keep]) keep++;
        close(keep, index);
        for (size_t j = keep; j < chain.size(); j++) {
          open.push_back(chain[j]);
          openedAt.push_back(index);
        }
        current = k;
      }
      index++;
    }
  close(0, index);
  return scopes;
}

int innermostLexicalScope(const std::vector<LexicalScope>& scopes, SrcPos pos) {
  int k = innermost(scopes, pos);
  while (k >= 0 && scopes[size_t(k)].ranges.empty()) k = scopes[size_t(k)].parent;
  return k;
}

int lexicalScopeOf(const std::vector<LexicalScope>& scopes, SrcPos begin, SrcPos end) {
  auto it = std::lower_bound(scopes.begin(), scopes.end(), begin,
                             [](const LexicalScope& s, const SrcPos& x) { return before(s.begin, x); });
  for (; it != scopes.end() && same(it->begin, begin); ++it)
    if (same(it->end, end)) return int(it - scopes.begin());
  return -1;
}

}  // namespace simplec
