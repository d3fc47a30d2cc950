// -g: the source blocks that hold variables (DebugVar::scopeBegin/End), as
// DW_TAG_lexical_block entries: where their code lies in a finished
// function. An instruction belongs to the innermost block whose source
// range holds the position the source stands at while it runs (for inlined
// code, its call: debug_versions.h); one without a line stays where the
// instruction before it was, as in the line table. Blocks nest as the
// source does, so the debugger looks a name up from the innermost block
// out (two loops' `i` do not hide each other). One pass, linear in the
// function's size times the nesting depth.
#pragma once
#include <vector>

#include "codegen/inline_scopes.h"
#include "codegen/mir.h"

namespace simplec {

struct LexicalScope {
  SrcPos begin, end;              // the source range, both ends included
  int parent = -1;                // index in the result, -1: the function
  std::vector<InstRange> ranges;  // sorted, disjoint; may be empty
};

// Parents come before their children.
std::vector<LexicalScope> lexicalScopes(const mir::MFunction& f);

// The innermost scope whose source range holds `pos` and that has code
// (-1: none, the function itself).
int innermostLexicalScope(const std::vector<LexicalScope>& scopes, SrcPos pos);

// The scope declared as [begin, end] (-1: none).
int lexicalScopeOf(const std::vector<LexicalScope>& scopes, SrcPos begin, SrcPos end);

}  // namespace simplec
