// Tokens of Simple. Every token knows where it starts (line:col) and where
// it ends, so a diagnostic for a missing token can point just past the
// previous one.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "lexer/source.h"
#include "lexer/interned_string.h"

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

// All tokens of a file stay in memory for the whole parse (the parser looks
// ahead and jumps back by token index), so a huge file has millions of them:
// every member is as small as it can be, and the small ones share padding.
struct Token {
  // Widths from here on are not kept: tokenEndCol (lexer/lexer.h) lexes
  // such a token again to find its end.
  static constexpr uint8_t kWide = 255;

  Tok kind = Tok::Eof;
  bool intTooLarge : 1 = false;  // IntLit beyond 64 bits (hex) or beyond 2^63 (decimal)
  bool isHex : 1 = false;
  bool bad : 1 = false;          // a literal the lexer reported a problem in: value 0
  SrcFile file = kMainFile;
  // Characters from the first to just past the last, kWide or more: kWide.
  // No token contains a newline (a string or character literal ends at
  // one), so the end is on `line`.
  uint8_t width = 0;
  // First character. A token is never inlined code, so of a SrcPos it
  // needs only these (and the file above, which shares the padding).
  uint32_t line = 0, col = 0;
  // Identifier / keyword / type-name spelling; source spelling of an IntLit
  // or FloatLit (its value: lexer/literal_value.h); decoded bytes of a
  // string; the byte of a CharLit; "" otherwise.
  InternedString text;

  SrcPos pos() const {
    SrcPos p;
    p.line = line;
    p.col = col;
    p.file = file;
    return p;
  }
  void setPos(SrcPos p) {
    line = p.line;
    col = p.col;
    file = p.file;
  }
};
// 16 bytes; 88 with a std::string and a full end SrcPos.
static_assert(sizeof(Token) <= 16, "Token is kept by the million: keep it small");

}  // namespace simplec
