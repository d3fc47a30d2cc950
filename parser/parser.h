// The parser: recursive descent over the tokens of one file, building the
// Sea of Nodes directly (no AST). Every new node goes through its peephole
// as it is built. Each function gets its own graph in the Unit; the
// script's top level is the body of `main`.
#pragma once
#include "lexer/diag.h"
#include "lexer/source.h"
#include "son/unit.h"

namespace simplec {

// Parses `file` into `u`. Returns false when errors were reported (the graph
// is then incomplete and must not be compiled).
bool parseFile(const SourceFile& file, DiagEngine& diag, Unit& u);

}  // namespace simplec
