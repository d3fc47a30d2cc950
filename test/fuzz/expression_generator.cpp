// The expression half of the program generator: literals near the edges of
// the int range, arithmetic that wraps, divisions (redundant ones, and ones
// whose divisor may be zero), shifts by any count, chained comparisons,
// value-returning && and ||, ternaries, side effects and calls (of
// functions and methods), float expressions (mixed with ints, which widen)
// and integers computed by way of them.
// Invariant: every compound expression is fully parenthesized, so the text
// means what the generator built whatever the precedence rules; with
// pureDepth_ > 0 the text has no side effects and no calls.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "test/fuzz/generator_state.h"

namespace simplec::fuzz {

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

bool isIntLike(const Var& v) { return v.ty == Ty::Int || v.ty == Ty::Bool; }
bool isAssignableInt(const Var& v) { return v.assignable && v.ty == Ty::Int; }

std::string withUnderscores(const std::string& digits) {
  std::string out;
  size_t lead = digits.size() % 3;
  for (size_t i = 0; i < digits.size(); i++) {
    if (i > 0 && (i - lead) % 3 == 0 && i >= lead) out += '_';
    out += digits[i];
  }
  return out;
}

}  // namespace

std::vector<const Var*> Generator::visible(bool (*pred)(const Var&)) const {
  std::vector<const Var*> out;
  std::vector<std::string> seen;
  for (size_t s = scopes_.size(); s-- > 0;) {
    for (size_t k = scopes_[s].size(); k-- > 0;) {
      const Var& v = scopes_[s][k];
      if (std::find(seen.begin(), seen.end(), v.name) != seen.end()) continue;  // shadowed
      seen.push_back(v.name);
      if (pred(v)) out.push_back(&v);
    }
  }
  return out;
}

const Var* Generator::pickVar(bool (*pred)(const Var&), bool preferCounter) {
  std::vector<const Var*> vs = visible(pred);
  if (vs.empty()) return nullptr;
  if (preferCounter && rng_.chance(50)) {
    std::vector<const Var*> counters;
    for (const Var* v : vs)
      if (v->counter) counters.push_back(v);
    if (!counters.empty()) return counters[rng_.below(counters.size())];
  }
  return vs[rng_.below(vs.size())];
}

std::string Generator::constant(int64_t v) {
  if (v == kMin) return rng_.chance(70) ? "(-9223372036854775808)" : "0x8000_0000_0000_0000";
  if (v < 0) {
    if (rng_.chance(5)) {
      char buf[32];
      snprintf(buf, sizeof buf, "0x%llX", static_cast<unsigned long long>(v));
      return buf;
    }
    return "(-" + std::to_string(-v) + ")";
  }
  if (rng_.chance(8)) {
    char buf[32];
    snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
  }
  std::string d = std::to_string(v);
  if (v >= 10000 && rng_.chance(20)) return withUnderscores(d);
  return d;
}

std::string Generator::literal() {
  static const int64_t kSpecial[] = {0, 1, -1, 2, 3, 7, 8, 31, 32, 63, 64, 65, 100, 127, 128, 255, 256, -128,
                                     0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x100000000, kMax, kMin, kMax - 1,
                                     kMin + 1, int64_t{1} << 62, -(int64_t{1} << 62), 1000000007};
  switch (rng_.weighted({50, 28, 15, 7})) {
    case 0: return constant(rng_.range(0, 10));
    case 1: return constant(kSpecial[rng_.below(sizeof kSpecial / sizeof kSpecial[0])]);
    case 2: return constant(rng_.range(-1000, 1000));
    default: return constant(static_cast<int64_t>(rng_.next()));
  }
}

std::string Generator::leaf(bool preferCounter) {
  if (rng_.chance(8)) {
    std::string r = arrayRead();
    if (!r.empty()) return r;
  }
  if (on(Feature::Nullable) && rng_.chance(5)) {
    std::string r = nullableFieldRead();
    if (!r.empty()) return r;
  }
  if (rng_.chance(62)) {
    if (const Var* v = pickVar(isIntLike, preferCounter)) return v->name;
  }
  if (rng_.chance(4)) return rng_.chance(50) ? "true" : "false";
  return literal();
}

