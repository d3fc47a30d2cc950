// Loops for the program generator: counted for-loops (up, down, strided,
// `!=`, wrapping around INT64_MAX/MIN, triangular), loops over a limit
// computed once, loops over an array's indices (for bounds-check
// elimination), and while loops counting a variable down.
// Invariant: a loop's trip count is at most the `trips` it is charged for,
// whatever its body does: the variables in its test are never assignable
// there, and a while loop decrements its counter before any `continue`.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "test/fuzz/generator_state.h"

namespace simplec::fuzz {

namespace {
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
}  // namespace

void Generator::loopStatement(int depth) {
  uint64_t cap = std::max<uint64_t>(1, room() / 4);
  static const uint64_t kTrips[] = {1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 30, 64, 70};
  uint64_t trips = std::min<uint64_t>(cap, kTrips[rng_.below(14)]);
  int64_t t = static_cast<int64_t>(trips);

  // A counter of an enclosing loop with a small known bound can bound this one.
  const Var* outer = pickVar([](const Var& v) { return v.counter && v.bound > 0 && v.bound <= 30; }, false);
  bool triangle = outer && static_cast<uint64_t>(outer->bound) <= cap;
  // Copies: declaring more names below may move the Var `outer` points to.
  std::string outerName = outer ? outer->name : "";
  int64_t outerBound = outer ? outer->bound : 0;
  // An array (a variable, never reassigned) whose indices a loop can run over.
  const Var* arr = pickVar([](const Var& v) { return (v.ty == Ty::IntArr || v.ty == Ty::FltArr) && !v.isField; }, false);
  std::string arrName = arr ? arr->name : "";
  int64_t arrMax = arr ? arr->maxLen : 0;
  bool anyIntArray = pickVar([](const Var& v) { return v.ty == Ty::IntArr; }, false) != nullptr;
  std::vector<int> w = {20, 10, 12, 14, 14, 7, 5, triangle ? 10 : 0, 5,
                        arr && cap >= uint64_t(arrMax) + 2 ? 12 : 0, anyIntArray && cap >= 4 ? 10 : 0};
  int form = static_cast<int>(rng_.weighted(w));

  // Sometimes an accumulator and a derived induction variable around the loop.
  std::string acc, derived, derivedStep;
  if (rng_.chance(35)) {
    charge(1);
    acc = freshName("s");
    line("int " + acc + " = " + constant(rng_.range(-3, 10)) + ";");
    declare(Var{acc});
  }
  if (rng_.chance(25)) {
    charge(1);
    derived = freshName("d");
    derivedStep = constant(rng_.range(-7, 7));
    line("int " + derived + " = " + constant(rng_.range(-20, 20)) + ";");
    declare(Var{derived});
  }

  Var counter;
  counter.assignable = false;
  counter.counter = true;
  std::string header;      // for a for-loop: the whole "for (...)"
  std::string whileHead;   // for a while loop: "while (...)" and its first body line
  std::string firstLine;
  int64_t a = rng_.range(-5, 10);
  switch (form) {
    case 0: {  // i = a; i < a+T; i++
      counter.name = freshName("i");
      counter.bound = std::max(std::abs(a), std::abs(a + t));
      std::string i = counter.name;
      std::string test = rng_.chance(70) ? i + " < " + constant(a + t) : i + " <= " + constant(a + t - 1);
      std::string step = rng_.pick({i + "++", "++" + i, i + " += 1", i + " = " + i + " + 1"});
      header = "for (int " + i + " = " + constant(a) + "; " + test + "; " + step + ")";
      break;
    }
    case 1: {  // strided
      int64_t s = rng_.range(2, 5);
      counter.name = freshName("i");
      counter.bound = std::max(std::abs(a), std::abs(a + t * s));
      std::string i = counter.name;
      std::string test = rng_.chance(60) ? i + " < " + constant(a + t * s) : i + " <= " + constant(a + (t - 1) * s);
      header = "for (int " + i + " = " + constant(a) + "; " + test + "; " + i + " += " + constant(s) + ")";
      break;
    }
    case 2: {  // counting down
      int64_t s = rng_.chance(70) ? 1 : rng_.range(2, 3);
      counter.name = freshName("i");
      counter.bound = std::max(std::abs(a), std::abs(a + t * s));
      std::string i = counter.name;
      std::string test = rng_.chance(60) ? i + " > " + constant(a) : i + " >= " + constant(a + 1);
      std::string step = s == 1 ? rng_.pick({i + "--", "--" + i, i + " -= 1"}) : i + " -= " + constant(s);
      header = "for (int " + i + " = " + constant(a + t * s) + "; " + test + "; " + step + ")";
      break;
    }
    case 3: {  // a limit computed once from run-time values
      int64_t mask = 1;
      while (mask * 2 + 1 <= t) mask = mask * 2 + 1;
      charge(1);
      Var lim;
      lim.name = freshName("n");
      lim.assignable = false;
      lim.bound = mask;
      std::string e = intExpr(2);
      bool useMod = rng_.chance(30);
      line("val " + lim.name + " = " + (useMod ? "(" + e + " % " + constant(mask + 1) + ")" : "(" + e + " & " + constant(mask) + ")") + ";");
      declare(lim);
      trips = static_cast<uint64_t>(mask);
      counter.name = freshName("i");
      counter.bound = mask;
      header = "for (int " + counter.name + " = 0; " + counter.name + " < " + lim.name + "; " + counter.name + "++)";
      break;
    }
    case 4: {  // while, counting a variable down
      int64_t mask = 1;
      while (mask * 2 + 1 <= t) mask = mask * 2 + 1;
      counter.name = freshName("w");
      std::string init = rng_.chance(50) ? constant(t) : "(" + intExpr(2) + " & " + constant(mask) + ")";
      counter.bound = t;
      charge(1);
      line("int " + counter.name + " = " + init + ";");
      if (rng_.chance(50)) {
        whileHead = "while (" + counter.name + "-- > 0)";
      } else {
        whileHead = "while (" + counter.name + " > 0)";
        firstLine = counter.name + (rng_.chance(50) ? "--;" : " -= 1;");
      }
      break;
    }
    case 5: {  // endless loop left by a break
      counter.name = freshName("w");
      counter.bound = t;
      charge(1);
      line("int " + counter.name + " = " + constant(t) + ";");
      whileHead = rng_.chance(50) ? "while (true)" : "for (;;)";
      firstLine = "if (" + counter.name + " <= 0) break; " + counter.name + "--;";
      break;
    }
    case 6: {  // wraps around at the end of the int range
      counter.name = freshName("i");
      std::string i = counter.name;
      if (rng_.chance(50))
        header = "for (int " + i + " = " + constant(kMax - (t - 1)) + "; " + i + " > 0; " + i + "++)";
      else
        header = "for (int " + i + " = " + constant(kMin + (t - 1)) + "; " + i + " < 0; " + i + "--)";
      break;
    }
    case 7: {  // triangular: bounded by an enclosing counter
      counter.name = freshName("j");
      counter.bound = outerBound;
      trips = static_cast<uint64_t>(outerBound);
      header = "for (int " + counter.name + " = 0; " + counter.name + " < " + outerName + "; " + counter.name + "++)";
      break;
    }
    case 9: {  // over an array's indices (a# <= maxLen): up, down, or one past the end
      counter.name = freshName("i");
      counter.bound = arrMax + 1;
      counter.overArray = arrName;
      trips = uint64_t(arrMax) + 1;
      std::string i = counter.name, n = arrName + "#";
      switch (rng_.weighted({30, 20, 15, 15, errorsOk_ ? 10 : 0})) {
        case 0: header = "for (int " + i + " = 0; " + i + " < " + n + "; " + i + "++)"; break;
        case 1: header = "for (int " + i + " = " + n + " - 1; " + i + " >= 0; " + i + "--)"; break;
        case 2: header = "for (int " + i + " = 1; " + i + " < " + n + "; " + i + "++)"; break;
        case 3: header = "for (int " + i + " = 0; " + i + " < " + n + " - 1; " + i + "++)"; break;
        default: header = "for (int " + i + " = 0; " + i + " <= " + n + "; " + i + "++)"; break;
      }
      break;
    }
    case 10: {  // a limit read at run time; arrays indexed at the counter and its neighbours
      // Mostly small enough for the shortest array around (then its
      // indices are in bounds: versioning's copy runs).
      const Var* shortest = pickVar([](const Var& v) { return v.ty == Ty::IntArr; }, false);
      int64_t room = shortest && rng_.chance(70) ? shortest->minLen - 3 : t - 1;
      int64_t mask = 1;
      while (mask * 2 + 1 <= std::min<int64_t>(t - 1, room)) mask = mask * 2 + 1;
      // Now and then flt arrays long enough for the loop, for a body of
      // flt elements only (floatKernelText: the vectorizer's loops).
      if (on(Feature::Floats) && rng_.chance(40))
        for (int k = static_cast<int>(rng_.range(1, 2)); k > 0; k--) {
          charge(mask + 4);
          Var f;
          f.name = freshName("a");
          f.ty = Ty::FltArr;
          f.elem = "flt";
          f.assignable = false;
          f.minLen = f.maxLen = static_cast<int>(mask + 3);
          std::string q = freshName("i");
          line("var " + f.name + " = new flt[" + constant(mask + 3) + "];");
          line("for (int " + q + " = 0; " + q + " < " + f.name + "#; " + q + "++) " + f.name + "[" + q + "] = " + q +
               " * " + floatLiteral() + " + " + floatLiteral() + ";");
          declare(f);
        }
      charge(1);
      Var lim;
      lim.name = freshName("n");
      lim.assignable = false;
      lim.bound = mask;
      line("val " + lim.name + " = (" + intExpr(2) + " & " + constant(mask) + ");");
      declare(lim);
      bool inclusive = rng_.chance(40);
      int64_t lo = rng_.range(0, 2);
      int64_t hi = inclusive ? mask : mask - 1;
      trips = static_cast<uint64_t>(mask + 1);
      counter.name = freshName("i");
      counter.bound = std::max(hi, lo);
      counter.nearIndex = true;
      counter.low = lo;
      std::string i = counter.name;
      header = "for (int " + i + " = " + constant(lo) + "; " + i + (inclusive ? " <= " : " < ") + lim.name + "; " +
               i + "++)";
      break;
    }
    default: {  // exact `!=` test
      int64_t s = rng_.range(1, 3);
      counter.name = freshName("i");
      counter.bound = std::max(std::abs(a), std::abs(a + t * s));
      std::string i = counter.name;
      header = "for (int " + i + " = " + constant(a) + "; " + i + " != " + constant(a + t * s) + "; " + i + " += " + constant(s) + ")";
      break;
    }
  }

  charge(trips + 1);
  uint64_t savedMult = ctx_.mult;
  ctx_.mult *= std::max<uint64_t>(trips, 1);
  ctx_.loopDepth++;
  bool isFor = !header.empty();
  if (isFor) {
    openScope();  // the loop variable's scope
    declare(counter);
    line(header + " {");
  } else {
    declare(counter);
    line(whileHead + " {");
  }
  indent_++;
  openScope();
  if (!firstLine.empty()) line(firstLine);
  // Sometimes only flt elements written from their neighbours (axpy, a
  // stencil): a body the vectorizer takes (opt/vectorize.h).
  bool fltKernel = counter.nearIndex && on(Feature::Floats) &&
                   pickVar([](const Var& v) { return v.ty == Ty::FltArr && !v.readOnly; }, false) && rng_.chance(60);
  if (fltKernel) {
    for (int k = rng_.range(1, 2); k > 0; k--) {
      charge(1);
      line(floatKernelText());
    }
  } else if (counter.nearIndex) {
    // An element written from its neighbours (lcs's row, a stencil).
    std::string store = arrayAssignmentText();
    if (!store.empty()) {
      charge(1);
      line(store);
    }
  }
  if (!fltKernel) loopBody(depth);
  if (!acc.empty() && !fltKernel) {
    std::string upd = rng_.pick({acc + " += " + counter.name + ";",
                                 acc + " += " + counter.name + " * " + constant(rng_.range(-9, 9)) + " + " + constant(rng_.range(-9, 9)) + ";",
                                 acc + " = " + acc + " * " + constant(rng_.range(2, 5)) + " + " + counter.name + ";",
                                 acc + " ^= " + counter.name + " << " + constant(rng_.range(0, 70)) + ";",
                                 // these overflow within a few dozen trips
                                 acc + " += " + constant(int64_t{1} << rng_.range(58, 62)) + " + " + counter.name + ";",
                                 acc + " = " + acc + " * 2 + 1;"});
    charge(1);
    line(upd);
  }
  if (!derived.empty()) {
    charge(1);
    line(derived + " += " + derivedStep + ";");
  }
  closeScope();
  indent_--;
  line("}");
  if (isFor) closeScope();
  ctx_.loopDepth--;
  ctx_.mult = savedMult;
  if (!acc.empty() && rng_.chance(50)) {
    charge(1);
    line("sys.io.p(" + acc + "); sys.io.p(\" \");");
  }
}

void Generator::loopBody(int depth) {
  int n = 1 + static_cast<int>(rng_.below(static_cast<uint64_t>(std::max(1, o_.maxBlockStatements / (depth + 2)))));
  // A jump placed by the body may skip the accumulator updates: that is fine,
  // they are only there to be optimized.
  block(n, depth + 1);
}

}  // namespace simplec::fuzz
