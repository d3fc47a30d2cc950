// Token kind names, generated from the SIMPLEC_TOKENS X-macro, and the
// keyword / type-name table used to classify words. Invariant: the kinds
// Eof..TypeName are token classes (described by a plain word); every later
// kind is a fixed spelling (described quoted, as "'('" or "'while'").
#include "lexer/token.h"

#include <unordered_map>

namespace simplec {

namespace {

constexpr const char* kSpellings[] = {
#define X(name, spelling) spelling,
    SIMPLEC_TOKENS(X)
#undef X
};
constexpr size_t kNumTokens = sizeof(kSpellings) / sizeof(kSpellings[0]);

// The primitive type names of LANGUAGE.md section 3; none may be used as a name.
constexpr const char* kTypeNames[] = {"int", "i8",   "i16",  "i32", "i64", "u1",  "u8",
                                      "u16", "u32",  "bool", "byte", "flt", "f32", "f64"};

using WordTable = std::unordered_map<std::string_view, Tok>;

WordTable buildWordTable() {
  WordTable table;
  for (auto k = static_cast<size_t>(Tok::KwIf); k <= static_cast<size_t>(Tok::KwVal); ++k)
    table.emplace(kSpellings[k], static_cast<Tok>(k));
  for (const char* t : kTypeNames) table.emplace(t, Tok::TypeName);
  return table;
}

}  // namespace

const char* tokSpelling(Tok t) {
  auto k = static_cast<size_t>(t);
  return k < kNumTokens ? kSpellings[k] : "?";
}

std::string tokDescription(Tok t) {
  if (static_cast<size_t>(t) <= static_cast<size_t>(Tok::TypeName)) return tokSpelling(t);
  return std::string("'") + tokSpelling(t) + "'";
}

Tok classifyWord(std::string_view word) {
  static const WordTable table = buildWordTable();
  // Every keyword and type name is 2 to 8 bytes long: skip the hash for
  // the rest (long identifiers are common in generated code).
  if (word.size() < 2 || word.size() > 8) return Tok::Ident;
  auto it = table.find(word);
  return it == table.end() ? Tok::Ident : it->second;
}

}  // namespace simplec
