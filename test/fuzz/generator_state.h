// Generator: the state behind generateProgram, shared by the statement half
// (program_generator.cpp, loop_generator.cpp), the expression half
// (expression_generator.cpp) and the data half (struct_generator.cpp,
// array_generator.cpp: structs, references, arrays between functions).
// Invariants: every name in `scopes_` is declared in the text emitted so far
// and visible at the current point, with the type and mutability its Var
// says (a read-only reference is never written through, nor stored where a
// mutable one is expected; a possibly-null reference is never dereferenced
// outside a test that proves it non-null); `ctx_.cost` bounds the statement
// executions of one call of the function being generated (loops multiply by
// `ctx_.mult`), and nothing is emitted that would push it past `ctx_.budget`.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "test/fuzz/program_generator.h"
#include "test/fuzz/rng.h"

namespace simplec::fuzz {

// Fn1 is `{ int -> int }`, Fn2 is `{ int int -> int }`. IntArr is an array
// of integers (Var::elem: int, a narrow type or bool; `u8[~]` for strings),
// FltArr of flt, Ref a reference to struct Var::sid.
enum class Ty { Int, Bool, Fn1, Fn2, IntArr, Flt, FltArr, Ref };

// A variable, a parameter, a field used like a variable (`s.f`), or a type
// (a function's parameters and result).
struct Var {
  std::string name;
  Ty ty = Ty::Int;
  bool assignable = true;   // false: val, loop counter, recursion depth, limit
  bool counter = false;     // a loop's induction variable (preferred in loop bodies)
  bool isField = false;     // `c1.a`: a field of a struct object, used like a variable
  int64_t bound = -1;       // |value| <= bound when known (limits, counters), else -1
  std::string overArray{};  // a counter running over this array's indices (a#)
  // A counter in [low, bound] that indexes arrays at itself and its
  // neighbours (`a[i - 1]`), with a limit read at run time: loop versioning.
  bool nearIndex = false;
  int64_t low = 0;
  // For function references: every function the value can hold was
  // generated before function number `fnOrder`, and costs at most `fnCost`.
  size_t fnOrder = 0;
  uint64_t fnCost = 0;
  // Int: a narrow type (i8 ... u32, bool) or "" for int; Flt: "f32" or "";
  // IntArr: the element type.
  std::string elem{};
  int sid = -1;             // Ref: index in Generator::structs_
  bool nullable = false;    // Ref: may be null here (declared S?)
  bool readOnly = false;    // a reference read-only through this name (deeply)
  int minLen = 1, maxLen = 8;  // arrays: the length is in [minLen, maxLen] (maxLen <= 32)
};

struct FieldInfo {
  Var type;                 // name: the field's name
  bool isVal = false;       // `val k = 3;`: a per-type constant
  std::string init{};       // initializer text, or "" (then set by constructors, or zero)
};

struct StructInfo {
  std::string name;
  std::vector<FieldInfo> fields;
  // Methods `m(int) -> int` (cost of one call), and self-free functions
  // called as `S.f(x)`.
  std::vector<std::pair<std::string, uint64_t>> methods;
  std::vector<std::string> statics;
  std::string memberText;   // the methods' and statics' definitions
};

struct FuncInfo {
  std::string name;
  size_t order = 0;           // index in Generator::funcs_ (generation order)
  std::vector<Var> params;    // types (names unused)
  Var ret;                    // result type (Int, Flt, IntArr, Ref) when returnsValue
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
  std::string featureLine() const;

  static constexpr int64_t kMaxDepth = 7;  // recursion depth argument is `& 7`

 private:
  bool on(Feature f) const { return feat_[size_t(f)]; }
  void chooseFeatures();

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
  bool dispatchChain(int depth);
  bool arm(const std::string& opening, int n, int depth);
  void loopStatement(int depth);
  void loopBody(int depth);
  bool jumpStatement(int depth);
  std::string returnText();      // `return e;` of the current function's result type
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
  std::string typeText(const Var& t) const;