std::string Generator::expr(Ty want, int depth) {
  if (want == Ty::Bool) return condExpr(depth);
  if (want == Ty::Fn1 || want == Ty::Fn2) {
    uint64_t cost = 0;
    size_t order = 0;
    return fnValue(want, ctx_.order, &cost, &order);
  }
  return intExpr(depth);
}

// An expression whose type is int even when its operands are bools (the
// final return of a function fixes its result type to int).
std::string Generator::intTypedExpr(int depth) {
  if (const Var* v = rng_.chance(30) ? pickVar([](const Var& v) { return v.ty == Ty::Int && v.elem.empty(); }, false)
                                     : nullptr)
    return v->name;
  if (rng_.chance(20)) return literal();
  static const char* const kOps[] = {"+", "-", "*", "<<", ">>", ">>>"};
  std::string op = kOps[rng_.below(6)];
  return "(" + intExpr(depth - 1) + " " + op + " " + intExpr(depth - 1) + ")";
}

std::string Generator::intExpr(int depth) {
  if (depth <= 0 || rng_.chance(22)) return leaf(ctx_.loopDepth > 0);
  bool impure = pureDepth_ == 0;
  std::vector<int> w = {
      24,                          // + - *
      9,                           // / %
      8,                           // & | ^
      8,                           // shifts
      6,                           // comparison as a value
      6,                           // && || values
      6,                           // ternary
      4,                           // unary minus
      5,                           // wrap-around near the ends of the range
      impure ? 6 : 0,              // side effect
      impure ? 8 : 0,              // call
      impure ? 3 : 0,              // call through a function reference
      divPool_.empty() ? 0 : 6,    // a division seen before (redundant)
      on(Feature::Floats) ? 6 : 0, // by way of floats
      impure && on(Feature::Methods) ? 4 : 0,  // a method call
  };
  switch (rng_.weighted(w)) {
    case 0: {
      static const char* const kOps[] = {"+", "-", "*"};
      return "(" + intExpr(depth - 1) + " " + kOps[rng_.below(3)] + " " + intExpr(depth - 1) + ")";
    }
    case 1: return rng_.chance(25) ? guardedDivision(depth) : division(depth);
    case 2: {
      static const char* const kOps[] = {"&", "|", "^"};
      return "(" + intExpr(depth - 1) + " " + kOps[rng_.below(3)] + " " + intExpr(depth - 1) + ")";
    }
    case 3: return shiftExpr(depth);
    case 4: return compareExpr(depth);
    case 5: return logicExpr(depth);
    case 6: {
      std::string c = condExpr(depth - 1), a = intExpr(depth - 1);
      if (rng_.chance(15)) return "(" + c + " ? " + a + ")";
      return "(" + c + " ? " + a + " : " + intExpr(depth - 1) + ")";
    }
    case 7: return "(-" + intExpr(depth - 1) + ")";
    case 8: {
      std::string a = intExpr(depth - 1);
      switch (rng_.below(5)) {
        case 0: return "(" + a + " + " + constant(kMax) + ")";
        case 1: return "(" + constant(kMin) + " - " + a + ")";
        case 2: return "(" + a + " * " + constant(rng_.pick({kMax, kMin, int64_t{1} << 62, int64_t{3} << 61, int64_t{0x100000001}})) + ")";
        case 3: return "(" + a + " - " + constant(kMin) + ")";
        default: return "(" + a + " + " + constant(kMax - rng_.range(0, 3)) + " + " + intExpr(depth - 1) + ")";
      }
    }
    case 9: {
      std::string s = sideEffectExpr(depth);
      return s.empty() ? leaf(false) : s;
    }
    case 10: {
      std::string s = callExpr(depth);
      return s.empty() ? leaf(false) : s;
    }
    case 11: {
      std::string s = fnRefCall(depth);
      return s.empty() ? leaf(false) : s;
    }
    case 12: return divPool_[rng_.below(divPool_.size())].second;
    case 13: return intThroughFloats(depth);
    default: {
      std::string s = methodCallExpr(depth);
      return s.empty() ? leaf(false) : s;
    }
  }
}

