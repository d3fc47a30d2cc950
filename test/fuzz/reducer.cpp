// The reducer (see reducer.h). Candidates are produced from the token list
// and its statement tree by three passes; each pass numbers its candidates
// and, after a kept candidate, retries the same number on the new text.
// Invariant: `tokens_` always fails with `signature_` (only candidates that
// pass `interesting` replace it), and a candidate is not trusted when a run
// timed out or overflowed the stack unless the original failure did too.
#include "test/fuzz/reducer.h"

#include <chrono>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <unordered_set>

#include "test/fuzz/source_tokens.h"

namespace simplec::fuzz {

namespace {

using Clock = std::chrono::steady_clock;

bool isKeyword(const std::string& s) {
  static const char* const kWords[] = {"if", "else", "while", "for", "break", "continue", "return", "struct",
                                       "new", "null", "true", "false", "var", "val", "int", "bool", "sys",
                                       "i8", "i16", "i32", "i64", "u1", "u8", "u16", "u32", "byte", "flt",
                                       "f32", "f64"};
  for (const char* w : kWords)
    if (s == w) return true;
  return false;
}

bool isAssignOp(const std::string& s) {
  return s == "=" || (s.size() >= 2 && s.back() == '=' && s != "==" && s != "!=" && s != "<=" && s != ">=");
}

bool isBinaryOp(const std::string& s) {
  static const char* const kOps[] = {"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", ">>>", "<", "<=", ">",
                                     ">=", "==", "!=", "&&", "||", "?", ":"};
  for (const char* o : kOps)
    if (s == o) return true;
  return isAssignOp(s);
}

// True if the token before a `-` ends an operand (so the `-` is binary).
bool endsOperand(const std::string& s) {
  return isIdentifier(s) || isNumber(s) || s == ")" || s == "]" || s == "++" || s == "--";
}

struct Edit {
  size_t begin, end;  // replace tokens [begin, end)
  Tokens with;
};

Tokens applyEdit(const Tokens& t, const Edit& e) {
  Tokens out(t.begin(), t.begin() + static_cast<long>(e.begin));
  int line = e.begin < t.size() ? t[e.begin].line : (t.empty() ? 1 : t.back().line);
  for (Token w : e.with) {
    if (w.line == 0) w.line = line;
    out.push_back(std::move(w));
  }
  out.insert(out.end(), t.begin() + static_cast<long>(e.end), t.end());
  return out;
}

Tokens slice(const Tokens& t, size_t b, size_t e) {
  return Tokens(t.begin() + static_cast<long>(b), t.begin() + static_cast<long>(e));
}

Tokens single(const char* text) { return Tokens{Token{text, 0}}; }

// The configurations a signature involves: the reference and the one that failed.
std::vector<std::string> configsOf(const std::string& sig, const CheckConfig& cfg) {
  std::string ref = cfg.levels.empty() ? "-O0" : cfg.levels[0];
  std::vector<std::string> out;
  auto add = [&](const std::string& c) {
    for (const auto& x : out)
      if (x == c) return;
    out.push_back(c);
  };
  if (sig.rfind("compile ", 0) == 0) {
    add(ref);
    add(sig.substr(8, sig.find(':') - 8));
  } else if (size_t vs = sig.find(" vs "); vs != std::string::npos) {
    add(sig.substr(vs + 4, sig.find(':') - vs - 4));
    add(sig.substr(0, vs));
  } else {
    add(sig.substr(0, sig.find(' ')));
  }
  return out;
}

bool anyOverflow(const Verdict& v) {
  for (const auto& o : v.outcomes)
    if (o.err.find("stack overflow") != std::string::npos) return true;
  return false;
}

bool anyTimeout(const Verdict& v) {
  for (const auto& o : v.outcomes)
    if (o.timedOut) return true;
  return false;
}

class Reducer {
 public:
  Reducer(const ProgramSetup& setup, const CheckConfig& cfg, const std::string& workDir, const ReduceOptions& opts)
      : setup_(setup), cfg_(cfg), workDir_(workDir), opts_(opts), start_(Clock::now()) {}

  ReduceResult run(const std::string& text, std::string signature) {
    ReduceResult r;
    r.text = text;
    tokens_ = tokenizeSource(text);
    if (signature.empty()) {
      Verdict v = check(tokens_, {});
      if (v.ok) return r;
      signature = v.signature;
    }
    signature_ = signature;
    r.signature = signature;
    configs_ = configsOf(signature, cfg_);
    Verdict first = check(tokens_, configs_);
    if (first.signature != signature_) return r;
    allowOverflow_ = anyOverflow(first);
    allowTimeout_ = anyTimeout(first);
    r.reproduced = true;
    bool progress = true;
    while (progress && !outOfTime()) {
      progress = false;
      for (size_t chunk : {32u, 8u, 2u, 1u})
        progress |= runPass([&](const Tokens& t, size_t i) { return deletion(t, i, chunk); });
      progress |= runPass([&](const Tokens& t, size_t i) { return unwrap(t, i); });
      progress |= runPass([&](const Tokens& t, size_t i) { return simplify(t, i); });
    }
    r.text = "// reduced by simplec_fuzz: " + signature_ + "\n" + setupHeader(setup_) + printTokens(tokens_);
    r.tests = tests_;
    r.accepted = accepted_;
    return r;
  }

