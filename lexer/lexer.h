// The lexer: turns a SourceFile into tokens. Every lexical problem (unknown
// character, unterminated comment or string, bad escape, malformed number)
// is reported through the DiagEngine and lexing continues, so the parser sees
// a well-formed token stream that always ends in Eof.
//
// Integer literals: a decimal literal keeps its value when <= 2^63 (so that
// "-9223372036854775808" can be accepted by the parser); above that, or a hex
// literal above 64 bits, sets intTooLarge and reports nothing (the parser
// reports "integer literal too large" where the literal is used).
#pragma once
#include <vector>

#include "lexer/diag.h"
#include "lexer/source.h"
#include "lexer/token.h"

namespace simplec {

std::vector<Token> tokenize(const SourceFile& file, DiagEngine& diag);

// The column just past the last character of t, a token tokenize(file)
// made. O(1) but for tokens of Token::kWide characters or more, which are
// lexed again (without diagnostics).
uint32_t tokenEndCol(const SourceFile& file, const Token& t);
SrcPos tokenEnd(const SourceFile& file, const Token& t);

}  // namespace simplec