// Floats: every operation used is exactly specified (IEEE arithmetic and
// sqrt, conversions that saturate, f32 rounding, minsd/maxsd, floor/ceil),
// so every level and the evaluator must agree bit for bit.
std::string Generator::floatLiteral() {
  static const char* const kLits[] = {"0.0", "-0.0", "0.5", "1.5", "-2.25", "3.0", "0.1", "1e300", "-1e300",
                                      "2.5e-320", "1e-5", "9007199254740993.0", "4503599627370495.5",
                                      "9.2233720368547758e18", "1e19", "-9.3e18", "3.4e38", "1e39", "7e-46"};
  std::string lit = kLits[rng_.below(sizeof kLits / sizeof kLits[0])];
  return lit[0] == '-' ? "(" + lit + ")" : lit;  // so that `-` before it is no `--`
}

// A float variable, field or element, a literal, or a converted int.
std::string Generator::floatLeaf() {
  int r = static_cast<int>(rng_.below(100));
  if (r < 45) {
    if (const Var* v = pickVar([](const Var& v) { return v.ty == Ty::Flt; }, false)) return v->name;
  } else if (r < 55) {
    std::string a = floatArrayRead();
    if (!a.empty()) return a;
  }
  if (rng_.chance(50)) return floatLiteral();
  return "flt(" + leaf(ctx_.loopDepth > 0) + ")";
}

std::string Generator::floatExpr(int depth) {
  if (depth <= 0 || rng_.chance(25)) return floatLeaf();
  switch (rng_.weighted({30, 8, 8, 10, 6, 6, 6, 6, 8, pureDepth_ == 0 ? 4 : 0})) {
    case 0: {
      static const char* const kOps[] = {"+", "-", "*", "/"};
      return "(" + floatExpr(depth - 1) + " " + kOps[rng_.below(4)] + " " + floatExpr(depth - 1) + ")";
    }
    case 1: return "(" + floatExpr(depth - 1) + " * " + intExpr(depth - 1) + ")";  // mixed: widens
    case 8: {  // mixed the other way round: the int widens
      static const char* const kOps[] = {"+", "-", "*", "/"};
      return "(" + intExpr(depth - 1) + " " + kOps[rng_.below(4)] + " " + floatExpr(depth - 1) + ")";
    }
    case 9: {
      std::string c = floatCallExpr(depth);
      return c.empty() ? floatLeaf() : c;
    }
    case 2: return "(-" + floatExpr(depth - 1) + ")";
    case 3: {
      static const char* const kFns[] = {"sqrt", "floor", "ceil", "abs"};
      return "sys.math." + std::string(kFns[rng_.below(4)]) + "(" + floatExpr(depth - 1) + ")";
    }
    case 4: {
      std::string a = floatExpr(depth - 1);
      return "sys.math." + std::string(rng_.chance(50) ? "min" : "max") + "(" + a + ", " + floatExpr(depth - 1) + ")";
    }
    case 5: return "flt(f32(" + floatExpr(depth - 1) + "))";
    case 6: {
      std::string c = condExpr(depth - 1), a = floatExpr(depth - 1);
      return "(" + c + " ? " + a + " : " + floatExpr(depth - 1) + ")";
    }
    default: return "flt(" + intExpr(depth - 1) + ")";
  }
}

std::string Generator::intThroughFloats(int depth) {
  std::string a = floatExpr(depth - 1);
  switch (rng_.below(7)) {
    case 0: {
      static const char* const kOps[] = {"<", "<=", ">", ">=", "==", "!="};
      return "(" + a + " " + kOps[rng_.below(6)] + " " + floatExpr(depth - 1) + ")";
    }
    case 6: {  // an int compared with a float: the int widens
      static const char* const kOps[] = {"<", "<=", ">", ">=", "==", "!="};
      return "(" + intExpr(depth - 1) + " " + kOps[rng_.below(6)] + " " + a + ")";
    }
    case 1: return "i32(" + a + ")";
    case 2: return "u8(" + a + ")";
    case 3: return "(" + a + " ? 1 : 0)";  // a float condition: NaN is true
    default: return "int(" + a + ")";
  }
}

