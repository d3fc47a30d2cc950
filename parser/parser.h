// The parser: recursive descent over the tokens of one file, building the
// Sea of Nodes directly (no AST). Every new node goes through its peephole
// as it is built. Functions become Fun/Parm/Return subgraphs of the one
// Graph; the script's top level is the body of `main`.
#pragma once
#include "lexer/diag.h"
#include "lexer/source.h"
#include "son/graph.h"

namespace simplec {

// Parses `file` into `g`. Returns false when errors were reported (the graph
// is then incomplete and must not be compiled).
bool parseFile(const SourceFile& file, DiagEngine& diag, Graph& g);

}  // namespace simplec