  // --- expression_generator.cpp ---
  std::string expr(Ty want, int depth);
  std::string intExpr(int depth);
  std::string intTypedExpr(int depth);
  std::string floatExpr(int depth);       // a flt-valued expression
  std::string floatLiteral();
  std::string floatLeaf();
  std::string intThroughFloats(int depth);  // an int computed by way of floats
  std::string condExpr(int depth);
  std::string leaf(bool preferCounter);
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
  std::string callExpr(int depth);        // a call whose result is an int
  std::string floatCallExpr(int depth);   // a call whose result is a flt, or ""
  // A call of a function with result type `want` (IntArr or Ref: lengths or
  // struct as in `want`), or "" when none is affordable.
  std::string refCallExpr(const Var& want, int depth);
  std::string fnRefCall(int depth);
  // A function value of type `sig` that only holds functions generated before
  // `maxOrder`; empty if there is none. Sets *cost and *order for the value.
  std::string fnValue(Ty sig, size_t maxOrder, uint64_t* cost, size_t* order);
  std::string argsFor(const FuncInfo& f, int depth);
  std::vector<const Var*> visible(bool (*pred)(const Var&)) const;
  const Var* pickVar(bool (*pred)(const Var&), bool preferCounter);
  void floatAssignment(std::string* out);

  // --- array_generator.cpp ---
  // An element or the length of a visible int array (empty if none): the
  // index is in bounds except, rarely, when it is not (a runtime error).
  std::string arrayRead();
  std::string floatArrayRead();
  std::string arrayIndex(const Var& arr);
  std::string arrayAssignmentText();
  std::string floatArrayAssignmentText();
  // A flt element from flt elements (near a loop's counter), flt variables
  // and literals by + - * / alone: a body the vectorizer takes.
  std::string floatKernelText();
  int nearIndexChance_ = 60;  // percent: an index near a loop's counter when one is in scope
  // `v[(t + v[t & 7]) & 7]++` and kin: a store through an index loaded from
  // the same array (arrays of at least 8 elements).
  std::string selfIndexedText();
  void arrayDeclaration();
  // An array value for a parameter or a result of type `t` (a visible
  // array, a new one, or a call's result); "" when none can be made.
  std::string arrayValue(const Var& t, int depth);
  Var arrayParamType();
  Var arrayResultType();

  // --- struct_generator.cpp ---
  void declareStructs();
  std::string structDecls() const;
  // `new S { f = ...; }`, the constructor setting every field that needs it.
  std::string allocation(int sid, int depth);
  // A reference value of type `t` (non-null unless t.nullable): a visible
  // reference, a new object, a call's result; "" when there is none.
  std::string refValue(const Var& t, int depth);
  // Declares the fields of the non-null reference `v` as variables `v.f`
  // (and of the objects its non-null fields hold, two levels deep).
  void declareFields(const Var& v, int level = 0);
  void refDeclaration();
  bool nullCheckStatement(int depth);
  std::string refAssignmentText();
  std::string methodCallExpr(int depth);
  std::string nullableFieldRead();   // `(p ? p.f : k)`, "" if no nullable reference is visible
  Var randomFieldType(int sid);

  Rng rng_;
  GeneratorOptions o_;
  std::array<bool, size_t(Feature::Count)> feat_{};
  std::string out_;
  int indent_ = 0;
  int nextName_ = 0;
  std::vector<std::vector<Var>> scopes_;  // [0]: program constants
  std::vector<FuncInfo> funcs_;            // helpers generated so far (callees of later ones)
  std::vector<StructInfo> structs_;
  FnCtx ctx_;
  Var retTy_;                // the current function's result type (Int for main)
  // Side-effect-free divisions seen in scope, reused to make redundant ones:
  // (scope depth at creation, text).
  std::vector<std::pair<size_t, std::string>> divPool_;
  int pureDepth_ = 0;        // > 0: no calls, no side effects (text may be duplicated)
  bool zeroDivisors_ = false;  // this program may divide by zero
  bool errorsOk_ = true;       // runtime errors on purpose (out-of-bounds indices, negative sizes)
  bool inMethod_ = false;      // generating a method body: fields by bare name, no calls
  const FuncInfo* lastCallee_ = nullptr;  // the function refCallExpr called last
  size_t fnScope_ = 0;         // scopes_.size() in the outermost block of the current function
};

}  // namespace simplec::fuzz