 private:
  using Pass = std::function<std::optional<Edit>(const Tokens&, size_t)>;

  bool outOfTime() const {
    return std::chrono::duration<double>(Clock::now() - start_).count() > opts_.timeBudget;
  }

  Verdict check(const Tokens& t, const std::vector<std::string>& configs) {
    std::string path = workDir_ + "/reduce.smp";
    std::ofstream(path, std::ios::binary) << setupHeader(setup_) << printTokens(t);
    return checkProgram(path, setup_, cfg_, workDir_, configs);
  }

  bool interesting(const Tokens& cand) {
    std::string text = printTokens(cand);
    if (!tried_.insert(text).second) return false;
    tests_++;
    Verdict v = check(cand, configs_);
    if (v.signature != signature_) return false;
    if (!allowOverflow_ && anyOverflow(v)) return false;  // depth differs between levels
    if (!allowTimeout_ && anyTimeout(v)) return false;    // output depends on speed
    return true;
  }

  bool runPass(const Pass& pass) {
    bool progress = false;
    size_t i = 0;
    while (!outOfTime()) {
      std::optional<Edit> e = pass(tokens_, i);
      if (!e) break;
      Tokens cand = applyEdit(tokens_, *e);
      if (cand.size() <= tokens_.size() && interesting(cand)) {
        tokens_ = std::move(cand);
        accepted_++;
        progress = true;
        if (opts_.verbose)
          std::cerr << "reduce: " << tokens_.size() << " tokens after " << tests_ << " tests\n";
      } else {
        i++;
      }
    }
    return progress;
  }

  // Candidate i: delete `chunk` consecutive statements of one statement list.
  static std::optional<Edit> deletion(const Tokens& t, size_t i, size_t chunk) {
    StmtTree tree = parseStatements(t);
    for (const auto& list : tree.lists) {
      size_t n = (list.size() + chunk - 1) / chunk;
      if (chunk > 1 && list.size() <= chunk / 2) continue;  // smaller chunks will do it
      if (i < n) {
        size_t first = i * chunk, last = std::min(list.size(), first + chunk) - 1;
        const StmtNode& a = tree.nodes[static_cast<size_t>(list[first])];
        const StmtNode& b = tree.nodes[static_cast<size_t>(list[last])];
        return Edit{a.begin, b.end, {}};
      }
      i -= n;
    }
    return std::nullopt;
  }

  // Candidate i: replace an if by one branch, drop an else, replace a loop by
  // its body, or remove a block's braces.
  static std::optional<Edit> unwrap(const Tokens& t, size_t i) {
    StmtTree tree = parseStatements(t);
    std::vector<Edit> edits;
    for (const StmtNode& n : tree.nodes) {
      auto body = [&](size_t k) -> const StmtNode& { return tree.nodes[static_cast<size_t>(n.children[k])]; };
      if (n.kind == StmtNode::If && !n.children.empty()) {
        edits.push_back({n.begin, n.end, slice(t, body(0).begin, body(0).end)});
        if (n.hasElse && n.children.size() > 1) {
          edits.push_back({n.begin, n.end, slice(t, body(1).begin, body(1).end)});
          edits.push_back({body(0).end, n.end, {}});
        }
      } else if ((n.kind == StmtNode::While || n.kind == StmtNode::For) && !n.children.empty()) {
        edits.push_back({n.begin, n.end, slice(t, body(0).begin, body(0).end)});
        if (n.kind == StmtNode::For) {
          // for (init; ...) S  ->  { init; S }
          size_t semi = n.condBegin;
          while (semi < n.condEnd && t[semi].text != ";") semi++;
          if (semi > n.condBegin && semi < n.condEnd) {
            Tokens w = single("{");
            Tokens init = slice(t, n.condBegin, semi + 1);
            w.insert(w.end(), init.begin(), init.end());
            Tokens b = slice(t, body(0).begin, body(0).end);
            w.insert(w.end(), b.begin(), b.end());
            w.push_back(Token{"}", 0});
            edits.push_back({n.begin, n.end, w});
          }
        }
      } else if (n.kind == StmtNode::Block && n.end > n.begin + 1 && t[n.end - 1].text == "}") {
        edits.push_back({n.begin, n.end, slice(t, n.begin + 1, n.end - 1)});
      }
    }
    std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.begin < b.begin; });
    if (i >= edits.size()) return std::nullopt;
    return edits[i];
  }

