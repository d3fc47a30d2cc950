// Parsing of golden-test directives and their rewriting by --bless.
// A directive is a whole-line `//` comment whose first word is a known key;
// any comment starting with `EXPECT-` is reserved, so a typo in a key is
// reported instead of silently ignored.
#include "test/golden_runner/golden_spec.h"

#include <algorithm>
#include <cstddef>

namespace simplec::golden {
namespace {

constexpr std::string_view kExpectPrefix = "EXPECT-";

struct Directive {
  std::string_view key;
  bool hasValue = false;
  std::string_view value;  // after ':' and at most one space
  bool malformed = false;  // EXPECT-like, but no ':' and text after the key
};

// Splits into lines without their '\n'; a final line without '\n' counts,
// an empty remainder after the last '\n' does not.
std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

bool isBlank(char c) { return c == ' ' || c == '\t'; }

bool isKeyChar(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-'; }

bool isMarkerKey(std::string_view key) {
  return key == "EXPECT-STDOUT-NO-NEWLINE" || key == "STDIN-NO-NEWLINE";
}

// directive = blank* "//" blank* KEY (":" " "? value | blank*)
std::optional<Directive> classify(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && isBlank(line[i])) i++;
  if (line.substr(i, 2) != "//") return std::nullopt;
  i += 2;
  while (i < line.size() && isBlank(line[i])) i++;
  size_t keyStart = i;
  while (i < line.size() && isKeyChar(line[i])) i++;
  Directive d;
  d.key = line.substr(keyStart, i - keyStart);
  bool reserved = d.key.substr(0, kExpectPrefix.size()) == kExpectPrefix;
  bool known = reserved || d.key == "ARGS" || d.key == "FLAGS" || d.key == "STDIN" || d.key == "STDIN-NO-NEWLINE";
  if (!known) return std::nullopt;
  if (i < line.size() && line[i] == ':') {
    d.hasValue = true;
    i++;
    if (i < line.size() && line[i] == ' ') i++;
    d.value = line.substr(i);
    return d;
  }
  size_t j = i;
  while (j < line.size() && isBlank(line[j])) j++;
  if (j == line.size() && (reserved || isMarkerKey(d.key))) return d;
  if (reserved) {
    d.malformed = true;
    return d;
  }
  return std::nullopt;  // e.g. "// ARGS are parsed later": an ordinary comment
}

// Non-negative decimal below 10^9; nullopt otherwise.
std::optional<int> parseCount(std::string_view s) {
  if (s.empty() || s.size() > 9) return std::nullopt;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && isBlank(s.front())) s.remove_prefix(1);
  while (!s.empty() && isBlank(s.back())) s.remove_suffix(1);
  return s;
}

// "LINE:COL: text" -> (line, col, text); nullopt if it does not start so.
std::optional<ExpectedError> parsePosText(std::string_view s) {
  size_t c1 = s.find(':');
  if (c1 == std::string_view::npos) return std::nullopt;
  size_t c2 = s.find(':', c1 + 1);
  if (c2 == std::string_view::npos) return std::nullopt;
  auto line = parseCount(s.substr(0, c1));
  auto col = parseCount(s.substr(c1 + 1, c2 - c1 - 1));
  if (!line || !col) return std::nullopt;
  std::string_view text = s.substr(c2 + 1);
  if (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  return ExpectedError{*line, *col, std::string(text)};
}

std::string lineProblem(size_t index, std::string_view what) {
  return "line " + std::to_string(index + 1) + ": " + std::string(what);
}

}  // namespace

std::string TestSpec::expectedStdout() const {
  std::string out;
  for (const auto& l : stdoutLines) {
    out += l;
    out += '\n';
  }
  if (stdoutNoNewline && !out.empty()) out.pop_back();
  return out;
}

int TestSpec::expectedExit() const {
  if (exitCode) return *exitCode;
  return runtimeError ? 101 : 0;
}

bool stdoutMatches(const TestSpec& spec, std::string_view actual) {
  std::string want = spec.expectedStdout();
  if (actual == want) return true;
  if (spec.stdoutNoNewline || actual.empty() || actual.back() == '\n') return false;
  return want.size() == actual.size() + 1 && want.back() == '\n' &&
         std::string_view(want).substr(0, actual.size()) == actual;
}

std::optional<std::vector<std::string>> splitArgs(std::string_view text) {
  std::vector<std::string> words;
  std::string cur;
  bool inWord = false;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (isBlank(c)) {
      if (inWord) words.push_back(cur);
      cur.clear();
      inWord = false;
      i++;
    } else if (c == '\'') {
      size_t end = text.find('\'', i + 1);
      if (end == std::string_view::npos) return std::nullopt;
      cur.append(text.substr(i + 1, end - i - 1));
      inWord = true;
      i = end + 1;
    } else if (c == '"') {
      i++;
      inWord = true;
      for (;;) {
        if (i >= text.size()) return std::nullopt;
        char q = text[i];
        if (q == '"') break;
        if (q == '\\' && i + 1 < text.size() && (text[i + 1] == '"' || text[i + 1] == '\\')) {
          cur += text[i + 1];
          i += 2;
        } else {
          cur += q;
          i++;
        }
      }
      i++;
    } else if (c == '\\' && i + 1 < text.size()) {
      cur += text[i + 1];
      inWord = true;
      i += 2;
    } else {
      cur += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push_back(cur);
  return words;
}

TestSpec parseSpec(std::string_view source) {
  TestSpec spec;
  bool stdinNoNewline = false;
  std::vector<std::string_view> lines = splitLines(source);
  for (size_t i = 0; i < lines.size(); i++) {
    auto d = classify(lines[i]);
    if (!d) continue;
    std::string key(d->key);
    if (d->malformed) {
      spec.problems.push_back(lineProblem(i, "expected ':' after '" + key + "'"));
      continue;
    }
    if (isMarkerKey(d->key)) {
      if (d->hasValue) {
        spec.problems.push_back(lineProblem(i, "'" + key + "' takes no value"));
      } else if (key == "STDIN-NO-NEWLINE") {
        stdinNoNewline = true;
      } else {
        spec.stdoutNoNewline = true;
      }
      continue;
    }
    if (!d->hasValue) {
      spec.problems.push_back(lineProblem(i, "expected ':' after '" + key + "'"));
      continue;
    }
    std::string_view v = d->value;
    if (key == "ARGS" || key == "FLAGS") {
      auto words = splitArgs(v);
      if (!words) {
        spec.problems.push_back(lineProblem(i, "unterminated quote in " + key));
        spec.argsMalformed = true;
        continue;
      }
      auto& into = key == "ARGS" ? spec.args : spec.flags;
      into.insert(into.end(), words->begin(), words->end());
    } else if (key == "STDIN") {
      if (!spec.stdinData) spec.stdinData.emplace();
      spec.stdinData->append(v);
      spec.stdinData->push_back('\n');
    } else if (key == "EXPECT-STDOUT") {
      spec.stdoutLines.emplace_back(v);
    } else if (key == "EXPECT-EXIT") {
      auto n = parseCount(trim(v));
      if (!n || *n > 255) {
        spec.problems.push_back(lineProblem(i, "EXPECT-EXIT needs a status from 0 to 255"));
      } else if (spec.exitCode) {
        spec.problems.push_back(lineProblem(i, "more than one EXPECT-EXIT"));
      } else {
        spec.exitCode = *n;
      }
    } else if (key == "EXPECT-ERROR") {
      auto e = parsePosText(v);
      if (!e || e->text.empty()) {
        spec.problems.push_back(lineProblem(i, "EXPECT-ERROR needs 'LINE:COL: message'"));
      } else {
        spec.errors.push_back(*e);
      }
    } else if (key == "EXPECT-WARNING") {
      auto e = parsePosText(v);
      if (!e || e->text.empty()) {
        spec.problems.push_back(lineProblem(i, "EXPECT-WARNING needs 'LINE:COL: message'"));
      } else {
        spec.warnings.push_back(*e);
      }
    } else if (key == "EXPECT-TRACE") {
      if (trim(v).empty()) spec.problems.push_back(lineProblem(i, "EXPECT-TRACE needs a frame line"));
      else spec.trace.emplace_back(trim(v));
    } else if (key == "EXPECT-RUNTIME-ERROR") {
      ExpectedRuntimeError r;
      if (auto e = parsePosText(v)) {
        r.hasPos = true;
        r.line = e->line;
        r.col = e->col;
        r.text = e->text;
      } else {
        r.text = std::string(v);
      }
      if (r.text.empty()) {
        spec.problems.push_back(lineProblem(i, "EXPECT-RUNTIME-ERROR needs a message"));
      } else if (spec.runtimeError) {
        spec.problems.push_back(lineProblem(i, "more than one EXPECT-RUNTIME-ERROR"));
      } else {
        spec.runtimeError = r;
      }
    } else {
      spec.problems.push_back(lineProblem(i, "unknown directive '" + key + "'"));
    }
  }
  if (stdinNoNewline) {
    if (!spec.stdinData)
      spec.problems.push_back("STDIN-NO-NEWLINE without any STDIN line");
    else
      spec.stdinData->pop_back();
  }
  if (spec.stdoutNoNewline && spec.stdoutLines.empty())
    spec.problems.push_back("EXPECT-STDOUT-NO-NEWLINE without any EXPECT-STDOUT line");
  if (!spec.errors.empty() &&
      (!spec.stdoutLines.empty() || spec.exitCode || spec.runtimeError))
    spec.problems.push_back(
        "EXPECT-ERROR (a compile error) cannot be combined with EXPECT-STDOUT, "
        "EXPECT-EXIT or EXPECT-RUNTIME-ERROR");
  if (!spec.trace.empty() && !spec.runtimeError)
    spec.problems.push_back("EXPECT-TRACE without EXPECT-RUNTIME-ERROR");
  if (spec.runtimeError && spec.exitCode && *spec.exitCode != 101)
    spec.problems.push_back("EXPECT-RUNTIME-ERROR implies exit status 101");
  return spec;
}

bool isTraceLine(std::string_view line) {
  return line.substr(0, 5) == "  at " || line.substr(0, 6) == "  ... ";
}

std::vector<std::string> traceLines(std::string_view err, const std::string& path) {
  std::string base = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
  std::vector<std::string> out;
  for (std::string_view l : splitLines(err)) {
    if (!isTraceLine(l)) continue;
    std::string t(trim(l));
    std::string from = "(" + path + ":";
    size_t at = t.find(from);
    if (at != std::string::npos) t.replace(at, from.size(), "(" + base + ":");
    out.push_back(std::move(t));
  }
  return out;
}

namespace {

// "at f (prog.smp:12:5)" with 12 moved by `mapLine` (a bless moves lines).
template <typename MapLine>
std::string movedTraceLine(const std::string& t, MapLine mapLine) {
  size_t open = t.rfind('(');
  if (open == std::string::npos) return t;
  size_t colon2 = t.rfind(':');
  size_t colon1 = colon2 == std::string::npos || colon2 == 0 ? std::string::npos : t.rfind(':', colon2 - 1);
  if (colon1 == std::string::npos || colon1 < open) return t;
  auto line = parseCount(std::string_view(t).substr(colon1 + 1, colon2 - colon1 - 1));
  if (!line) return t;
  return t.substr(0, colon1 + 1) + std::to_string(mapLine(*line)) + t.substr(colon2);
}

}  // namespace

std::string blessSource(std::string_view source, const ActualOutcome& outcome) {
  std::vector<std::string_view> lines = splitLines(source);
  bool endsWithNewline = !source.empty() && source.back() == '\n';

  std::vector<bool> removed(lines.size(), false);
  size_t firstRemoved = lines.size();
  for (size_t i = 0; i < lines.size(); i++) {
    auto d = classify(lines[i]);
    if (d && d->key.substr(0, kExpectPrefix.size()) == kExpectPrefix) {
      removed[i] = true;
      firstRemoved = std::min(firstRemoved, i);
    }
  }

  // The new block's size does not depend on line numbers, so it can be
  // computed first and used to map old line numbers to new ones.
  size_t blockSize = 0;
  std::vector<std::string> stdoutLines;
  bool noNewline = false;
  if (outcome.errors.empty()) {
    std::string_view out = outcome.stdoutText;
    for (auto l : splitLines(out)) stdoutLines.emplace_back(l);
    noNewline = !out.empty() && out.back() != '\n';
    blockSize = stdoutLines.size() + (noNewline ? 1 : 0) +
                (outcome.runtimeError ? 1 + outcome.trace.size() : 0) +
                (!outcome.runtimeError && outcome.exitCode != 0 ? 1 : 0) +
                (outcome.runtimeError && outcome.exitCode != 101 ? 1 : 0);
  } else {
    blockSize = outcome.errors.size();
  }
  blockSize += outcome.warnings.size();

  // keptBefore[i]: kept lines with index < i, for i in [0, lines.size()].
  std::vector<size_t> keptBefore(lines.size() + 1, 0);
  for (size_t i = 0; i < lines.size(); i++) keptBefore[i + 1] = keptBefore[i] + (removed[i] ? 0 : 1);
  size_t insertAt = keptBefore[firstRemoved];  // rank among kept lines
  auto mapLine = [&](int oldLine) {
    if (oldLine < 1) return oldLine;
    size_t idx = static_cast<size_t>(oldLine - 1);
    size_t rank = idx < lines.size() ? keptBefore[idx] : keptBefore[lines.size()] + (idx - lines.size());
    if (rank >= insertAt) rank += blockSize;
    return static_cast<int>(rank + 1);
  };
  auto pos = [&](int line, int col) {
    return std::to_string(mapLine(line)) + ":" + std::to_string(col) + ": ";
  };

  std::vector<std::string> block;
  for (const auto& w : outcome.warnings) block.push_back("// EXPECT-WARNING: " + pos(w.line, w.col) + w.text);
  if (!outcome.errors.empty()) {
    for (const auto& e : outcome.errors) block.push_back("// EXPECT-ERROR: " + pos(e.line, e.col) + e.text);
  } else {
    for (const auto& l : stdoutLines) block.push_back("// EXPECT-STDOUT: " + l);
    if (noNewline) block.push_back("// EXPECT-STDOUT-NO-NEWLINE");
    if (outcome.runtimeError) {
      const auto& r = *outcome.runtimeError;
      block.push_back("// EXPECT-RUNTIME-ERROR: " + (r.hasPos ? pos(r.line, r.col) : "") + r.text);
      for (const std::string& t : outcome.trace) block.push_back("// EXPECT-TRACE: " + movedTraceLine(t, mapLine));
      if (outcome.exitCode != 101) block.push_back("// EXPECT-EXIT: " + std::to_string(outcome.exitCode));
    } else if (outcome.exitCode != 0) {
      block.push_back("// EXPECT-EXIT: " + std::to_string(outcome.exitCode));
    }
  }

  std::string out;
  size_t kept = 0;
  auto emitBlock = [&] {
    for (const auto& b : block) out += b + "\n";
  };
  for (size_t i = 0; i < lines.size(); i++) {
    if (removed[i]) continue;
    if (kept == insertAt) emitBlock();
    out.append(lines[i]);
    kept++;
    if (i + 1 < lines.size() || endsWithNewline) out += '\n';
  }
  if (kept == insertAt) {
    if (!out.empty() && out.back() != '\n') out += '\n';
    emitBlock();
  }
  return out;
}

}  // namespace simplec::golden
