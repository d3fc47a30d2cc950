// Arrays for the program generator: declarations (int, narrow and flt
// elements, constant or computed lengths, strings as u8[~]), reads and
// writes at indices reduced into range, stores through indices loaded from
// the same array, and arrays passed to and returned from functions.
// Invariant: an array variable's length lies in [minLen, maxLen] (maxLen <=
// 32, so loops over its indices have a known trip bound); an index is in
// bounds unless made out of bounds on purpose (rarely); a read-only array
// is never written nor passed where a mutable one is expected.
#include <algorithm>

#include "test/fuzz/generator_state.h"

namespace simplec::fuzz {

namespace {

bool isIntArray(const Var& v) { return v.ty == Ty::IntArr; }
bool isWritableIntArray(const Var& v) { return v.ty == Ty::IntArr && !v.readOnly; }
bool isFltArray(const Var& v) { return v.ty == Ty::FltArr; }
bool isWritableFltArray(const Var& v) { return v.ty == Ty::FltArr && !v.readOnly; }

// The largest 2^k - 1 with 2^k <= n (0 when n < 2).
int64_t maskFor(int n) {
  int64_t m = 0;
  while ((m + 1) * 2 <= n) m = m * 2 + 1;
  return m;
}

}  // namespace

std::string Generator::arrayIndex(const Var& arr) {
  // Inside a loop over arr's indices: the counter, mostly as is, sometimes
  // one off (out of bounds at one end of the loop).
  for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s)
    for (const Var& v : *s)
      if (v.counter && v.overArray == arr.name && rng_.chance(60)) {
        switch (rng_.weighted({70, errorsOk_ ? 12 : 0, errorsOk_ ? 12 : 0, 6})) {
          case 0: return v.name;
          case 1: return v.name + " - 1";
          case 2: return v.name + " + 1";
          default: return arr.name + "# - 1 - " + v.name;
        }
      }
  // A counter in [low, bound] plus a small offset: in bounds when the
  // range fits arr's shortest length (a test before the loop shows it: loop
  // versioning), else only where a runtime error is fine.
  for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s)
    for (const Var& v : *s)
      if (v.counter && v.nearIndex && rng_.chance(nearIndexChance_)) {
        // Sometimes an offset that is not constant: a variable masked to
        // 0..3 (invariant in the loop unless the body assigns it).
        std::string counterName = v.name;
        int64_t low = v.low, high = v.bound;
        const Var* x = rng_.chance(30) ? pickVar([](const Var& w) { return w.ty == Ty::Int && w.elem.empty(); }, false)
                                       : nullptr;
        if (x) {
          bool safe = low >= 0 && high + 3 < arr.minLen;
          if (!safe && !(errorsOk_ && rng_.chance(40))) continue;
          return counterName + " + (" + x->name + " & 3)";
        }
        int64_t c = rng_.range(-2, 2);
        bool safe = low + c >= 0 && high + c < arr.minLen;
        if (!safe && !(errorsOk_ && rng_.chance(40))) continue;
        if (c == 0) return counterName;
        return counterName + (c > 0 ? " + " + constant(c) : " - " + constant(-c));
      }
  // The counter of a loop over another array: in bounds when that array
  // is never longer than arr's shortest length, but only a test before the
  // loop shows it (loop versioning); else maybe out of bounds at the end.
  for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s)
    for (const Var& v : *s)
      if (v.counter && !v.overArray.empty() && v.overArray != arr.name &&
          (v.bound <= arr.minLen ? rng_.chance(50) : errorsOk_ && rng_.chance(20)))
        return v.name;
  if (errorsOk_ && rng_.chance(1)) return intExpr(1);  // anything: maybe a runtime error
  // In bounds: a mask below the shortest length, or a non-negative value
  // reduced modulo the length (a remainder by zero for an empty array).
  int64_t mask = maskFor(arr.minLen);
  if (mask > 0 && rng_.chance(50)) return "(" + intExpr(1) + ") & " + constant(mask);
  return "((" + intExpr(1) + ") & 1023) % " + arr.name + "#";
}

std::string Generator::arrayRead() {
  const Var* a = pickVar(isIntArray, false);
  if (!a) return "";
  Var arr = *a;  // arrayIndex may declare nothing, but keep a copy anyway
  if (rng_.chance(25)) return arr.name + "#";
  return arr.name + "[" + arrayIndex(arr) + "]";
}

std::string Generator::floatArrayRead() {
  const Var* a = pickVar(isFltArray, false);
  if (!a) return "";
  Var arr = *a;
  return arr.name + "[" + arrayIndex(arr) + "]";
}