std::string Generator::divisor(int depth) {
  if (zeroDivisors_ && rng_.chance(12)) return zeroProneDivisor();
  switch (rng_.below(4)) {
    case 0:
    case 1:
      return constant(rng_.pick<int64_t>({1, -1, 2, 3, 4, 5, 7, 8, 10, 16, -3, -8, 100, 1000, 641, kMin, kMax,
                                          int64_t{1} << 32, 0x7FFFFFFF}));
    case 2: return "(" + intExpr(depth - 1) + " | 1)";
    default: return "((" + intExpr(depth - 1) + " & " + constant(rng_.range(1, 31)) + ") + 1)";
  }
}

// Small ranges, so that zero really happens now and then. No side effects.
std::string Generator::zeroProneDivisor() {
  const Var* v = pickVar(isIntLike, true);
  std::string x = v ? v->name : literal();
  switch (rng_.below(5)) {
    case 0: return "(" + x + " & " + constant(rng_.pick<int64_t>({3, 7, 15})) + ")";
    case 1: return "(" + x + " % " + constant(rng_.range(3, 7)) + ")";
    case 2: return "(" + x + " - " + constant(rng_.range(-2, 6)) + ")";
    case 3: return x;
    default: return "(" + x + " >> " + constant(rng_.range(1, 3)) + ")";
  }
}

// A division that only runs when its divisor is not zero: moving it above
// its guard (out of a branch or a loop) would trap.
std::string Generator::guardedDivision(int depth) {
  std::string d = zeroProneDivisor();
  // Pure: a side effect on the divisor's variable would void the guard.
  pureDepth_++;
  std::string a = intExpr(depth - 1);
  pureDepth_--;
  const char* op = rng_.chance(60) ? " / " : " % ";
  switch (rng_.below(4)) {
    case 0: return "((" + d + " != 0) ? (" + a + op + d + ") : " + literal() + ")";
    case 1: return "(" + d + " && (" + a + op + d + "))";
    case 2: return "((" + d + " == 0) ? " + literal() + " : (" + a + op + d + "))";
    default: return "((" + d + " == 0) || ((" + a + op + d + ") > " + constant(rng_.range(-5, 5)) + "))";
  }
}

std::string Generator::division(int depth) {
  const char* op = rng_.chance(60) ? " / " : " % ";
  if (pureDepth_ == 0 && rng_.chance(35)) {
    // Side-effect free, so it can be repeated later as a redundant division.
    pureDepth_++;
    std::string text = "(" + intExpr(std::min(depth - 1, 2)) + op + divisor(std::min(depth - 1, 2)) + ")";
    pureDepth_--;
    divPool_.emplace_back(scopes_.size(), text);
    return text;
  }
  return "(" + intExpr(depth - 1) + op + divisor(depth) + ")";
}

std::string Generator::shiftExpr(int depth) {
  static const char* const kOps[] = {"<<", ">>", ">>>"};
  std::string op = kOps[rng_.below(3)];
  std::string count;
  switch (rng_.weighted({40, 15, 10, 35})) {
    case 0: count = constant(rng_.range(0, 63)); break;
    case 1: count = constant(rng_.range(64, 200)); break;
    case 2: count = constant(rng_.range(-70, -1)); break;
    default: count = intExpr(depth - 1); break;
  }
  return "(" + intExpr(depth - 1) + " " + op + " " + count + ")";
}

