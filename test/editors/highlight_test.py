#!/usr/bin/env python3
"""Checks the editor grammars against the compiler's own lexer.

Highlights .smp files with the TextMate grammar (editors/vscode) and the Vim
syntax file (editors/vim), each read by a small engine below, and compares
every character's category (keyword, type, constant, number, string, escape,
char, comment, none) with what `simplec --emit=tokens` says is there: the
tokens give keywords, type names, literals and the rest; any other non-blank
character is inside a comment. With vim installed, vim itself highlights the
sample too and must agree with the Vim engine on every character, and must
detect the `simple` filetype through editors/vim/ftdetect.

usage: highlight_test.py --simplec PATH [--no-vim] FILE_OR_DIR...
Prints each mismatch, then "N passed, N failed" (one test per file and
grammar); exits 0 only if nothing failed.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TM_GRAMMAR = os.path.join(ROOT, "editors/vscode/syntaxes/simple.tmLanguage.json")
TM_PACKAGE = os.path.join(ROOT, "editors/vscode/package.json")
VIM_DIR = os.path.join(ROOT, "editors/vim")
VIM_SYNTAX = os.path.join(VIM_DIR, "syntax/simple.vim")

CATEGORIES = ("keyword", "type", "constant", "number", "string", "escape", "char", "comment")


# ---------------------------------------------------------------- the oracle
TOKEN_LINE = re.compile(r"^(\d+):(\d+) ('[^']*'|type name|identifier|integer|float|character|string|end of file)(?: (.*))?$")


def literal_end(text, i, quote):
    """Index just past the string or char literal whose quote is at text[i]."""
    j = i + 1
    while j < len(text) and text[j] != quote and text[j] != "\n":
        j += 2 if text[j] == "\\" else 1
    return min(j + 1, len(text))


def line_starts(text):
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)
    return starts


def column_offset(text, starts, line, col, first):
    """Offset of LINE:COL, the column counted in bytes or in characters
    (whichever the lexer uses: they differ only after non-ASCII text)."""
    base = starts[line - 1]
    by_char = base + col - 1
    if by_char < len(text) and text[by_char] == first:
        return by_char
    # Count bytes: walk the line's characters by their UTF-8 length.
    b, i = 0, base
    while i < len(text) and b < col - 1:
        b += len(text[i].encode("utf-8", "surrogateescape"))
        i += 1
    return i


def expected_categories(simplec, path, text):
    """Per character: the category the lexer implies, or None where either
    is fine (blanks). Returns None if simplec cannot lex the file."""
    r = subprocess.run([simplec, "--emit=tokens", path], capture_output=True)
    if r.returncode != 0:
        return None
    want = [None] * len(text)
    covered = [False] * len(text)
    starts = line_starts(text)
    for raw in r.stdout.decode("utf-8", "surrogateescape").splitlines():
        m = TOKEN_LINE.match(raw)
        if not m:
            raise RuntimeError("unexpected --emit=tokens line: " + raw)
        line, col, kind, tok = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)
        if kind == "end of file":
            continue
        first = {"string": '"', "character": "'"}.get(kind)
        if first is None:
            first = (tok or kind.strip("'"))[0]
        i = column_offset(text, starts, line, col, first)
        if kind == "string":
            end = literal_end(text, i, '"')
            cats = ["string"] * (end - i)
            for e in re.finditer(r"\\(?:x[0-9A-Fa-f]{2}|.)", text[i:end - 1]):
                for k in range(e.start(), e.end()):
                    cats[k] = "escape"
        elif kind == "character":
            end = literal_end(text, i, "'")
            cats = ["char"] * (end - i)
        else:
            spelling = tok if kind in ("identifier", "integer", "float", "type name") else kind[1:-1]
            end = i + len(spelling)
            if text[i:end] != spelling:
                raise RuntimeError("%s:%d:%d: token %r not found in the source" % (path, line, col, spelling))
            cat = {"type name": "type", "integer": "number", "float": "number", "identifier": None}.get(kind)
            if kind.startswith("'"):
                word = kind[1:-1]
                if word in ("true", "false", "null"):
                    cat = "constant"
                elif re.fullmatch(r"[a-z]+", word):
                    cat = "keyword"
            cats = [cat] * (end - i)
        for k, c in enumerate(cats):
            want[i + k] = c if c is not None else "none"
            covered[i + k] = True
    for i, ch in enumerate(text):
        if not covered[i] and not ch.isspace():
            want[i] = "comment"
    return want


# ------------------------------------------------------- the TextMate engine
# Constructs that Oniguruma and Python's re read differently, or that only
# one of them has: the grammar must not use them.
NON_PORTABLE = re.compile(r"\\[hHGAzZK]|\\p\{|\(\?<[A-Za-z]|\(\?>|[*+?}]\+|\(\?[imx]")


class TextMate:
    def __init__(self, path):
        with open(path) as f:
            self.grammar = json.load(f)
        self.repo = self.grammar.get("repository", {})
        self.cache = {}

    def regex(self, src):
        if src not in self.cache:
            if NON_PORTABLE.search(src):
                raise RuntimeError("regex outside the portable subset: " + src)
            self.cache[src] = re.compile(src)
        return self.cache[src]

    def rules(self, patterns, seen=()):
        """The patterns with includes expanded, in order."""
        out = []
        for p in patterns:
            inc = p.get("include")
            if inc is None:
                if "match" not in p and "begin" not in p:
                    out += self.rules(p.get("patterns", []), seen)
                else:
                    out.append(p)
                continue
            if inc in seen:
                continue
            if inc == "$self":
                out += self.rules(self.grammar["patterns"], seen + (inc,))
            elif inc.startswith("#"):
                out += self.rules([self.repo[inc[1:]]], seen + (inc,))
            else:
                raise RuntimeError("unsupported include " + inc)
        return out

    def tokenize(self, text):
        """The scope stack of every character, as a list of tuples."""
        scopes = [()] * len(text)
        top = self.rules(self.grammar["patterns"])
        stack = []  # (rule, its patterns, the scopes inside it)
        offset = 0
        for line in text.split("\n"):
            s = line + "\n"  # as vscode-textmate passes each line
            pos = 0
            while pos < len(s):
                inside = stack[-1][2] if stack else ()
                candidates = []
                if stack:
                    m = self.regex(stack[-1][0]["end"]).search(s, pos)
                    if m:
                        candidates.append((m.start(), 0, "end", stack[-1][0], m))
                for n, rule in enumerate(stack[-1][1] if stack else top):
                    m = self.regex(rule.get("match") or rule["begin"]).search(s, pos)
                    if m:
                        candidates.append((m.start(), n + 1, "begin" if "begin" in rule else "match", rule, m))
                if not candidates:
                    break
                start, _, what, rule, m = min(candidates, key=lambda c: (c[0], c[1]))

                def paint(a, b, sc):
                    for k in range(a, min(b, len(line))):
                        scopes[offset + k] = sc

                paint(pos, start, inside)
                if what == "end":
                    paint(m.start(), m.end(), inside)
                    stack.pop()
                    pos = m.end()
                    continue
                named = inside + ((rule["name"],) if "name" in rule else ())
                paint(m.start(), m.end(), named)
                caps = rule.get("captures" if what == "match" else "beginCaptures", {})
                for g, cap in caps.items():
                    if m.group(int(g)) is not None and "name" in cap:
                        paint(m.start(int(g)), m.end(int(g)), named + (cap["name"],))
                if what == "begin":
                    stack.append((rule, self.rules(rule.get("patterns", [])), named))
                pos = m.end() if m.end() > pos else pos + 1
            if pos < len(line):
                for k in range(pos, len(line)):
                    scopes[offset + k] = stack[-1][2] if stack else ()
            offset += len(line) + 1
        return scopes


# Longest prefix wins.
TM_CATEGORY = {
    "comment": "comment",
    "string.quoted.double": "string",
    "string.quoted.single": "char",
    "constant.character.escape": "escape",
    "constant.numeric": "number",
    "constant.language": "constant",
    "keyword": "keyword",
    "storage.type": "type",
}


def tm_category(scope_stack):
    for scope in reversed(scope_stack):
        best = None
        for prefix, cat in TM_CATEGORY.items():
            if (scope == prefix or scope.startswith(prefix + ".")) and (best is None or len(prefix) > len(best[0])):
                best = (prefix, cat)
        if best:
            return best[1]
    return "none"


# ------------------------------------------------------------ the Vim engine
VIM_CATEGORY = {
    "Conditional": "keyword", "Repeat": "keyword", "Statement": "keyword", "Keyword": "keyword",
    "Structure": "keyword", "StorageClass": "keyword", "Type": "type", "Boolean": "constant",
    "Constant": "constant", "Number": "number", "Float": "number", "String": "string",
    "SpecialChar": "escape", "Character": "char", "Comment": "comment",
}


WORD = re.compile(r"\w+")


def vim_regex(pat):
    """A very magic (\\v) Vim pattern in the subset the syntax file uses, as
    a Python regex: only the word boundaries < and > are spelt differently."""
    if not pat.startswith("\\v"):
        raise RuntimeError("Vim pattern without \\v: " + pat)
    out, i = [], 2
    while i < len(pat):
        ch = pat[i]
        if ch == "\\":
            out.append(pat[i:i + 2])
            i += 2
            continue
        if ch in "<>":
            out.append(r"\b")
        elif ch in "=@%~&":
            raise RuntimeError("Vim pattern outside the supported subset: " + pat)
        else:
            out.append(ch)
        i += 1
    return re.compile("".join(out), re.M)


class Vim:
    def __init__(self, path):
        self.keywords = {}  # word -> group
        self.items = []  # in definition order: dicts with kind, group, contained, ...
        self.links = {}
        with open(path) as f:
            for raw in f:
                line = raw.strip()
                if not line.startswith(("syn ", "syntax ", "hi ", "highlight ")):
                    continue
                words = line.split()
                if words[0] in ("hi", "highlight"):
                    if words[1:3] != ["def", "link"]:
                        raise RuntimeError("unsupported: " + line)
                    self.links[words[3]] = words[4]
                    continue
                cmd, group, rest = words[1], words[2], line.split(None, 3)[3]
                if cmd == "keyword":
                    for w in rest.split():
                        self.keywords[w] = group
                elif cmd == "match":
                    contained = rest.startswith("contained ")
                    if contained:
                        rest = rest[len("contained "):].lstrip()
                    delim = rest[0]
                    end = rest.index(delim, 1)
                    if rest[end + 1:].strip():
                        raise RuntimeError("unsupported match options: " + line)
                    self.items.append({"kind": "match", "group": group, "contained": contained,
                                       "re": vim_regex(rest[1:end])})
                elif cmd == "region":
                    item = {"kind": "region", "group": group, "contained": False, "oneline": False,
                            "skip": None, "contains": []}
                    for m in re.finditer(r"(\w+)(?:=(?:(\S)(.*?)\2|(\S+)))?(?:\s|$)", rest):
                        key, pattern, value = m.group(1), m.group(3), m.group(4)
                        if key in ("start", "skip", "end"):
                            item[key] = vim_regex(pattern)
                        elif key == "contains":
                            item["contains"] = value.split(",")
                        elif key in ("oneline", "contained") and not pattern and not value:
                            item[key] = True
                        else:
                            raise RuntimeError("unsupported region option %r: %s" % (key, line))
                    self.items.append(item)
                else:
                    raise RuntimeError("unsupported: " + line)

    def region_end(self, item, text, pos):
        """The end match of a region whose body starts at pos, passing over
        skip matches; with oneline only on the same line."""
        limit = text.find("\n", pos) if item["oneline"] else -1
        while True:
            m = item["end"].search(text, pos)
            s = item["skip"].search(text, pos) if item["skip"] else None
            if s and m and s.start() <= m.start() and s.end() > s.start():
                pos = s.end()
                continue
            if m and limit >= 0 and m.start() > limit:
                return None
            return m

    def start_at(self, text, pos, allowed):
        """The item that starts at pos: a keyword first, else the match or
        region defined last."""
        if text[pos].isalnum() or text[pos] == "_":
            if pos == 0 or not (text[pos - 1].isalnum() or text[pos - 1] == "_"):
                m = WORD.match(text, pos)
                group = self.keywords.get(m.group(0))
                if group and (allowed is None or group in allowed):
                    return ("keyword", group, m.end(), None)
        for item in reversed(self.items):
            if allowed is None and item["contained"] or allowed is not None and item["group"] not in allowed:
                continue
            pat = item["re"] if item["kind"] == "match" else item["start"]
            m = pat.match(text, pos)
            if not m:
                continue
            if item["kind"] == "match":
                return ("match", item["group"], m.end(), None)
            end = self.region_end(item, text, m.end())
            if item["oneline"] and end is None:
                continue
            return ("region", item["group"], m.end(), item)
        return None

    def highlight(self, text):
        """The innermost syntax group of every character (None outside any)."""
        groups = [None] * len(text)
        stack = []  # open regions: (item, group)
        pos = 0
        while pos < len(text):
            if stack:
                item = stack[-1]
                hit = self.start_at(text, pos, item["contains"]) if item["contains"] else None
                if hit:
                    for k in range(pos, hit[2]):
                        groups[k] = hit[1]
                    pos = hit[2]
                    continue
                if item["skip"]:
                    s = item["skip"].match(text, pos)
                    if s and s.end() > pos:
                        for k in range(pos, s.end()):
                            groups[k] = item["group"]
                        pos = s.end()
                        continue
                e = item["end"].match(text, pos)
                if e:
                    for k in range(pos, e.end()):
                        groups[k] = item["group"]
                    stack.pop()
                    pos = max(e.end(), pos + (1 if e.end() == pos else 0))
                    continue
                groups[pos] = item["group"]
                pos += 1
                continue
            hit = self.start_at(text, pos, None)
            if not hit:
                pos += 1
                continue
            for k in range(pos, hit[2]):
                groups[k] = hit[1]
            if hit[0] == "region":
                stack.append(hit[3])
            pos = hit[2]
        return groups

    def category(self, group):
        if group is None:
            return "none"
        return VIM_CATEGORY.get(self.links.get(group, group), "none")


def vim_itself(vim, path):
    """Vim's own syntax group names for every character of path, and the
    filetype it detected; characters as bytes (the sample is ASCII)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "groups.txt")
        script = os.path.join(tmp, "dump.vim")
        with open(script, "w") as f:
            f.write("\n".join([
                "let &runtimepath = $HL_VIM_DIR . ',' . &runtimepath",
                "filetype on",
                "syntax on",
                "edit $HL_FILE",
                "let out = [&filetype]",
                "for l in range(1, line('$'))",
                "  let names = []",
                "  for c in range(1, len(getline(l)))",
                "    let n = synIDattr(synID(l, c, 1), 'name')",
                "    call add(names, n == '' ? '-' : n)",
                "  endfor",
                "  call add(out, join(names, ' '))",
                "endfor",
                "call writefile(out, $HL_OUT)",
                "qall!",
            ]) + "\n")
        env = dict(os.environ, HL_VIM_DIR=VIM_DIR, HL_FILE=os.path.abspath(path), HL_OUT=out)
        subprocess.run([vim, "-N", "-u", "NONE", "-i", "NONE", "-n", "-Es", "-S", script],
                       env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
        if not os.path.exists(out):
            raise RuntimeError("vim wrote no highlighting for " + path)
        with open(out) as f:
            lines = f.read().split("\n")
    filetype = lines[0]
    groups = []
    for row in lines[1:]:
        groups += [None if n == "-" else n for n in row.split(" ") if n] + [None]
    return filetype, groups


# ---------------------------------------------------------------- the checks
def compare(path, text, want, got, label):
    bad = [i for i, w in enumerate(want) if w is not None and got[i] != w]
    starts = line_starts(text)
    for i in bad[:8]:
        line = max(n for n, s in enumerate(starts) if s <= i)
        print("  %s:%d:%d: %s: %r is %s, expected %s" % (path, line + 1, i - starts[line] + 1, label, text[i],
                                                        got[i], want[i]))
    if len(bad) > 8:
        print("  ... and %d more" % (len(bad) - 8))
    return not bad


def collect(inputs):
    files = []
    for p in inputs:
        if os.path.isdir(p):
            for d, _, names in sorted(os.walk(p)):
                files += [os.path.join(d, n) for n in sorted(names) if n.endswith(".smp")]
        else:
            files.append(p)
    return files


def check_package():
    with open(TM_PACKAGE) as f:
        pkg = json.load(f)
    with open(TM_GRAMMAR) as f:
        grammar = json.load(f)
    langs = pkg["contributes"]["languages"]
    grammars = pkg["contributes"]["grammars"]
    ok = any(".smp" in l.get("extensions", []) for l in langs)
    ok &= all(os.path.exists(os.path.join(os.path.dirname(TM_PACKAGE), g["path"])) for g in grammars)
    ok &= any(g["scopeName"] == grammar["scopeName"] for g in grammars)
    ok &= all(os.path.exists(os.path.join(os.path.dirname(TM_PACKAGE), l["configuration"])) for l in langs)
    if not ok:
        print("FAIL editors/vscode/package.json: it must map .smp to the grammar and its configuration")
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--simplec", required=True)
    ap.add_argument("--no-vim", action="store_true", help="do not compare with vim itself")
    ap.add_argument("--sample", default=os.path.join(ROOT, "test/editors/sample.smp"))
    ap.add_argument("inputs", nargs="*")
    args = ap.parse_args()

    tm, vim = TextMate(TM_GRAMMAR), Vim(VIM_SYNTAX)
    passed = failed = 0

    def count(ok):
        nonlocal passed, failed
        passed, failed = passed + ok, failed + (not ok)

    count(check_package())

    # The sample must contain every category, so that each is checked.
    with open(args.sample, encoding="utf-8", errors="surrogateescape") as f:
        sample = f.read()
    want = expected_categories(args.simplec, args.sample, sample)
    missing = [c for c in CATEGORIES if want is None or c not in want]
    if missing:
        print("FAIL %s: does not lex, or lacks %s" % (args.sample, ", ".join(missing)))
    count(not missing)

    for path in [args.sample] + collect(args.inputs):
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
        want = expected_categories(args.simplec, path, text)
        if want is None:
            continue  # a file with lexical errors (test/errors has some): nothing to compare with
        tm_cats = [tm_category(s) for s in tm.tokenize(text)]
        ok = compare(path, text, want, tm_cats, "textmate")
        if not ok:
            print("FAIL %s (TextMate grammar)" % path)
        count(ok)
        vim_groups = vim.highlight(text)
        ok = compare(path, text, want, [vim.category(g) for g in vim_groups], "vim")
        if not ok:
            print("FAIL %s (Vim syntax)" % path)
        count(ok)

    # Vim itself must read the syntax file as the engine above does.
    vim_exe = None if args.no_vim else shutil.which("vim")
    if vim_exe:
        filetype, real = vim_itself(vim_exe, args.sample)
        ours = vim.highlight(sample)
        ok = filetype == "simple"
        if not ok:
            print("FAIL %s: vim detected filetype %r, expected 'simple' (editors/vim/ftdetect)" % (args.sample, filetype))
        count(ok)
        real += [None] * max(0, len(ours) - len(real))
        diff = [i for i, ch in enumerate(sample) if ch != "\n" and real[i] != ours[i]]
        starts = line_starts(sample)
        for i in diff[:8]:
            line = max(n for n, st in enumerate(starts) if st <= i)
            print("  %s:%d:%d: %r is %s in vim, %s in this test's engine" % (
                args.sample, line + 1, i - starts[line] + 1, sample[i], real[i], ours[i]))
        ok = not diff
        if not ok:
            print("FAIL %s: vim highlights it differently from the engine in this test" % args.sample)
        count(ok)
    else:
        print("SKIP: vim not installed: the Vim syntax is checked by this test's engine only")

    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
