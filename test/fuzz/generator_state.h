// Generator: the state behind generateProgram, shared by the statement half
// (program_generator.cpp) and the expression half (expression_generator.cpp).
// Invariants: every name in `scopes_` is declared in the text emitted so far
// and visible at the current point; `ctx_.cost` bounds the statement
// executions of one call of the function being generated (loops multiply by
// `ctx_.mult`), and nothing is emitted that would push it past `ctx_.budget`.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "test/fuzz/program_generator.h"
#include "test/fuzz/rng.h"

namespace simplec::fuzz {

// Fn1 is `{ int -> int }`, Fn2 is `{ int int -> int }`, IntArr is `int[]`.
enum class Ty { Int, Bool, Fn1, Fn2, IntArr };

struct Var {
  std::string name;
  Ty ty = Ty::Int;
  bool assignable = true;   // false: val, loop counter, recursion depth, limit
  bool counter = false;     // a loop's induction variable (preferred in loop bodies)
  bool isField = false;     // `c1.a`: a field of a struct object, used like a variable
  int64_t bound = -1;       // |value| <= bound when known (limits, counters), else -1
  std::string overArray{};  // a counter running over this array's indices (a#)
  // For function references: every function the value can hold was
  // generated before function number `fnOrder`, and costs at most `fnCost`.
  size_t fnOrder = 0;
  uint64_t fnCost = 0;
};

struct FuncInfo {
  std::string name;
  size_t order = 0;           // index in Generator::funcs_ (generation order)
  std::vector<Ty> params;
  bool recursive = false;     // params[0] is the depth, passed as 0..kMaxDepth
  bool returnsValue = true;   // false: a procedure whose body ends in sys.io.p
  uint64_t cost = 1;          // statement executions of one call, callees included
  bool called = false;        // some later function calls it (or may, through a reference)
};

// Per function being generated.
struct FnCtx {
  size_t order = 0;           // index this function gets in `funcs_`; main: funcs_.size()
  bool isMain = false;
  bool recursive = false;
  uint64_t cost = 0, budget = 0;
  uint64_t mult = 1;          // product of the trip bounds of the enclosing loops
  int loopDepth = 0;
  int selfCallsLeft = 0;      // recursive self-calls still allowed (only at mult 1)
  bool procedure = false;     // no value: never `return`s
  std::string depthParam;
  FuncInfo info;              // the function itself (for recursive self-calls)
};

class Generator {
 public:
  Generator(uint64_t seed, const GeneratorOptions& opts);
  std::string program();

  static constexpr int64_t kMaxDepth = 7;  // recursion depth argument is `& 7`

 private:
  // --- program_generator.cpp: functions and statements ---
  void function(size_t order);
  void mainBody(bool functionForm, bool hasArg);
  // Emits up to `n` statements; true if the block ended with return/break/continue.
  bool block(int n, int depth);
  bool statement(int depth);
  void declaration();
  std::string assignmentText();  // one assignment statement, with its `;`
  void printStatement();
  bool ifStatement(int depth);
  void loopStatement(int depth);
  void loopBody(int depth);
  bool jumpStatement(int depth);
  void callStatement();
  void nestedBlock(int depth);
  void guardedDivisionStatement();
  void line(const std::string& text);
  void openScope();
  void closeScope();
  void declare(Var v);
  std::string freshName(const char* prefix);
  bool hasFnCandidate(Ty sig, size_t maxOrder) const;
  void markCalled(const std::string& name);
  static bool matches(const FuncInfo& f, Ty sig);  // f can be held by a `sig` reference
  bool canAfford(uint64_t units) const;
  void charge(uint64_t units);
  uint64_t room() const;  // units still affordable at the current multiplier

  // --- expression_generator.cpp ---
  std::string expr(Ty want, int depth);
  std::string intExpr(int depth);
  std::string intTypedExpr(int depth);
  std::string floatExpr(int depth);       // a flt-valued expression
  std::string floatLiteral();
  std::string intThroughFloats(int depth);  // an int computed by way of floats
  std::string condExpr(int depth);
  std::string leaf(bool preferCounter);
  // An element or the length of a visible int array (empty if none): the
  // index is in bounds except, rarely, when it is not (a runtime error).
  std::string arrayRead();
  std::string arrayIndex(const std::string& arr);
  std::string arrayAssignmentText();
  std::string literal();
  std::string constant(int64_t v);
  std::string divisor(int depth);
  std::string division(int depth);
  std::string zeroProneDivisor();
  std::string guardedDivision(int depth);
  std::string shiftExpr(int depth);
  std::string compareExpr(int depth);
  std::string rangeCompare(int depth);
  std::string logicExpr(int depth);
  std::string sideEffectExpr(int depth);
  std::string callExpr(int depth);
  std::string fnRefCall(int depth);
  // A function value of type `sig` that only holds functions generated before
  // `maxOrder`; empty if there is none. Sets *cost and *order for the value.
  std::string fnValue(Ty sig, size_t maxOrder, uint64_t* cost, size_t* order);
  std::string argsFor(const FuncInfo& f, int depth);
  std::vector<const Var*> visible(bool (*pred)(const Var&)) const;
  const Var* pickVar(bool (*pred)(const Var&), bool preferCounter);

  Rng rng_;
  GeneratorOptions o_;
  std::string out_;
  int indent_ = 0;
  int nextName_ = 0;
  std::vector<std::vector<Var>> scopes_;  // [0]: program constants
  std::vector<FuncInfo> funcs_;            // helpers generated so far (callees of later ones)
  FnCtx ctx_;
  // Side-effect-free divisions seen in scope, reused to make redundant ones:
  // (scope depth at creation, text).
  std::vector<std::pair<size_t, std::string>> divPool_;
  int pureDepth_ = 0;        // > 0: no calls, no side effects (text may be duplicated)
  bool zeroDivisors_ = false;  // this program may divide by zero
  bool usesStruct_ = false;    // some function made a `Cell` object (declared at the top)
};

}  // namespace simplec::fuzz