std::string Generator::compareExpr(int depth) {
  static const char* const kUp[] = {"<", "<="};
  static const char* const kDown[] = {">", ">="};
  switch (rng_.weighted({45, 25, 30})) {
    case 0: {
      static const char* const kOps[] = {"<", "<=", ">", ">=", "==", "!="};
      return "(" + intExpr(depth - 1) + " " + kOps[rng_.below(6)] + " " + intExpr(depth - 1) + ")";
    }
    case 1: {  // a chain in one direction: the middle operands are evaluated once
      const char* const* ops = rng_.chance(60) ? kUp : kDown;
      int links = static_cast<int>(rng_.range(2, 3));
      std::string text = "(" + intExpr(depth - 1);
      for (int k = 0; k < links; k++) text += std::string(" ") + ops[rng_.below(2)] + " " + intExpr(depth - 1);
      return text + ")";
    }
    default: {  // against a constant: what branch folding feeds on
      static const char* const kOps[] = {"<", "<=", ">", ">=", "==", "!="};
      const Var* v = pickVar(isIntLike, true);
      if (v && v->bound > 0 && rng_.chance(60)) {
        // Just inside, on and just outside the known range of a counter or limit.
        int64_t b = v->bound;
        int64_t c = rng_.pick<int64_t>({b - 1, b, b + 1, 0, -1, 1, -b});
        return "(" + v->name + " " + kOps[rng_.below(6)] + " " + constant(c) + ")";
      }
      if (rng_.chance(50)) return rangeCompare(depth);
      return "(" + (v ? v->name : leaf(true)) + " " + kOps[rng_.below(6)] + " " + constant(rng_.range(-3, 20)) + ")";
    }
  }
}

// A value with a known range compared with a constant at the edge of that
// range, where a range analysis is easiest to get wrong by one.
std::string Generator::rangeCompare(int depth) {
  static const char* const kOps[] = {"<", "<=", ">", ">=", "==", "!="};
  std::string e = intExpr(depth - 1);
  std::string ranged;
  std::vector<int64_t> edges;
  switch (rng_.below(6)) {
    case 0: {
      int64_t m = rng_.pick<int64_t>({1, 3, 7, 15, 255, 0xFFFF, 0x7FFFFFFF, kMax});
      ranged = "(" + e + " & " + constant(m) + ")";
      edges = {m - 1, m, m == kMax ? kMin : m + 1, 0, -1};
      break;
    }
    case 1: {
      int64_t m = rng_.pick<int64_t>({2, 3, 8, 10, 100, kMax});
      ranged = "(" + e + " % " + constant(m) + ")";
      edges = {m - 1, m, -(m - 1), -m, 0, 1, -1};
      break;
    }
    case 2: {
      int64_t sh = rng_.range(1, 63);
      ranged = "(" + e + " >>> " + constant(sh) + ")";
      int64_t top = static_cast<int64_t>(~uint64_t{0} >> sh);
      edges = {top, top - 1, top == kMax ? kMin : top + 1, 0, -1};
      break;
    }
    case 3: {
      int64_t sh = rng_.range(1, 63);
      ranged = "(" + e + " >> " + constant(sh) + ")";
      int64_t top = kMax >> sh;
      edges = {top, top + 1, -top - 1, -top - 2, 0, -1};
      break;
    }
    case 4: {
      int64_t m = rng_.pick<int64_t>({1, 8, 0xFF, int64_t{1} << 62, kMin});
      ranged = "(" + e + " | " + constant(m) + ")";
      edges = {0, m, int64_t(uint64_t(m) - 1), -1};  // m - 1 wraps for kMin
      break;
    }
    default: {  // overflowing the range of a masked value
      int64_t m = rng_.pick<int64_t>({0x7FFFFFFF, kMax, int64_t{1} << 62});
      int64_t k = rng_.pick<int64_t>({1, 2, m});
      ranged = "((" + e + " & " + constant(m) + ") + " + constant(k) + ")";
      edges = {0, -1, m, kMin, 1};
      break;
    }
  }
  int64_t c = edges[rng_.below(edges.size())];
  if (rng_.chance(50)) return "(" + ranged + " " + kOps[rng_.below(6)] + " " + constant(c) + ")";
  return "(" + constant(c) + " " + kOps[rng_.below(6)] + " " + ranged + ")";
}

std::string Generator::logicExpr(int depth) {
  const char* op = rng_.chance(50) ? " && " : " || ";
  int n = rng_.chance(25) ? 3 : 2;
  std::string text = "(";
  for (int k = 0; k < n; k++) {
    if (k > 0) text += op;
    text += rng_.chance(50) ? intExpr(depth - 1) : condExpr(depth - 1);
  }
  return text + ")";
}

