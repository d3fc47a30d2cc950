// Tokens and statement structure of a Simple source, as the reducer needs
// them: a forgiving lexer that keeps each token's line, a printer that puts
// tokens back on their original lines, and a statement tree over token
// ranges (blocks, if/else, loops, simple statements, function bodies).
// Invariant: the tree only indexes into the token vector it was built from;
// anything malformed becomes a simple statement, never an error.
#pragma once
#include <string>
#include <vector>

namespace simplec::fuzz {

struct Token {
  std::string text;
  int line = 0;
};
using Tokens = std::vector<Token>;

Tokens tokenizeSource(const std::string& text);  // comments are dropped
std::string printTokens(const Tokens& toks);

struct StmtNode {
  enum Kind { Simple, Block, If, While, For, FnBody };
  Kind kind = Simple;
  size_t begin = 0, end = 0;       // token range [begin, end)
  size_t condBegin = 0, condEnd = 0;  // If/While/For: inside the header parentheses
  std::vector<int> children;       // Block/FnBody: statements; If: then [, else]; loops: body;
                                   // Simple: the bodies of function literals in it
  bool hasElse = false;
};

struct StmtTree {
  std::vector<StmtNode> nodes;
  std::vector<int> top;            // top-level statements
  // Every statement list (top level first, then pre-order), for chunked deletion.
  std::vector<std::vector<int>> lists;
};

StmtTree parseStatements(const Tokens& toks);

// Index of the token matching the bracket at `open`, or toks.size().
size_t matchingBracket(const Tokens& toks, size_t open);

bool isIdentifier(const std::string& s);
bool isNumber(const std::string& s);

}  // namespace simplec::fuzz
