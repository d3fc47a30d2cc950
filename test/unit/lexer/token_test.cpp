// Tests for token names: descriptions used in diagnostics, spellings, and
// the classification of words into keywords, type names and identifiers.
#include "lexer/token.h"

#include <catch2/catch.hpp>

using simplec::classifyWord;
using simplec::Tok;
using simplec::tokDescription;
using simplec::tokSpelling;

TEST_CASE("token classes are described by plain words", "[lexer][token]") {
  CHECK(tokDescription(Tok::Eof) == "end of file");
  CHECK(tokDescription(Tok::Ident) == "identifier");
  CHECK(tokDescription(Tok::IntLit) == "integer");
  CHECK(tokDescription(Tok::FloatLit) == "float");
  CHECK(tokDescription(Tok::CharLit) == "character");
  CHECK(tokDescription(Tok::StrLit) == "string");
  CHECK(tokDescription(Tok::TypeName) == "type name");
}

TEST_CASE("keywords and punctuation are described quoted", "[lexer][token]") {
  CHECK(tokDescription(Tok::LParen) == "'('");
  CHECK(tokDescription(Tok::KwWhile) == "'while'");
  CHECK(tokDescription(Tok::ShrAssign) == "'>>>='");
  CHECK(tokDescription(Tok::Arrow) == "'->'");
  CHECK(tokDescription(Tok::MinusMinus) == "'--'");
  CHECK(std::string(tokSpelling(Tok::Semi)) == ";");
  CHECK(std::string(tokSpelling(Tok::KwVal)) == "val");
  CHECK(std::string(tokSpelling(Tok::Ident)) == "identifier");
}

TEST_CASE("classifyWord finds every keyword by its spelling", "[lexer][token]") {
  for (int k = static_cast<int>(Tok::KwIf); k <= static_cast<int>(Tok::KwVal); ++k) {
    Tok t = static_cast<Tok>(k);
    INFO(tokSpelling(t));
    CHECK(classifyWord(tokSpelling(t)) == t);
  }
}

TEST_CASE("classifyWord: type names, and words that are not", "[lexer][token]") {
  for (const char* t : {"int", "i8", "i16", "i32", "i64", "u1", "u8", "u16", "u32", "bool",
                        "byte", "flt", "f32", "f64"}) {
    INFO(t);
    CHECK(classifyWord(t) == Tok::TypeName);
  }
  for (const char* w : {"x", "_", "u64", "f16", "i128", "If", "WHILE", "integer", "int_",
                        "returned", "nul", "vals", "continuex", "a_very_long_identifier_name"}) {
    INFO(w);
    CHECK(classifyWord(w) == Tok::Ident);
  }
}