std::string Generator::condExpr(int depth) {
  if (depth <= 0) return rng_.chance(50) ? leaf(true) : "(" + leaf(true) + " < " + constant(rng_.range(-2, 12)) + ")";
  switch (rng_.weighted({45, 20, 8, 10, 3, 6, 4})) {
    case 0: return compareExpr(depth);
    case 1: return logicExpr(depth);
    case 2: return "(!" + condExpr(depth - 1) + ")";
    case 3: return leaf(true);
    case 4: return rng_.chance(50) ? "true" : "false";
    case 5: return "(" + intExpr(depth - 1) + " & " + constant(rng_.range(1, 8)) + ")";
    default: return "(" + condExpr(depth - 1) + " ? " + condExpr(depth - 1) + " : " + condExpr(depth - 1) + ")";
  }
}

std::string Generator::sideEffectExpr(int depth) {
  if (pureDepth_ > 0) return "";
  const Var* v = pickVar(isAssignableInt, false);
  if (!v) return "";
  std::string x = v->name;
  switch (rng_.below(6)) {
    case 0: return "(" + x + "++)";
    case 1: return "(" + x + "--)";
    case 2: return "(++" + x + ")";
    case 3: return "(--" + x + ")";
    case 4: return "(" + x + " = " + intExpr(depth - 1) + ")";
    default: {
      static const char* const kOps[] = {"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", ">>>="};
      std::string op = kOps[rng_.below(11)];
      std::string rhs = op == "/=" || op == "%=" ? divisor(depth - 1) : intExpr(depth - 1);
      return "(" + x + " " + op + " " + rhs + ")";
    }
  }
}

std::string Generator::argsFor(const FuncInfo& f, int depth) {
  bool self = ctx_.recursive && f.name == ctx_.info.name;
  std::string text;
  for (size_t i = 0; i < f.params.size(); i++) {
    if (i > 0) text += ", ";
    if (i == 0 && f.recursive) {
      if (self) text += ctx_.depthParam + " - " + (rng_.chance(75) ? "1" : "2");
      else if (rng_.chance(30)) text += constant(rng_.range(0, kMaxDepth));
      else text += "(" + intExpr(depth - 1) + " & " + std::to_string(kMaxDepth) + ")";
      continue;
    }
    const Var& p = f.params[i];
    switch (p.ty) {
      case Ty::Int: text += intExpr(depth - 1); break;
      case Ty::Bool: text += rng_.chance(70) ? condExpr(depth - 1) : intExpr(depth - 1); break;
      case Ty::Flt: text += rng_.chance(85) ? floatExpr(depth - 1) : intExpr(depth - 1); break;
      case Ty::IntArr:
      case Ty::FltArr: text += arrayValue(p, depth - 1); break;
      case Ty::Ref: text += refValue(p, depth - 1); break;
      default: {
        uint64_t cost = 0;
        size_t order = 0;
        text += fnValue(p.ty, f.order, &cost, &order);
        break;
      }
    }
  }
  return text;
}

std::string Generator::callExpr(int depth) {
  if (pureDepth_ > 0) return "";
  std::vector<const FuncInfo*> cands, fresh;
  for (const auto& f : funcs_)
    if (f.returnsValue && f.ret.ty == Ty::Int && canAfford(f.cost)) {
      cands.push_back(&f);
      if (!f.called) fresh.push_back(&f);
    }
  // A recursive function calls itself only outside loops, at most its quota.
  bool self = ctx_.recursive && ctx_.selfCallsLeft > 0 && ctx_.mult == 1;
  if (self && (cands.empty() || rng_.chance(40))) {
    ctx_.selfCallsLeft--;
    return ctx_.info.name + "(" + argsFor(ctx_.info, depth) + ")";
  }
  if (cands.empty()) return "";
  // Functions nothing called yet first, half of the time (a large program's
  // functions would mostly never run otherwise).
  const FuncInfo& f = !fresh.empty() && rng_.chance(50) ? *fresh[rng_.below(fresh.size())]
                                                         : *cands[rng_.below(cands.size())];
  charge(f.cost);
  markCalled(f.name);
  return f.name + "(" + argsFor(f, depth) + ")";
}

