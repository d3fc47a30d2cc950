// Tokens of Simple. Every token knows where it starts (line:col) and where
// it ends, so a diagnostic for a missing token can point just past the
// previous one.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "lexer/source.h"

namespace simplec {

// X(name, spelling). Keywords and type names are looked up by spelling.
#define SIMPLEC_TOKENS(X)                                              \
  X(Eof, "end of file") X(Ident, "identifier") X(IntLit, "integer")    \
  X(FloatLit, "float") X(CharLit, "character") X(StrLit, "string")     \
  X(TypeName, "type name")                                             \
  /* keywords */                                                       \
  X(KwIf, "if") X(KwElse, "else") X(KwWhile, "while") X(KwFor, "for")  \
  X(KwBreak, "break") X(KwContinue, "continue") X(KwReturn, "return")  \
  X(KwStruct, "struct") X(KwNew, "new") X(KwNull, "null")              \
  X(KwTrue, "true") X(KwFalse, "false") X(KwVar, "var") X(KwVal, "val") \
  /* punctuation */                                                    \
  X(LParen, "(") X(RParen, ")") X(LBrace, "{") X(RBrace, "}")          \
  X(LBracket, "[") X(RBracket, "]") X(Comma, ",") X(Semi, ";")         \
  X(Dot, ".") X(Hash, "#") X(Question, "?") X(Colon, ":")              \
  X(Tilde, "~") X(Arrow, "->")                                         \
  X(Assign, "=") X(PlusAssign, "+=") X(MinusAssign, "-=")              \
  X(StarAssign, "*=") X(SlashAssign, "/=") X(PercentAssign, "%=")      \
  X(AmpAssign, "&=") X(PipeAssign, "|=") X(CaretAssign, "^=")          \
  X(ShlAssign, "<<=") X(SarAssign, ">>=") X(ShrAssign, ">>>=")         \
  X(Eq, "==") X(Ne, "!=") X(Lt, "<") X(Le, "<=") X(Gt, ">") X(Ge, ">=") \
  X(Shl, "<<") X(Sar, ">>") X(Shr, ">>>")                              \
  X(Plus, "+") X(Minus, "-") X(Star, "*") X(Slash, "/")                \
  X(Percent, "%") X(Amp, "&") X(Pipe, "|") X(Caret, "^")               \
  X(AndAnd, "&&") X(OrOr, "||") X(Bang, "!")                           \
  X(PlusPlus, "++") X(MinusMinus, "--")

enum class Tok : uint8_t {
#define X(name, spelling) name,
  SIMPLEC_TOKENS(X)
#undef X
};

// The spelling used in diagnostics: "'('" for punctuation and keywords,
// "identifier" / "integer" ... for the token classes.
std::string tokDescription(Tok t);
const char* tokSpelling(Tok t);
// The kind of a word matching [A-Za-z_][A-Za-z0-9_]*: a keyword's Kw* kind,
// Tok::TypeName for a primitive type name (int i8 ... f64), else Tok::Ident.
Tok classifyWord(std::string_view word);

// Members ordered so that the small ones share padding: a huge file has
// millions of tokens.
struct Token {
  Tok kind = Tok::Eof;
  bool intTooLarge = false;  // IntLit beyond 64 bits (hex) or beyond 2^63 (decimal)
  bool isHex = false;
  SrcPos pos;       // first character
  SrcPos endPos;    // just past the last character
  std::string text; // identifier / keyword / type-name spelling; decoded bytes of a string;
                    // source spelling of an IntLit / FloatLit
  uint64_t intValue = 0;  // IntLit and CharLit
  double floatValue = 0;  // FloatLit
};

}  // namespace simplec
