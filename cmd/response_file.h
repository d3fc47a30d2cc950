// Response files: an argument `@FILE` stands for the arguments written in
// FILE, as in gcc (which is how build tools pass command lines longer than
// the system allows).
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace simplec {

// Splits a response file's text into arguments by gcc's rules (libiberty's
// buildargv): white space separates arguments; single and double quotes
// group characters, white space included, and are removed; a backslash
// makes the next character literal, inside quotes too. '' is an empty
// argument.
std::vector<std::string> splitResponseFile(std::string_view text);

// Replaces each `@FILE` in args by FILE's arguments, recursively (a response
// file may name others). As in gcc, an `@FILE` whose file cannot be read is
// kept as it is. False, with *err set, after too many expansions (a file
// that includes itself).
bool expandResponseFiles(std::vector<std::string>& args, std::string* err);

}  // namespace simplec
