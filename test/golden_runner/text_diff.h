// Line diffs and byte escaping for the golden runner's failure reports.
// Invariant: output is plain printable text whatever bytes the inputs hold,
// and its size is bounded (long diffs are cut with a note).
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace simplec::golden {

// Control bytes (other than tab), DEL and bytes that are not part of valid
// UTF-8 become \xHH; everything else, including a backslash, stays as is.
std::string escapeForDisplay(std::string_view s);

// A unified diff ("--- expected", "+++ actual", @@ hunks with 3 lines of
// context) of two texts split at '\n'. A last line without '\n' is followed
// by "\ No newline at end of file", as diff(1) does. Empty if equal.
std::string unifiedDiff(std::string_view expected, std::string_view actual,
                        size_t maxLines = 100);

// The first `maxLines` lines of s, each prefixed by `indent`, escaped, and
// cut after `maxWidth` bytes.
std::string indentLines(std::string_view s, std::string_view indent, size_t maxLines = 40,
                        size_t maxWidth = 400);

}  // namespace simplec::golden
