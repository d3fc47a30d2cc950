// The parser's internal state, shared by its implementation files:
// parser.cpp (files, statements), parse_expr.cpp (expressions),
// parse_fun.cpp (function literals, calls, returns, sys.io.p).
#pragma once
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "lexer/diag.h"
#include "lexer/lexer.h"
#include "lexer/token.h"
#include "opt/peephole.h"
#include "parser/null_path.h"
#include "parser/sys_prelude.h"
#include "parser/scope.h"
#include "parser/struct_info.h"
#include "parser/stype.h"
#include "son/mem_access.h"
#include "son/unit.h"

namespace simplec {

// The outermost operator of an expression, as far as warnings care
// (parser/warn_exprs.cpp); parentheses keep it, except that they mark an
// assignment as meant where a condition is expected.
enum class ExprForm : uint8_t { Other, Assign, Compare, Literal };

// A value during parsing: its node and its static type.
struct Val {
  Val() = default;
  Val(Node* node, SType type) : n(node), t(std::move(type)) {}
  Node* n = nullptr;
  SType t;
  // Null facts for flow-sensitive typing: the variables and paths known
  // non-null where this value, as a condition, is true / false. `var` is
  // the variable this value was read from; `path` the stable path it was
  // read from (a variable's too: NullPath::ofVar).
  std::vector<NullPath> nnTrue, nnFalse;
  int var = -1;
  NullPath path;
  // Loop entry facts this read first relied on (see testOnly).
  ReliedMarks relied;
  ExprForm form = ExprForm::Other;
};

// Thrown on a syntax error, after it has been reported; statement parsing
// catches it and skips to a point where parsing can resume.
struct SyntaxError {};
// Thrown when parsing cannot usefully go on (nesting limit).
struct ParseAbort {};

class Parser {
 public:
  // `hints`: result types of recursive top-level functions, learnt from an
  // earlier parse of the same file.
  using RetHints = std::unordered_map<std::string, SType>;
  // Facts a loop must not assume at its head (its keyword's token index ->
  // the variables and paths), learnt from an earlier parse of the same file.
  using LoopHints = std::unordered_map<size_t, std::vector<NullPath>>;
  // `pessimisticLoops`: loops assume no fact they may change (by their tokens).
  Parser(const SourceFile& file, DiagEngine& diag, Unit& u, const RetHints& hints, const LoopHints& loopHints,
         bool pessimisticLoops);
  bool parseFile();
  // After parseFile: did every recursive use assume the result type the
  // function turned out to have? If not, `learnt` holds the real types.
  bool assumptionsHeld(RetHints* learnt) const;
  // The type of a return that clashed with a recursive call's assumed result
  // (to assume next round), or error.
  SType clashingReturn(const std::string& name, int funIdx) const;
  void reportUnresolvedRecursion(const RetHints& failed);
  // Functions whose result type only their recursive calls decided (the
  // default assumption held): probe them with another assumption.
  std::vector<std::string> defaultedResults() const;
  // Of the probed functions, those whose result followed the probe without
  // any error in their body: nothing but their own calls decides the type.
  std::vector<std::string> resultsFollowing(const RetHints& probes) const;
  void reportUndeterminedResults(const std::vector<std::string>& names);
  // After parseFile: did every loop keep the entry facts its reads relied
  // on? If not, the facts to drop are added to `learnt`.
  bool loopFactsHeld(LoopHints* learnt) const;
  void moveStructsTo(std::vector<std::unique_ptr<StructInfo>>& into) {
    for (auto& s : structs_) into.push_back(std::move(s));
  }

