// UTF-8 characters, as diagnostics count and show them. A column counts
// characters: a well-formed UTF-8 sequence is one character, and any other
// byte (a stray continuation byte, a broken or overlong sequence) is one
// character by itself, so every byte belongs to exactly one character and
// '\n' is always a character of its own.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace simplec {

// The length in bytes (1..4) of the character starting at s[i] (i < size).
size_t utf8CharLen(std::string_view s, size_t i);

// The code point of the character at s[i], or -1 for a byte that is not
// part of a well-formed sequence.
int32_t utf8Decode(std::string_view s, size_t i);

// How many terminal cells the character at s[i] takes, as wcwidth says for
// the common cases: 2 for East Asian wide characters and emoji, 0 for
// combining marks and zero-width characters, else 1 (a bad byte shows as
// one replacement character).
int utf8DisplayWidth(std::string_view s, size_t i);

}  // namespace simplec