  // Candidate i: replace a parenthesized expression, a call, a variable use
  // or a literal by 0 or 1, or a parenthesized expression by one operand.
  static std::optional<Edit> simplify(const Tokens& t, size_t i) {
    std::vector<Edit> edits;
    for (size_t k = 0; k < t.size(); k++) {
      const std::string& s = t[k].text;
      const std::string prev = k > 0 ? t[k - 1].text : "";
      const std::string next = k + 1 < t.size() ? t[k + 1].text : "";
      if (s == "(") {
        bool grouping = !(isIdentifier(prev) && prev != "return") && prev != ")";
        if (!grouping) continue;
        size_t close = matchingBracket(t, k);
        if (close >= t.size()) continue;
        // (x) -> x ; ((e)) -> (e)
        if (close == k + 2) edits.push_back({k, close + 1, slice(t, k + 1, close)});
        if (t[k + 1].text == "(" && matchingBracket(t, k + 1) == close - 1) edits.push_back({k, close + 1, slice(t, k + 1, close)});
        edits.push_back({k, close + 1, single("0")});
        edits.push_back({k, close + 1, single("1")});
        // Operands at the top level of the group.
        std::vector<std::pair<size_t, size_t>> operands;
        size_t opStart = k + 1;
        for (size_t j = k + 1; j < close; j++) {
          const std::string& x = t[j].text;
          if (x == "(" || x == "[" || x == "{") {
            j = matchingBracket(t, j);
            continue;
          }
          bool binary = isBinaryOp(x) && j > opStart && (x != "-" || endsOperand(t[j - 1].text));
          if (binary) {
            operands.push_back({opStart, j});
            opStart = j + 1;
          }
        }
        operands.push_back({opStart, close});
        if (operands.size() > 1) {
          for (auto [b, e] : operands) {
            if (b >= e) continue;
            Tokens w = slice(t, b, e);
            if (e - b > 1) {
              w.insert(w.begin(), Token{"(", 0});
              w.push_back(Token{")", 0});
            }
            edits.push_back({k, close + 1, w});
          }
        } else if (close > k + 2) {
          // (-x), (!x), (++x) -> x ; (x++) -> x
          const std::string& f = t[k + 1].text;
          const std::string& l = t[close - 1].text;
          if (f == "-" || f == "!" || f == "++" || f == "--") {
            Tokens w = slice(t, k + 2, close);
            w.insert(w.begin(), Token{"(", 0});
            w.push_back(Token{")", 0});
            edits.push_back({k, close + 1, w});
          } else if (l == "++" || l == "--") {
            edits.push_back({k, close, slice(t, k, close - 1)});
          }
        }
      } else if (isIdentifier(s) && !isKeyword(s) && prev != "." && next != "." && prev != "int" &&
                 prev != "bool" && prev != "var" && prev != "val" && prev != "}" && prev != "++" &&
                 prev != "--" && next != "++" && next != "--" && !isAssignOp(next) && next != "->") {
        if (next == "(") {
          size_t close = matchingBracket(t, k + 1);
          if (close < t.size()) edits.push_back({k, close + 1, single("0")});
        } else {
          edits.push_back({k, k + 1, single("0")});
          edits.push_back({k, k + 1, single("1")});
        }
      } else if (isBinaryOp(s) && !isAssignOp(s) && k > 0 && k + 1 < t.size() && endsOperand(prev) &&
                 (isIdentifier(next) || isNumber(next)) && !isKeyword(next) && (isIdentifier(prev) || isNumber(prev))) {
        // a op b (unparenthesized, single-token operands) -> a or b
        edits.push_back({k - 1, k + 2, slice(t, k - 1, k)});
        edits.push_back({k - 1, k + 2, slice(t, k + 1, k + 2)});
      } else if (isNumber(s) && s != "0" && s != "1") {
        edits.push_back({k, k + 1, single("0")});
        edits.push_back({k, k + 1, single("1")});
      }
    }
    if (i >= edits.size()) return std::nullopt;
    return edits[i];
  }

  ProgramSetup setup_;
  CheckConfig cfg_;
  std::string workDir_;
  ReduceOptions opts_;
  Clock::time_point start_;
  Tokens tokens_;
  std::string signature_;
  std::vector<std::string> configs_;
  std::unordered_set<std::string> tried_;
  bool allowOverflow_ = false, allowTimeout_ = false;
  int tests_ = 0, accepted_ = 0;
};

}  // namespace

ReduceResult reduceProgram(const std::string& text, const ProgramSetup& setup, const CheckConfig& cfg,
                           std::string signature, const std::string& workDir, const ReduceOptions& opts) {
  return Reducer(setup, cfg, workDir, opts).run(text, std::move(signature));
}

}  // namespace simplec::fuzz