 private:
  // One function being parsed, into its own graph.
  struct FunCtx {
    int funIdx = -1;
    Graph* graph = nullptr;
    std::unique_ptr<Peephole> peep;      // the graph's parse-time peepholes (and value numbering)
    SymbolTable symbols;                 // the function's names
    Scope* scope = nullptr;              // current scope of this function
    // Return paths, as inputs (ctrl, mem, value)* of a holder node so that
    // rewrites while parsing (Phis folded at loop ends) update them.
    Node* returns = nullptr;
    size_t numReturns() const { return returns ? returns->in.size() / 3 : 0; }
    SType retType = SType::error();      // common type of returns so far
    bool retTypeKnown = false;
    SrcPos retPos;                       // the return that set retType
    // Loop context.
    Scope* breakScope = nullptr;         // the innermost loop's exit (its parent: the loop body)
    Scope* continueScope = nullptr;
    bool inLoop = false;
    // -g: while a for-loop's step is parsed (after its body, where it
    // runs), the end of the body: the step's assignments are done once the
    // source has passed the body, not where the step is written (before
    // it). Per function: a function literal in the step has its own.
    SrcPos stepPassAt{};
    FunCtx* outer = nullptr;
    const StructInfo* selfStruct = nullptr;  // a method of this struct
    bool usedSelf = false, wroteSelf = false;
    size_t bodyDepth = 1;                // scope depth of the body's outermost block
    Val lastExpr;                        // value of the last expression statement
    bool lastWasExpr = false;
    std::vector<int> debugVar;           // -g: by symbol index, its FunInfo::debugVars index or -1
  };
  // A top-level `val f = { ... };`, known before its body is parsed so that
  // calls may precede the definition.
  struct TopFun {
    size_t litPos;        // token index of the '{'
    size_t endPos = 0;    // token index just past the '}' once parsed
    int funIdx = -1;
    bool parsing = false;
    bool attempted = false;  // parsed once, maybe with errors: never again
    SType type;           // set once the header (or the whole) is parsed
    SType assumedRet;     // result type assumed by a recursive call
    bool retAssumed = false;
    bool assumptionsDiffer = false;
    bool retDefaulted = false;  // some recursive call knew nothing: assumed bool
    int bodyErrors = 0;         // errors reported while parsing the body
  };

  // ---- tokens
  const Token& tok() const { return toks_[pos_]; }
  const Token& peekTok(size_t k = 1) const;
  const Token& prevTok() const { return toks_[pos_ ? pos_ - 1 : 0]; }
  // Where token t ends (lexer/lexer.h: tokenEnd), in its own file.
  SrcPos endOf(const Token& t) const { return tokenEnd(t.file == kSysLibraryFile ? sysPreludeFile() : file_, t); }
  bool at(Tok k) const { return tok().kind == k; }
  bool accept(Tok k);
  // With `open`, the token index of the bracket that k closes: a missing k
  // gets a note pointing at it ("to match this '{'").
  static constexpr size_t kNoOpen = SIZE_MAX;
  void expect(Tok k, size_t open = kNoOpen);
  [[noreturn]] void syntaxError(SrcPos pos, const std::string& msg);
  void error(SrcPos pos, const std::string& msg);
  // Attaches to the error or warning just reported.
  void note(SrcPos pos, const std::string& msg) { diag_.note(file_, pos, msg); }
  // Each warning once per position: field initializers are parsed again
  // at every `new`.
  void warn(SrcPos pos, Warn w, const std::string& msg);
  std::set<std::tuple<uint32_t, uint32_t, Warn>> warned_;
  int warningErrors_ = 0;  // warnings made errors by -Werror
  bool hadRealErrors() const { return diag_.errorCount() > warningErrors_; }

