// Lexer, printer and statement tree for the reducer (see source_tokens.h).
// Invariant: printTokens(tokenizeSource(s)) means the same program as s:
// tokens keep their order and lines, and two tokens that could fuse into one
// are always separated by a space.
#include "test/fuzz/source_tokens.h"

#include <cctype>
#include <cstring>
#include <functional>

namespace simplec::fuzz {

namespace {

// Longest first, so that `>>>=` wins over `>>>` and `>>`.
const char* const kOperators[] = {">>>=", ">>>", "<<=", ">>=", "->", "++", "--", "&&", "||", "==", "!=",
                                  "<=",   ">=",  "+=",  "-=",  "*=", "/=", "%=", "&=", "|=", "^=", "<<",
                                  ">>"};

bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool isOperatorToken(const std::string& s) {
  return !s.empty() && !isIdentChar(s[0]) && s[0] != '"' && s[0] != '\'' && s != "(" && s != ")" &&
         s != "[" && s != "]" && s != "{" && s != "}" && s != ";" && s != ",";
}

bool needSpace(const Token& a, const Token& b) {
  const std::string &x = a.text, &y = b.text;
  if (y == ")" || y == "]" || y == "," || y == ";" || y == ".") return false;
  if (x == "(" || x == "[" || x == ".") return false;
  bool keyword = x == "if" || x == "while" || x == "for" || x == "return";
  if (y == "(" && ((isIdentifier(x) && !keyword) || x == ")")) return false;
  if ((y == "++" || y == "--") && (isIdentifier(x) || x == ")")) return false;
  if (y == "#") return false;
  return true;
}

}  // namespace

bool isIdentifier(const std::string& s) {
  return !s.empty() && (std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_');
}

bool isNumber(const std::string& s) { return !s.empty() && std::isdigit(static_cast<unsigned char>(s[0])); }

Tokens tokenizeSource(const std::string& text) {
  Tokens out;
  int line = 1;
  size_t i = 0, n = text.size();
  while (i < n) {
    char c = text[i];
    if (c == '\n') {
      line++;
      i++;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      i++;
      continue;
    }
    if (c == '/' && i + 1 < n && text[i + 1] == '/') {
      while (i < n && text[i] != '\n') i++;
      continue;
    }
    if (c == '/' && i + 1 < n && text[i + 1] == '*') {
      i += 2;
      while (i < n && !(text[i] == '*' && i + 1 < n && text[i + 1] == '/')) {
        if (text[i] == '\n') line++;
        i++;
      }
      i = i + 2 < n ? i + 2 : n;
      continue;
    }
    size_t start = i;
    if (isIdentChar(c)) {
      while (i < n && isIdentChar(text[i])) i++;
      bool hex = c == '0' && i > start + 1 && (text[start + 1] == 'x' || text[start + 1] == 'X');
      bool number = std::isdigit(static_cast<unsigned char>(c)) && !hex;
      // A float literal: digits '.' digits.
      if (number && i + 1 < n && text[i] == '.' && std::isdigit(static_cast<unsigned char>(text[i + 1]))) {
        i++;
        while (i < n && isIdentChar(text[i])) i++;
      }
      // A signed exponent (`7e-46`, `1.5E+3`) belongs to the literal.
      if (number && (text[i - 1] == 'e' || text[i - 1] == 'E') && i + 1 < n && (text[i] == '-' || text[i] == '+') &&
          std::isdigit(static_cast<unsigned char>(text[i + 1]))) {
        i++;
        while (i < n && isIdentChar(text[i])) i++;
      }
    } else if (c == '"' || c == '\'') {
      i++;
      while (i < n && text[i] != c && text[i] != '\n') i += text[i] == '\\' && i + 1 < n ? 2 : 1;
      if (i < n && text[i] == c) i++;
    } else {
      size_t len = 1;
      for (const char* op : kOperators) {
        size_t l = std::strlen(op);
        if (text.compare(i, l, op) == 0) {
          len = l;
          break;
        }
      }
      i += len;
    }
    out.push_back({text.substr(start, i - start), line});
  }
  return out;
}

std::string printTokens(const Tokens& toks) {
  std::string out;
  int depth = 0;
  for (size_t k = 0; k < toks.size(); k++) {
    const Token& t = toks[k];
    if (t.text == "}" && depth > 0) depth--;
    if (k == 0 || t.line != toks[k - 1].line) {
      if (k > 0) out += '\n';
      out.append(static_cast<size_t>(depth) * 4, ' ');
    } else {
      const Token& p = toks[k - 1];
      // Two operators side by side (`-` `-`) must not fuse into one (`--`).
      if (needSpace(p, t) || (isOperatorToken(p.text) && isOperatorToken(t.text))) out += ' ';
    }
    out += t.text;
    if (t.text == "{") depth++;
  }
  if (!out.empty()) out += '\n';
  return out;
}

size_t matchingBracket(const Tokens& toks, size_t open) {
  int depth = 0;
  for (size_t k = open; k < toks.size(); k++) {
    const std::string& t = toks[k].text;
    if (t == "(" || t == "[" || t == "{") depth++;
    else if (t == ")" || t == "]" || t == "}") {
      if (--depth == 0) return k;
    }
  }
  return toks.size();
}

namespace {

class StructureParser {
 public:
  explicit StructureParser(const Tokens& t) : t_(t) {}

  StmtTree run() {
    size_t i = 0;
    while (i < t_.size()) {
      if (t_[i].text == "}") {  // stray: skip
        i++;
        continue;
      }
      size_t before = i;
      tree_.top.push_back(statement(i, t_.size()));
      if (i == before) i++;  // a stray `)` or `]` ends a statement at once
    }
    tree_.lists.push_back(tree_.top);
    std::function<void(int)> walk = [&](int id) {
      const StmtNode& n = tree_.nodes[static_cast<size_t>(id)];
      if ((n.kind == StmtNode::Block || n.kind == StmtNode::FnBody) && !n.children.empty())
        tree_.lists.push_back(n.children);
      for (int c : n.children) walk(c);
    };
    for (int id : tree_.top) walk(id);
    return tree_;
  }

 private:
  const std::string& text(size_t k) const {
    static const std::string kEnd;
    return k < t_.size() ? t_[k].text : kEnd;
  }

  int add(StmtNode n) {
    tree_.nodes.push_back(std::move(n));
    return static_cast<int>(tree_.nodes.size() - 1);
  }

  std::vector<int> list(size_t& i, size_t limit) {
    std::vector<int> out;
    while (i < limit && text(i) != "}") {
      size_t before = i;
      out.push_back(statement(i, limit));
      if (i == before) i++;
    }
    return out;
  }

  // The arrow of the function literal opened at `open` (closed at `close`), or 0.
  size_t literalArrow(size_t open, size_t close) const {
    for (size_t k = open + 1; k < close; k++) {
      const std::string& s = text(k);
      if (s == "(" || s == "[" || s == "{") {
        k = matchingBracket(t_, k);
        continue;
      }
      if (s == ";") return 0;
      if (s == "->") {
        // `{ int -> int }` is a type, not a function.
        if (close == k + 2 && isIdentifier(text(k + 1))) return 0;
        return k;
      }
    }
    return 0;
  }

  int statement(size_t& i, size_t limit) {
    StmtNode n;
    n.begin = i;
    const std::string& s = text(i);
    if (s == "{") {
      size_t close = std::min(matchingBracket(t_, i), limit);
      n.kind = StmtNode::Block;
      i++;
      n.children = list(i, close);
      i = close < limit ? close + 1 : limit;
    } else if ((s == "if" || s == "while" || s == "for") && text(i + 1) == "(") {
      size_t close = std::min(matchingBracket(t_, i + 1), limit);
      n.kind = s == "if" ? StmtNode::If : s == "while" ? StmtNode::While : StmtNode::For;
      n.condBegin = i + 2;
      n.condEnd = close;
      i = close < limit ? close + 1 : limit;
      if (i < limit) n.children.push_back(statement(i, limit));
      if (n.kind == StmtNode::If && text(i) == "else" && i < limit) {
        i++;
        n.hasElse = true;
        if (i < limit) n.children.push_back(statement(i, limit));
      }
    } else {
      n.kind = StmtNode::Simple;
      while (i < limit) {
        const std::string& x = text(i);
        if (x == ";") {
          i++;
          break;
        }
        if (x == "}" || x == ")" || x == "]") break;  // unbalanced: stop here
        if (x == "{") {
          size_t close = matchingBracket(t_, i);
          if (size_t arrow = literalArrow(i, close)) {
            StmtNode body;
            body.kind = StmtNode::FnBody;
            body.begin = arrow + 1;
            size_t j = arrow + 1;
            body.children = list(j, std::min(close, limit));
            body.end = std::min(close, limit);
            n.children.push_back(add(std::move(body)));
          }
          i = std::min(close + 1, limit);
          continue;
        }
        if (x == "(" || x == "[") {
          i = std::min(matchingBracket(t_, i) + 1, limit);
          continue;
        }
        i++;
      }
    }
    n.end = i;
    return add(std::move(n));
  }

  const Tokens& t_;
  StmtTree tree_;
};

}  // namespace

StmtTree parseStatements(const Tokens& toks) { return StructureParser(toks).run(); }

}  // namespace simplec::fuzz
