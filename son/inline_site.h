// A call that the inliner replaced by a copy of the callee's body. The
// copied nodes' positions name the site (SrcPos::site), so a runtime error
// in them still shows the callee and the call it was inlined at.
#pragma once
#include "lexer/source.h"

namespace simplec {

struct InlineSite {
  int callee = -1;  // index into Unit::funs
  SrcPos call;      // the call's position in its caller (itself maybe inlined)
};

}  // namespace simplec