  // ---- warnings about names (warn_names.cpp)
  // Variables from index `from` on leave scope: warn those never read.
  void warnUnused(size_t from);
  // Before declaring `name` (kind Local) in the innermost block.
  void warnShadow(const Token& name);
  // The kind a declaration of the current block gets (constValue: its constant).
  VarKind declKind(const SType& t, const Type* constValue);
  // ---- warnings about expressions (warn_exprs.cpp)
  // The condition of an if/while/for: `e` as parsed from token `start` to
  // the current one, `c` it as a condition.
  void checkCondition(const Val& e, const Val& c, size_t start, SrcPos pos);
  bool namesOnlyConstants(size_t start, size_t end);
  // `x = x`: the right side (from token rhsStart to the current one) repeats
  // the target tokens [lhsStart, lhsEnd).
  void checkSelfAssign(size_t lhsStart, size_t lhsEnd, size_t rhsStart, SrcPos opPos);
  // Is `name` also defined in a block outside the innermost one defining it?
  bool hidesOuterName(const std::string& name) const;
  void checkBitwise(const Val& a, const Val& b, const Token& op);
  // Argument i (1-based) of a call of `callee`, converted to `to`.
  void checkIntConversion(const Val& arg, const SType& to, Node* callee, size_t i, SrcPos pos);
  void syncStatement();
  // Candidates for "did you mean" (suggest_names.cpp): the names an
  // expression could use here, the type names, a struct's fields.
  std::vector<std::string> namesInScope() const;
  std::vector<std::string> typeNames() const;
  std::vector<std::string> structNames() const;
  // "; did you mean 'sys.io.p'?" for an unknown `sys.` path, or "".
  std::string sysSuggestion(const std::string& path) const;
  static std::vector<std::string> fieldNames(const StructInfo& s);
  // The source text of tokens [from, to) when they are a dotted name
  // (`p.items`), else `fallback`: to quote an expression in a hint.
  std::string spelling(size_t from, size_t to, const std::string& fallback) const;
  void skipPastBrace(size_t open);
  bool eofReported_ = false;

  // ---- nodes (always in the graph of the function being parsed)
  Graph& G() { return *fn_->graph; }
  // A function's parse is over: sweep what only the parser kept alive and
  // free the dead nodes (kills are eager from here on).
  void finishGraph(Graph& g);
  Node* peep(Node* n) { return fn_->peep->run(n); }
  Node* mk(Op op, std::initializer_list<Node*> ins, const Type* t = nullptr, int64_t aux = 0) {
    return mk(op, ins.begin(), ins.size(), t, aux);
  }
  Node* mk(Op op, const std::vector<Node*>& ins, const Type* t = nullptr, int64_t aux = 0) {
    return mk(op, ins.data(), ins.size(), t, aux);
  }
  Node* mk(Op op, Node* const* ins, size_t n, const Type* t, int64_t aux);
  // The constant of type t in the current graph (value-numbered).
  Node* conOf(const Type* t);
  Node* con(int64_t v);
  Node* deadCtrl() { return conOf(Type::xctrl()); }
  Node* fcon(double v);
  Node* dataOp(Op op, Node* a, Node* b = nullptr, SrcPos pos = {});
  Scope* scope() { return fn_->scope; }
  SymbolTable& syms() { return fn_->symbols; }
  // Leaves a block: names beyond the first nvars (and blocks beyond depth) go.
  void endBlock(size_t nvars, size_t depth);
  Node* ctrl() { return scope()->ctrl(); }
  void setCtrl(Node* c) { scope()->setCtrl(c); }
  bool deadCode() { return ctrl()->type->kind() == TKind::XCtrl; }