std::string Generator::arrayAssignmentText() {
  const Var* a = pickVar(isWritableIntArray, false);
  if (!a) return "";
  Var arr = *a;
  std::string target = arr.name + "[" + arrayIndex(arr) + "]";
  switch (rng_.below(4)) {
    case 0:
    case 1: return target + " = " + expr(Ty::Int, 3) + ";";
    case 2: {
      static const char* const kOps[] = {"+=", "-=", "*=", "&=", "|=", "^=", "<<="};
      return target + " " + kOps[rng_.below(7)] + " " + expr(Ty::Int, 2) + ";";
    }
    default: return target + (rng_.chance(50) ? "++;" : "--;");
  }
}

std::string Generator::floatArrayAssignmentText() {
  const Var* a = pickVar(isWritableFltArray, false);
  if (!a) return "";
  Var arr = *a;
  std::string target = arr.name + "[" + arrayIndex(arr) + "]";
  static const char* const kOps[] = {"=", "=", "+=", "-=", "*=", "/="};
  return target + " " + kOps[rng_.below(6)] + " " + (rng_.chance(80) ? floatExpr(2) : intExpr(2)) + ";";
}

std::string Generator::floatKernelText() {
  const Var* a = pickVar(isWritableFltArray, false);
  if (!a) return "";
  Var arr = *a;
  nearIndexChance_ = 95;  // elements near the counter: stride-1 accesses
  auto operand = [&]() -> std::string {
    int r = static_cast<int>(rng_.below(100));
    if (r < 60) {
      std::string e = floatArrayRead();
      if (!e.empty()) return e;
    } else if (r < 85) {
      if (const Var* v = pickVar([](const Var& w) { return w.ty == Ty::Flt && !w.isField; }, false)) return v->name;
    }
    return floatLiteral();
  };
  static const char* const kOps[] = {"+", "-", "*", "/"};
  std::string value = operand();
  for (int k = static_cast<int>(rng_.range(1, 3)); k > 0; k--) {
    std::string rhs = operand();
    value = rng_.chance(50) ? "(" + value + " " + kOps[rng_.below(4)] + " " + rhs + ")"
                            : "(" + rhs + " " + kOps[rng_.below(4)] + " " + value + ")";
  }
  std::string target = arr.name + "[" + arrayIndex(arr) + "]";
  nearIndexChance_ = 60;
  static const char* const kAssign[] = {"=", "=", "+=", "-=", "*=", "/="};
  return target + " " + kAssign[rng_.below(6)] + " " + value + ";";
}

// Issue 13's shape: the index of a store computed from a load of the same
// array, so that the store, the loads and their bounds checks interleave.
std::string Generator::selfIndexedText() {
  const Var* a = pickVar([](const Var& v) { return v.ty == Ty::IntArr && !v.readOnly && v.minLen >= 8; }, false);
  if (!a) return "";
  Var arr = *a;
  std::string v = arr.name, m = constant(maskFor(arr.minLen));
  const Var* tv = pickVar([](const Var& v) { return v.ty == Ty::Int || v.ty == Ty::Bool; }, true);
  std::string t = tv ? tv->name : literal();
  auto at = [&](const std::string& i) { return v + "[(" + i + ") & " + m + "]"; };
  switch (rng_.below(6)) {
    case 0: return v + "[(" + t + " + " + at(t) + ") & " + m + "]" + (rng_.chance(50) ? "++;" : "--;");
    case 1: return v + "[" + at(t) + " & " + m + "] = " + intExpr(2) + ";";
    case 2: return v + "[(" + at(t) + " ^ " + t + ") & " + m + "] += " + at(t + " + 1") + ";";
    case 3: return at(t) + " = " + at(t + " + 1") + " + " + v + "[(" + t + " + " + at(t) + ") & " + m + "];";
    case 4: return v + "[(" + at(t) + " + " + at(at(t)) + ") & " + m + "] " + rng_.pick({"-=", "^=", "|="}) + " " +
                   intExpr(2) + ";";
    default: {
      // The stored element read back through a computed index at once.
      std::string i = "(" + t + " + " + at(t) + ") & " + m;
      return v + "[" + i + "] = " + at(t + " * 3") + " - " + v + "[" + i + "];";
    }
  }
}

