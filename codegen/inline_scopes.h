// -g: where the code of each inlined call lies in a finished function, for
// DW_TAG_inlined_subroutine entries. Instructions are taken in layout order
// with the chain of inlined calls they come from (MInst::site, resolved to
// calls that have a frame, mir::InlinedCall::frame); an instruction without
// a line (moves, spills, jumps) stays in the scope before it, as it stays
// in the line-table row before it. Code motion can interleave the code of
// several calls: a call then has several ranges. One pass, linear in the
// function's size times the inlining depth.
#pragma once
#include <vector>

#include "codegen/mir.h"

namespace simplec {

// Instructions [begin, end) in layout order (the index one past the last
// instruction is the function's end).
struct InstRange {
  int begin, end;
  bool operator==(const InstRange& o) const { return begin == o.begin && end == o.end; }
};

struct InlineScope {
  int call;    // index into the module's inlined calls (a frame)
  int parent;  // index of the enclosing scope in the result, -1: the function's own code
  std::vector<InstRange> ranges;  // sorted, disjoint, not empty, within the parent's
};

// Parents come before their children in the result.
std::vector<InlineScope> inlineScopes(const mir::MFunction& f, const std::vector<mir::InlinedCall>& calls);

}  // namespace simplec