  // ---- statements (parser.cpp)
  void parseTopLevel();
  void parseStatement();
  // Statements of one block, in order: the first one after a return,
  // break or continue of the same block is warned as unreachable (once).
  struct StatementSeq {
    bool jumped = false, warned = false;
  };
  void parseStatementIn(StatementSeq& seq);
  void parseBlock();
  void parseIf();
  void parseWhile();
  void parseFor();
  void parseBreakContinue(bool isBreak);
  void parseReturn();
  bool atDeclaration();
  void parseDeclaration();
  // With `stopAtSize`, a '[' not followed by ']' or '~' ends the type (the
  // size of `new T[n]`).
  SType parseType(bool stopAtSize = false);
  void declareExternal(const Token& name, const SType& declared);
  // '(' arguments ')': each argument's value and position.
  void parseArguments(std::vector<Val>* args, std::vector<SrcPos>* argPos);
  bool isFunTypeAt(size_t p) const;
  bool isStructDeclAt(size_t p) const;
  bool isUnknownTypeDeclAt(size_t p) const;
  // Is a reference declared so (with an initializer) read-only through its name?
  bool readonlyDecl(bool isVal, bool isVar, bool bang);
  bool forInit_ = false;  // parsing the init of a `for`: its variables stay mutable
  size_t skipType(size_t p, int depth = 0) const;  // token index past a type at p, or 0
  // The token index of each '(' '[' '{', in order, and of its partner (the
  // last token when unmatched); computed once per parse. Only openers are
  // looked up (at loops), so a huge file keeps 8 bytes per bracket pair
  // rather than 4 per token.
  std::vector<uint32_t> openers_, closers_;
  size_t closerOf(size_t open) const;  // open: the index of an opener
  void matchBrackets();
  // The index just past the statement starting at token p (by its tokens
  // alone: blocks, if/else, loops, or up to a ';' outside brackets).
  size_t statementEnd(size_t p) const;
  void enterNesting();
  // One level of statement/expression nesting, left however the scope ends.
  struct Nesting {
    Parser& p;
    explicit Nesting(Parser& parser) : p(parser) { p.enterNesting(); }
    ~Nesting() { p.depth_--; }
  };
  // Loop plumbing.
  struct LoopSave { Scope* br; Scope* co; bool in; };
  LoopSave beginLoopCtx(Scope* breakScope);
  void endLoopCtx(const LoopSave& s);
  Scope* jumpTo(Scope* target);
  // Closes a loop; an endless one gets a Never exit to the function's return.
  // The current scope (the back edge's) and the exit fold back into `head`.
  void closeLoop(size_t loopTok, Scope* head, Scope* exit);
  // The loop body scope of a new loop at the current control (the head);
  // the body statement starts at token `bodyStart`.
  Scope* enterLoop(size_t loopTok, size_t bodyStart);
  void parseLoopBody(Scope* exit);
  // Merge two arms that each leave a value: the result Phi (or value).
  // Joins the arms a (which computed va) and b (vb); the scope they branched
  // from becomes current again and the result is the merged value.
  Val mergeValues(Scope* a, Val va, Scope* b, Val vb, SType t);
  // Branches on `cond`: the current scope becomes the true arm (a child of
  // the scope before) and the returned scope holds the false arm (its
  // sibling). join() merges the arms and folds them back into that scope.
  Scope* branch(Node* cond, SrcPos pos);
  Scope* join(Scope* a, Scope* b);

  // ---- expressions (parse_expr.cpp)
  Val parseExpr();
  Val parseAssign();
  Val parseTernary();
  Val parseLogical();
  // The left operand of an `&&`/`||` whose right one is being parsed.
  struct LogicalLeft {
    bool isAnd;
    Val a, cond;  // the operand, and it as a condition
    Scope* skip;  // where the right operand is not evaluated
  };
  Val finishLogical(const LogicalLeft& l, Val b, SrcPos bpos);
  Val parseBitwise();
  Val parseEquality();
  Val parseRelational();
  Val chainRest(Val sofar, Val mid, bool less);
  Val parseShift();
  Val parseAdditive();
  Val parseMultiplicative();
  Val parseUnary();
  Val negate(Val v, SrcPos minusPos);
  Val parseNegation(SrcPos minusPos);
  Val parseDoubleMinus();
  bool namesNumericVar(size_t i);
  Val parsePostfix();
  Val parsePrimary();
  Val parseIntLiteral(bool negated);
  static Val literal(Val v) {
    v.form = ExprForm::Literal;
    return v;
  }
  Val requireInt(Val v, SrcPos pos, const char* what);
  Val toBool(Val v);
  Val coerce(Val v, const SType& to, SrcPos pos);
  // Truncates an integer to a narrow integer type (keeps it when it fits).
  Val narrowTo(Val v, const SType& to);
  // Is fptr a constant naming a C function the program declared (not one
  // of simplec's runtime)? Those calls flush output and narrow results.
  bool callsExtern(const Node* fptr) const;
  // A function of ours that calls C function `ext` (made once per extern).
  Node* externThunk(int ext);