void Generator::arrayDeclaration() {
  charge(1);
  bool outer = scopes_.size() == fnScope_;  // a function's outermost block: mutable by default
  Var v;
  v.name = freshName("a");
  v.ty = Ty::IntArr;
  v.assignable = false;
  v.elem = "int";
  if (on(Feature::Strings) && rng_.chance(12)) {
    // A string: a read-only u8 array of known length.
    static const char* const kStrings[] = {"a", "Simple", "x\\ty", "hello, world", "0123456789abcdef", "\\x00\\xff!"};
    static const int kLens[] = {1, 6, 3, 12, 16, 3};
    size_t k = rng_.below(6);
    v.elem = "u8";
    v.readOnly = true;
    v.minLen = v.maxLen = kLens[k];
    line(std::string(rng_.chance(50) ? "u8[~] " : "val ") + v.name + " = \"" + kStrings[k] + "\";");
    declare(v);
    return;
  }
  if (on(Feature::Floats) && rng_.chance(20)) {
    v.ty = Ty::FltArr;
    v.elem = "flt";
  } else if (on(Feature::Narrow) && rng_.chance(30)) {
    v.elem = rng_.pick({"i8", "u8", "i16", "u16", "i32", "u32", "bool"});
  }
  std::string init;
  Var want = v;
  want.minLen = 1;
  want.maxLen = 32;
  lastCallee_ = nullptr;
  if (on(Feature::ArrayArgs) && rng_.chance(30)) init = refCallExpr(want, 2);
  if (!init.empty() && lastCallee_) {
    v.minLen = lastCallee_->ret.minLen;
    v.maxLen = lastCallee_->ret.maxLen;
  } else {
    std::string len;
    if (on(Feature::SelfIndex) && rng_.chance(40)) {
      v.minLen = v.maxLen = static_cast<int>(rng_.pick<int64_t>({8, 8, 16, 32}));
      len = std::to_string(v.minLen);
    } else if (rng_.chance(60)) {
      v.minLen = v.maxLen = static_cast<int>(rng_.range(1, 8));
      len = std::to_string(v.minLen);
    } else if (rng_.chance(97) || !errorsOk_) {
      v.minLen = 1;
      v.maxLen = 8;
      len = "((" + intExpr(2) + ") & 7) + 1";
    } else {
      v.minLen = 0;  // -1 (a runtime error), 0, 1 or 2
      v.maxLen = 2;
      len = "((" + intExpr(2) + ") & 3) - 1";
    }
    init = "new " + v.elem + "[" + len + "]";
  }
  // `!` or `var`: an array declared with an initializer in an inner block
  // is read-only through its name; now and then one is, and is only read.
  if (!outer && rng_.chance(10)) {
    line(typeText(v) + " " + v.name + " = " + init + ";");  // before: `int[]`, not `int[~]`
    v.readOnly = true;
  } else if (outer && rng_.chance(40)) {
    line(typeText(v) + " " + v.name + " = " + init + ";");
  } else {
    line(rng_.chance(70) ? typeText(v) + " !" + v.name + " = " + init + ";" : "var " + v.name + " = " + init + ";");
  }
  declare(v);
}

std::string Generator::arrayValue(const Var& t, int depth) {
  std::vector<const Var*> cands;
  for (const Var* v : visible([](const Var& v) { return v.ty == Ty::IntArr || v.ty == Ty::FltArr; }))
    if (v->ty == t.ty && v->elem == t.elem && (!v->readOnly || t.readOnly) && v->minLen >= t.minLen &&
        v->maxLen <= t.maxLen)
      cands.push_back(v);
  if (!cands.empty() && rng_.chance(75)) return cands[rng_.below(cands.size())]->name;
  if (depth > 0 && rng_.chance(30)) {
    std::string c = refCallExpr(t, depth);
    if (!c.empty()) return c;
  }
  int64_t len = rng_.range(t.minLen, t.maxLen);
  if (t.minLen == 1 && t.maxLen == 8 && rng_.chance(40)) return "new " + t.elem + "[((" + intExpr(1) + ") & 7) + 1]";
  return "new " + t.elem + "[" + std::to_string(len) + "]";
}

Var Generator::arrayParamType() {
  Var t;
  t.ty = Ty::IntArr;
  t.elem = "int";
  if (on(Feature::Narrow) && rng_.chance(20)) t.elem = rng_.pick({"u8", "i16", "i32"});
  else if (on(Feature::Floats) && rng_.chance(15)) t.ty = Ty::FltArr, t.elem = "flt";
  static const int kLens[][2] = {{1, 8}, {1, 8}, {8, 8}, {8, 32}, {16, 16}, {1, 32}};
  auto l = kLens[rng_.below(6)];
  t.minLen = l[0];
  t.maxLen = l[1];
  t.readOnly = rng_.chance(20);  // `int[~] p`: the callee only reads it
  return t;
}

Var Generator::arrayResultType() {
  Var t;
  t.ty = Ty::IntArr;
  t.elem = "int";
  static const int kLens[][2] = {{1, 8}, {8, 8}, {16, 16}};
  auto l = kLens[rng_.below(3)];
  t.minLen = l[0];
  t.maxLen = l[1];
  return t;
}

}  // namespace simplec::fuzz