std::string Generator::floatCallExpr(int depth) {
  if (pureDepth_ > 0) return "";
  std::vector<const FuncInfo*> cands;
  for (const auto& f : funcs_)
    if (f.returnsValue && f.ret.ty == Ty::Flt && canAfford(f.cost)) cands.push_back(&f);
  if (cands.empty()) return "";
  const FuncInfo& f = *cands[rng_.below(cands.size())];
  charge(f.cost);
  markCalled(f.name);
  return f.name + "(" + argsFor(f, depth) + ")";
}

std::string Generator::refCallExpr(const Var& want, int depth) {
  if (pureDepth_ > 0) return "";
  std::vector<const FuncInfo*> cands;
  for (const auto& f : funcs_) {
    if (!f.returnsValue || f.ret.ty != want.ty || !canAfford(f.cost)) continue;
    if (want.ty == Ty::Ref && f.ret.sid != want.sid) continue;
    if ((want.ty == Ty::IntArr || want.ty == Ty::FltArr) &&
        (f.ret.elem != want.elem || f.ret.minLen < want.minLen || f.ret.maxLen > want.maxLen))
      continue;
    cands.push_back(&f);
  }
  if (cands.empty()) return "";
  const FuncInfo& f = *cands[rng_.below(cands.size())];
  charge(f.cost);
  markCalled(f.name);
  std::string args = argsFor(f, depth);  // may call others
  lastCallee_ = &f;
  return f.name + "(" + args + ")";
}

void Generator::floatAssignment(std::string* out) {
  const Var* t = pickVar([](const Var& v) { return v.ty == Ty::Flt && v.assignable; }, false);
  if (!t) return;
  std::string name = t->name;
  static const char* const kOps[] = {"=", "=", "+=", "-=", "*=", "/="};
  std::string op = kOps[rng_.below(6)];
  // Mixed: an int on the right widens.
  std::string rhs = rng_.chance(80) ? floatExpr(3) : intExpr(2);
  *out = rng_.chance(8) ? name + (rng_.chance(50) ? "++;" : "--;") : name + " " + op + " " + rhs + ";";
}

std::string Generator::fnRefCall(int depth) {
  if (pureDepth_ > 0) return "";
  std::vector<const Var*> refs = visible([](const Var& v) { return v.ty == Ty::Fn1 || v.ty == Ty::Fn2; });
  std::vector<const Var*> ok;
  for (const Var* r : refs)
    if (canAfford(r->fnCost)) ok.push_back(r);
  if (ok.empty()) return "";
  const Var& r = *ok[rng_.below(ok.size())];
  std::string name = r.name;
  bool two = r.ty == Ty::Fn2;
  charge(r.fnCost);
  std::string a = intExpr(depth - 1);
  return name + "(" + a + (two ? ", " + intExpr(depth - 1) : "") + ")";
}

std::string Generator::fnValue(Ty sig, size_t maxOrder, uint64_t* cost, size_t* order) {
  struct Cand {
    std::string name;
    uint64_t cost;
    size_t order;
  };
  std::vector<Cand> cands;
  for (const auto& f : funcs_)
    if (f.order < maxOrder && matches(f, sig)) cands.push_back({f.name, f.cost, f.order + 1});
  for (const Var* v : visible([](const Var& v) { return v.ty == Ty::Fn1 || v.ty == Ty::Fn2; }))
    if (v->ty == sig && v->fnOrder <= maxOrder) cands.push_back({v->name, v->fnCost, v->fnOrder});
  if (cands.empty()) return "";
  const Cand& a = cands[rng_.below(cands.size())];
  markCalled(a.name);  // held functions are (most likely) called
  if (cands.size() > 1 && rng_.chance(20)) {
    const Cand& b = cands[rng_.below(cands.size())];
    markCalled(b.name);
    *cost = std::max(a.cost, b.cost);
    *order = std::max(a.order, b.order);
    return "(" + condExpr(2) + " ? " + a.name + " : " + b.name + ")";
  }
  *cost = a.cost;
  *order = a.order;
  return a.name;
}

}  // namespace simplec::fuzz