  // ---- floats (parse_numeric.cpp)
  Val zeroOf(const SType& t);          // 0 or 0.0 of type t
  Val widenToFloat(Val v);             // an integer becomes a flt; floats stay
  // v (assignable to `to`) as stored into a `to`: widened, rounded to f32, truncated.
  Val storeAs(Val v, const SType& to);
  Val floatArith(Op op, Val a, Val b, SrcPos opPos);
  Val floatCompare(Tok op, Val a, Val b, SrcPos opPos);
  Val parseConversion();
  Val parseSysMath(const std::string& fn, SrcPos namePos);
  // Variables.
  struct VarRef { int idx = -1; Scope* scope = nullptr; };
  Val readName(const Token& name);
  // A name in a constant's initializer: only file-level names and the
  // constants of the struct being declared are visible.
  Val readNameInConstant(const Token& name);
  // `name` as a per-type constant of `s` named bare (a method's or a
  // constant's own struct); false if `s` has no such constant.
  bool bareStructConstant(StructInfo& s, const Token& name, Val* out);
  void assignVar(const Token& name, int idx, Val v, SrcPos opPos);
  Val compoundAssign(const Token& name, Tok op, SrcPos opPos);
  Val incDec(bool prefix, bool inc, const Token& name, SrcPos opPos);
  static Op binaryOpFor(Tok t);
  Val arith(Op op, Val a, Val b, SrcPos opPos, const char* opText);
  Val compare(Tok op, Val a, Val b, SrcPos opPos);
  Val condition(Val v, SrcPos pos);

  // ---- structs and references (parse_struct.cpp)
  void preDeclareStructs();
  void parseStructFields(StructInfo& s);
  void parseStructStatement();
  StructInfo* lookupStruct(const std::string& name) const;
  // A qualified struct name `A.B` starting at token p: the struct and the
  // token index past the name, or null.
  StructInfo* structNameAt(size_t p, size_t* end) const;
  Node* fieldConst(StructInfo& s, FieldInfo& f);
  Val typeMember(StructInfo* s, SrcPos pos, size_t startTok = 0);
  Val nullValue();
  Node* nullCon();
  bool lastMethodUsedSelf_ = false, lastMethodWroteSelf_ = false;
  FieldInfo* parsingMethod_ = nullptr;  // the method whose literal is about to be parsed
  Val parseNewStruct();
  Val fieldAccess(Val obj, SrcPos dotPos, size_t startTok);
  Val fieldAssign(Tok op, SrcPos opPos);
  Val fieldIncDec(bool inc, SrcPos opPos, bool prefix = false);
  Val methodCall(Val obj, StructInfo& s, FieldInfo& f, SrcPos pos);
  FieldInfo* selfMethodNamed(const std::string& name);
  Val bareMethodCall(FieldInfo& m);
  void reportMightBeNull(const Val& v, SrcPos pos);
  bool checkDeref(const Val& obj, SrcPos dotPos);
  void noteSelfWrite(const Val& obj);  // a method assigning a field of `self`
  // ---- null facts (null_facts.cpp)
  Val readVar(int idx);
  void applyFacts(Scope* s, const std::vector<NullPath>& facts);
  // v, read just now, is only tested (if, while, for, ?, !): whether it
  // is null does not depend on a loop's entry facts after all.
  Val testOnly(Val v);
  // Those of `facts` that still hold in the current scope.
  std::vector<NullPath> factsHolding(const std::vector<NullPath>& facts);
  // v was just loaded from `path` (maybe none): it may be known non-null.
  Val fromPath(Val v, const NullPath& path);
  NullPath fieldPath(const Val& obj, StructInfo& s, int field);
  // a[idx], unless evaluating the index changed something (`eventsBefore`).
  NullPath elemPath(const Val& arr, const Val& idx, const SType& elem, uint64_t eventsBefore);
  int fieldKey(StructInfo& s, int field);
  int elemKey(const SType& elem);
  // What can change a path's fact: each one also counts in factEvents_.
  void noteVarAssigned(int idx);
  // -g (debug_vars.cpp): variable idx of the current function, just
  // defined with value v, is a parameter (param = 1-based position) or a
  // local (0); an assignment gives it another value. A narrow parameter's
  // v truncates its Parm `raw`, which has the same bytes within its width.
  void debugDeclare(int idx, Node* v, int param, Node* raw = nullptr);
  void debugAssign(int idx, Node* v);
  void debugMerge(int idx, Node* v, Node* merge);
  // -g: the variables declared since symbol nvars live in the source block
  // [begin, end] (a lexical block for the debugger).
  void debugScope(size_t nvars, SrcPos begin, SrcPos end);
  int debugTypeOf(const SType& t, bool inMemory = false);
  std::unordered_map<std::string, int> debugTypeIds_;
  void noteStore(bool element, int key);
  void noteCall();
  uint64_t factEvents_ = 0;
  std::unordered_map<std::string, int> elemKeys_;
  // Loops: the head assumes the facts of its entry; closing checks them.
  void assumeLoopFacts(Scope* head, size_t loopTok, size_t from, size_t to);
  void checkLoopFacts(size_t loopTok, Scope* head, Scope* back, Scope* exit);
  // Variables assigned in tokens [from, to) may be null again at `head`.
  void weakenAssignedInLoop(Scope* head, size_t from, size_t to);
  const LoopHints& loopHints_;
  bool pessimisticLoops_ = false;
  LoopHints failedLoops_;
  // A type learnt in an earlier parse, with its structs those of this parse.
  SType remapStructs(const SType& t) const;
  // The last field access parsed, so that `s.f = v` can turn it into a store.
  struct FieldRef {
    Val obj;
    StructInfo* strct = nullptr;
    int field = -1;
    size_t startTok = 0, endTok = 0;
  };
  FieldRef lastField_;
  std::vector<std::unique_ptr<StructInfo>> structs_;
  std::unordered_map<std::string, StructInfo*> structByName_;
  const StructInfo* typeContext_ = nullptr;  // struct whose fields are being declared
  // Memory operations on struct objects (parse_struct_mem.cpp).
  void registerStructAliases();
  Node* emitNew(StructInfo& s, const std::vector<Node*>& fieldValues, SrcPos pos);
  Val emitLoad(Val obj, StructInfo& s, int field, SrcPos pos);
  // `init`: into an object just allocated (no fact can name it yet).
  void emitStore(Val obj, StructInfo& s, int field, Val v, SrcPos pos, bool init = false);
  // ---- arrays (parse_array.cpp)
  void registerArrayAliases();
  MemAccess elemAccess(const SType& elem);
  // A New of `count` slots of `slots` (array elements or object fields),
  // threaded through control and its memory class; returns the reference.
  Node* allocate(const MemAccess& slots, Node* count, SrcPos pos);
  bool checkArrayUse(const Val& v, SrcPos pos, const char* what);
  Node* arrayLength(Node* ptr);
  void boundsCheck(Node* ptr, Node* idx, SrcPos pos);
  Node* elemOffset(Node* idx, int size);
  Node* loadElem(Node* ptr, Node* idx, const SType& elem);
  void storeElem(Node* ptr, Node* idx, const SType& elem, Node* v);
  Val parseNew();
  Val parseIndex(Val arr);
  Val parseLength(Val arr);
  static bool isCompoundAssign(Tok t);

