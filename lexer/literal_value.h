// The values of literal tokens. A token keeps only the spelling of a number
// (tokens are held by the million, so none carries an 8-byte value beside
// its text): the parser reads the value back from the spelling, with the
// same digit rules the lexer checked it by.
#pragma once
#include <cstdint>
#include <string_view>

#include "lexer/token.h"

namespace simplec {

// Decimal digits with '_' separators, read up to the first other character.
// tooLarge: the value is above 2^63 (the result is then 0).
uint64_t decimalDigitsValue(std::string_view s, bool& tooLarge);
// Hex digits with '_' separators, read up to the first other character.
// tooLarge: more than 64 bits (the result is then 0).
uint64_t hexDigitsValue(std::string_view s, bool& tooLarge);

// IntLit: its value; 0 when too large (intTooLarge) or malformed.
uint64_t intLiteralValue(const Token& t);
// FloatLit: its value; 0 when malformed or out of range.
double floatLiteralValue(const Token& t);
// CharLit: its byte; 0 when malformed.
uint64_t charLiteralValue(const Token& t);

}  // namespace simplec