  // ---- the sys library (parse_sys.cpp)
  bool needsSysLibrary() const;
  void appendSysLibrary();
  bool inSysLibrary() const { return sysStart_ != 0 && pos_ >= sysStart_; }
  size_t sysStart_ = 0;  // index of the library's first token (0: not loaded)
  Val parseSysLibraryName(const Token& sys);
  Val sysStdin();
  Val sysArgs();
  // Calls simplec's runtime function `symbol` (no flush, no narrowing).
  Val callRuntime(const std::string& symbol, std::vector<SType> params, SType ret, std::vector<Node*> args);
  // A struct field declared `T name = "C";` (a C function or variable).
  Val externField(FieldInfo& f, SrcPos pos, size_t startTok);
  struct ExternFieldRef {
    int ext = -1;
    size_t startTok = 0, endTok = 0;
  };
  ExternFieldRef lastExternField_;  // the last `S.v` read of an external variable

  // ---- external variables (parse_extern_var.cpp)
  bool mentionsExternVar() const;
  int declareExternVar(const std::string& symbol, const SType& type);
  MemAccess externVarAccess(int ext);
  Node* externVarAddress(int ext);
  Val loadExternVar(int ext, SrcPos pos);
  void storeExternVar(int ext, Val v, SrcPos pos);
  // The external variable this name means here (a FunInfo index), or -1.
  int externVarNamed(const std::string& name);

  // ---- functions (parse_fun.cpp)
  Val parseFunLiteral(const std::string& name, const StructInfo* selfStruct = nullptr);
  Val parseCall(Val callee, SrcPos pos);
  Val parseSys();
  Val printCall(Val v, SrcPos pos);
  // A FunInfo for the C symbol `symbol` (function or variable), not yet added.
  FunInfo claimExternSymbol(const std::string& symbol);
  int declareExtern(const std::string& symbol, std::vector<SType> params, SType ret);
  // `pos`: the call's `(`, where runtime error traces show the call (when
  // invalid, the last token read).
  Val callFunction(Node* fptr, const FunSig& sig, std::vector<Node*> args, SrcPos pos = {});
  // A new function with its own graph (Fun and memory Parm made); `ctx`
  // then parses into that graph.
  int newFunction(std::string name, SrcPos pos);  // by value: it may name another FunInfo
  void enterGraph(FunCtx& ctx, int funIdx);
  void finishFunction(FunCtx& ctx, SrcPos endPos, bool isEntryScript);
  void addReturn(Val v, SrcPos pos);
  void addReturnPath(Node* c, Node* m, Node* v);
  void preDeclareTopFunctions();
  Val topFunValue(const std::string& name, SrcPos pos);
  void parseTopFunBody(TopFun& tf, const std::string& name);
  std::string uniqueSymbol(const std::string& name);
  // Makes function funIdx the global symbol `symbol`.
  void exportAs(int funIdx, const std::string& symbol);

  const SourceFile& file_;
  DiagEngine& diag_;
  const RetHints& hints_;
  // By function index: the type of the first return that had no common type
  // with the returns before it. In a recursive function whose recursive
  // return comes first, the earlier type was only assumed, and this one is
  // what the next round should assume (assumptionsHeld).
  std::unordered_map<int, SType> retConflict_;
  Unit& u_;
  ScopeTable scopes_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  FunCtx* fn_ = nullptr;
  int depth_ = 0;
  std::unordered_map<std::string, TopFun> topFuns_;
  std::unordered_map<std::string, int> externs_;
  std::unordered_map<int, int> externThunks_;  // extern index -> thunk index
  std::unordered_map<std::string, int> symbolsUsed_;
  std::unordered_map<std::string, int> stringIndex_;  // constant string -> Graph::strings index
  std::vector<SType> funTypes_;     // static type of each function of u_.funs
  std::unordered_map<size_t, std::string> topFunAt_;  // '{' token index -> top function name
  // Top-level `val NAME = e;` (not functions), by name: a struct constant
  // may use one declared later in the file (see laterTopConstant).
  struct TopVal {
    size_t initTok;
    const Type* value = nullptr;  // once evaluated
    SType type;
  };
  std::unordered_map<std::string, TopVal> topVals_;
  // The constants being evaluated, innermost last ("C.k", "base"): a cycle
  // among them is reported with its path.
  std::vector<std::string> constStack_;
  // Set while a constant's initializer is parsed: it is evaluated where it is
  // first needed, but its names are those of the file level (and of its
  // struct, for a per-type constant).
  struct ConstInit {
    bool active = false;
    StructInfo* strct = nullptr;
  };
  ConstInit constInit_;
  bool laterTopConstant(const Token& name, Val* out);
  std::string constCycle(const std::string& name) const;
  FunCtx* mainCtx_ = nullptr;
  int mainFun_ = -1;            // the script body's function
  // Top-level `var f = { ... };`: a library exports them like `val`s.
  std::vector<std::pair<std::string, int>> topVarFuns_;
  int valMainFun_ = -1;         // a `val main = {...}` function
  SrcPos valMainPos_;
  bool topLevel_ = false;       // parsing statements of the script body
  bool topLevelCode_ = false;   // the top level has statements besides declarations
  static constexpr int kMaxDepth = 3000;  // statements + expressions; the driver's stack is 1 GiB
};

}  // namespace simplec
