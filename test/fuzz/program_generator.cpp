// The statement half of the program generator: program layout, functions,
// declarations, assignments, prints, ifs, loops and jumps.
// Invariant: every loop has a trip bound fixed before its body runs (its
// control variables are never assignable in the body), and the cost of each
// statement is charged at the current loop multiplier before it is emitted.
#include <algorithm>

#include "test/fuzz/generator_state.h"

namespace simplec::fuzz {

std::string generateProgram(uint64_t seed, const GeneratorOptions& opts) {
  Generator g(seed, opts);
  return "// simplec_fuzz program, seed " + std::to_string(seed) + "\n" + g.program();
}

Generator::Generator(uint64_t seed, const GeneratorOptions& opts) : rng_(seed), o_(opts) {}

std::string Generator::program() {
  zeroDivisors_ = rng_.chance(30);
  scopes_.assign(1, {});
  std::string constants;
  int nConst = static_cast<int>(rng_.below(3));
  for (int k = 0; k < nConst; k++) {
    Var v;
    v.name = freshName("K");
    v.assignable = false;
    int64_t value = rng_.chance(70) ? rng_.range(-3, 40) : rng_.range(-100000, 100000);
    constants += "val " + v.name + " = " + constant(value) + ";\n";
    declare(v);
  }
  // Helpers: function k may call functions 0..k-1, so calls form a DAG
  // (plus bounded self-recursion) and costs are known when a caller is made.
  int nFuncs = static_cast<int>(rng_.below(static_cast<uint64_t>(o_.maxFunctions) + 1));
  std::vector<std::string> pieces;
  for (int k = 0; k < nFuncs; k++) {
    out_.clear();
    function(static_cast<size_t>(k));
    pieces.push_back(out_);
  }
  bool functionForm = rng_.chance(35);
  bool hasArg = !functionForm || rng_.chance(80);
  out_.clear();
  mainBody(functionForm, hasArg);
  std::string mainText = out_;
  // Definitions in a random order: calls before definitions are allowed.
  for (size_t i = pieces.size(); i > 1; i--) std::swap(pieces[i - 1], pieces[rng_.below(i)]);
  if (functionForm) pieces.insert(pieces.begin() + static_cast<long>(rng_.below(pieces.size() + 1)), mainText);
  std::string text = constants;
  if (usesStruct_) text = "struct Cell { int a; int b = 7; i16 n; Cell? next; };\n" + text;
  for (const auto& p : pieces) text += p;
  if (!functionForm) text += mainText;
  return text;
}

std::string Generator::freshName(const char* prefix) {
  // Type names (i8, u16, f32, ...) cannot be used as names.
  static const char* const kReserved[] = {"i8", "i16", "i32", "i64", "u1", "u8", "u16", "u32", "f32", "f64"};
  for (;;) {
    std::string name = prefix + std::to_string(++nextName_);
    if (std::find(std::begin(kReserved), std::end(kReserved), name) == std::end(kReserved)) return name;
  }
}

void Generator::line(const std::string& text) {
  out_.append(static_cast<size_t>(indent_) * 4, ' ');
  out_ += text;
  out_ += '\n';
}

void Generator::openScope() { scopes_.emplace_back(); }

void Generator::closeScope() {
  scopes_.pop_back();
  size_t depth = scopes_.size();
  divPool_.erase(std::remove_if(divPool_.begin(), divPool_.end(),
                                [&](const auto& e) { return e.first > depth; }),
                 divPool_.end());
}

void Generator::declare(Var v) { scopes_.back().push_back(std::move(v)); }

bool Generator::canAfford(uint64_t units) const {
  return ctx_.cost + units * ctx_.mult <= ctx_.budget;
}

void Generator::charge(uint64_t units) { ctx_.cost += units * ctx_.mult; }

uint64_t Generator::room() const {
  return ctx_.cost >= ctx_.budget ? 0 : (ctx_.budget - ctx_.cost) / ctx_.mult;
}

static const char* typeName(Ty t) {
  switch (t) {
    case Ty::Int: return "int";
    case Ty::Bool: return "bool";
    case Ty::Fn1: return "{ int -> int }";
    case Ty::Fn2: return "{ int int -> int }";
    case Ty::IntArr: return "int[]";
  }
  return "int";
}

void Generator::markCalled(const std::string& name) {
  for (auto& f : funcs_)
    if (f.name == name) f.called = true;
}

bool Generator::hasFnCandidate(Ty sig, size_t maxOrder) const {
  for (const auto& f : funcs_)
    if (f.order < maxOrder && matches(f, sig)) return true;
  return false;
}

bool Generator::matches(const FuncInfo& f, Ty sig) {
  if (f.recursive || !f.returnsValue) return false;
  if (sig == Ty::Fn1) return f.params == std::vector<Ty>{Ty::Int};
  if (sig == Ty::Fn2) return f.params == std::vector<Ty>{Ty::Int, Ty::Int};
  return false;
}

void Generator::function(size_t order) {
  FuncInfo f;
  f.name = freshName("f");
  f.order = order;
  size_t nParams = rng_.chance(15) ? static_cast<size_t>(rng_.range(7, 10))
                                   : static_cast<size_t>(rng_.range(0, 3));
  f.recursive = nParams > 0 && rng_.chance(25);
  f.returnsValue = f.recursive || !rng_.chance(10);
  // Some helpers get exactly the shapes function references can hold.
  if (!f.recursive && f.returnsValue && rng_.chance(30)) nParams = rng_.chance(50) ? 1 : 2;
  for (size_t i = 0; i < nParams; i++) {
    Ty t = Ty::Int;
    if (i > 0 || !f.recursive) {
      int r = static_cast<int>(rng_.below(100));
      if (r < 12) t = Ty::Bool;
      else if (r < 20 && hasFnCandidate(Ty::Fn1, order)) t = Ty::Fn1;
      else if (r < 25 && hasFnCandidate(Ty::Fn2, order)) t = Ty::Fn2;
    }
    f.params.push_back(t);
  }
  if (f.recursive && f.params.empty()) f.params.push_back(Ty::Int);

  int64_t maxBudget = std::max<int64_t>(40, static_cast<int64_t>(o_.costBudget / (f.recursive ? 4 : 12)));
  uint64_t budget = static_cast<uint64_t>(rng_.range(20, maxBudget));
  int selfCalls = f.recursive ? (rng_.chance(65) ? 1 : 2) : 0;
  // Invocations of one outside call: a chain of kMaxDepth+1, or a binary tree.
  uint64_t invocations = selfCalls == 0 ? 1
                         : selfCalls == 1 ? kMaxDepth + 1
                                          : (uint64_t{1} << (kMaxDepth + 1)) - 1;
  ctx_ = FnCtx{};
  ctx_.order = order;
  ctx_.recursive = f.recursive;
  ctx_.procedure = !f.returnsValue;
  ctx_.budget = std::max<uint64_t>(budget / invocations, 12);
  ctx_.selfCallsLeft = selfCalls;
  ctx_.info = f;

  openScope();
  std::string header = "val " + f.name + " = {";
  for (size_t i = 0; i < f.params.size(); i++) {
    Var v;
    v.name = freshName("p");
    v.ty = f.params[i];
    if (i == 0 && f.recursive) {
      v.assignable = false;
      v.bound = kMaxDepth;
      ctx_.depthParam = v.name;
    }
    if (v.ty == Ty::Fn1 || v.ty == Ty::Fn2) {
      v.assignable = false;
      v.fnOrder = order;
      for (const auto& g : funcs_)
        if (matches(g, v.ty)) v.fnCost = std::max(v.fnCost, g.cost);
    }
    header += std::string(i == 0 ? " " : (rng_.chance(85) ? ", " : " ")) + typeName(v.ty) + " " + v.name;
    declare(v);
  }
  header += " ->";
  line(header);
  indent_++;
  if (f.recursive) {
    int saved = ctx_.selfCallsLeft;
    ctx_.selfCallsLeft = 0;
    charge(1);
    std::string test = rng_.chance(50) ? ctx_.depthParam + " <= 0" : ctx_.depthParam + " < 1";
    if (rng_.chance(50)) {
      line("if (" + test + ") return " + intTypedExpr(2) + ";");
    } else {
      line("if (" + test + ") {");
      indent_++;
      openScope();
      block(2, 3);
      line("return " + intTypedExpr(2) + ";");
      closeScope();
      indent_--;
      line("}");
    }
    ctx_.selfCallsLeft = saved;
  }
  int n = 1 + static_cast<int>(rng_.below(static_cast<uint64_t>(o_.maxBlockStatements)));
  bool ended = block(n, 0);
  if (f.returnsValue) {
    if (!ended) line("return " + intTypedExpr(3) + ";");
  } else {
    line("sys.io.p(" + expr(Ty::Int, 2) + ");");
  }
  closeScope();
  indent_--;
  line("};");
  f.cost = std::max<uint64_t>(ctx_.cost, 1) * invocations;
  funcs_.push_back(f);
}

void Generator::mainBody(bool functionForm, bool hasArg) {
  ctx_ = FnCtx{};
  ctx_.order = funcs_.size();
  ctx_.isMain = true;
  ctx_.budget = o_.costBudget;
  if (functionForm) {
    line(hasArg ? "val main = { int arg ->" : "val main = { ->");
    indent_++;
  }
  openScope();
  if (hasArg) {
    Var a;
    a.name = "arg";
    a.assignable = functionForm;
    declare(a);
    // Values the optimizer cannot know, derived from the argument count.
    int n = static_cast<int>(rng_.range(1, 3));
    for (int k = 0; k < n; k++) {
      Var v;
      v.name = freshName("a");
      std::string init = rng_.pick({std::string("arg"), "arg * " + constant(rng_.range(-9, 9)),
                                    "arg - " + constant(rng_.range(1, 5)),
                                    "arg * " + constant(rng_.range(2, 1000)) + " + " + constant(rng_.range(-50, 50))});
      line("int " + v.name + " = " + init + ";");
      declare(v);
    }
  }
  // Keep part of the budget for calling the helpers nothing else called.
  uint64_t reserve = 0;
  for (const auto& f : funcs_) reserve += f.cost + 2;
  reserve = std::min(reserve, o_.costBudget / 2);
  ctx_.budget -= reserve;
  int n = 6 + static_cast<int>(rng_.below(static_cast<uint64_t>(o_.maxBlockStatements) * 2));
  bool ended = block(n, 0);
  ctx_.budget += reserve;
  if (!ended) {
    for (const auto& f : funcs_) {
      if (f.called || !canAfford(f.cost + 2)) continue;
      charge(f.cost + 2);
      std::string call = f.name + "(" + argsFor(f, 2) + ")";
      line(f.returnsValue ? "sys.io.p(" + call + "); sys.io.p(\" \");" : call + ";");
    }
    // Print what main computed so that a wrong value shows in the output.
    std::string prints;
    for (const Var& v : scopes_.back())
      if (v.ty == Ty::Int || v.ty == Ty::Bool) prints += "sys.io.p(" + v.name + "); sys.io.p(\" \"); ";
    if (!prints.empty()) line(prints + "sys.io.p(\"\\n\");");
    line("return " + intTypedExpr(3) + ";");
  }
  closeScope();
  if (functionForm) {
    indent_--;
    line("};");
  }
}

bool Generator::block(int n, int depth) {
  for (int k = 0; k < n; k++) {
    if (!canAfford(2)) break;
    if (statement(depth)) return true;
  }
  return false;
}

bool Generator::statement(int depth) {
  bool nest = depth < o_.maxStatementDepth;
  // Main returns early only now and then, or its final prints would rarely run.
  int jumpWeight = ctx_.loopDepth > 0 ? 5 : ctx_.procedure ? 0 : ctx_.isMain ? (depth > 0 ? 1 : 0) : 4;
  std::vector<int> w = {
      18,                        // declaration
      18,                        // assignment
      11,                        // print
      nest ? 13 : 0,             // if
      nest && room() >= 8 ? 11 : 0,  // loop
      jumpWeight,                // break / continue / return
      funcs_.empty() && !ctx_.recursive ? 0 : 6,  // call statement
      nest ? 3 : 0,              // nested block
      ctx_.loopDepth > 0 ? 5 : 2,  // division under a guard
  };
  switch (rng_.weighted(w)) {
    case 0: declaration(); return false;
    case 1: charge(1); line(assignmentText()); return false;
    case 2: printStatement(); return false;
    case 3: return ifStatement(depth);
    case 4: loopStatement(depth); return false;
    case 5: return jumpStatement(depth);
    case 6: callStatement(); return false;
    case 7: nestedBlock(depth); return false;
    default: guardedDivisionStatement(); return false;
  }
}

// A division by a value that may be zero, under a test that keeps it from
// trapping; in loops the test may never hold, so hoisting the division out
// of the loop or above the test would add a trap.
void Generator::guardedDivisionStatement() {
  charge(1);
  const Var* t = pickVar([](const Var& v) { return v.assignable && v.ty == Ty::Int; }, false);
  std::string target = t ? t->name : "";
  std::string d = zeroProneDivisor();
  std::string a = intExpr(2);
  std::string op = rng_.chance(60) ? " / " : " % ";
  std::string guard;
  const Var* c = pickVar([](const Var& v) { return v.counter && v.bound >= 0; }, false);
  switch (rng_.below(3)) {
    case 0: guard = d + " != 0"; break;
    case 1: guard = d; break;
    default:
      // A counter outside its range: the branch never runs.
      guard = c ? c->name + " == " + constant(c->bound + 1 + static_cast<int64_t>(rng_.below(5))) : d + " != 0";
      break;
  }
  std::string body = target.empty() ? "sys.io.p(" + a + op + d + ");" : target + " " + rng_.pick({"=", "+=", "^="}) + " " + a + op + d + ";";
  line("if (" + guard + ") { " + body + " }");
}

void Generator::declaration() {
  charge(1);
  bool haveFn1 = hasFnCandidate(Ty::Fn1, ctx_.order), haveFn2 = hasFnCandidate(Ty::Fn2, ctx_.order);
  std::vector<int> w = {30, 14, 9, 9, 7, 16, 3, scopes_.size() > 3 ? 5 : 0, haveFn1 || haveFn2 ? 7 : 0, 10, 8, 6};
  Var v;
  switch (rng_.weighted(w)) {
    case 0: {
      std::string init = expr(Ty::Int, o_.maxExprDepth);
      v.name = freshName("v");
      line("int " + v.name + " = " + init + ";");
      break;
    }
    case 1: {
      std::string init = rng_.chance(80) ? condExpr(3) : intExpr(2);
      v.name = freshName("b");
      v.ty = Ty::Bool;
      line("bool " + v.name + " = " + init + ";");
      break;
    }
    case 2: {
      std::string init = expr(Ty::Int, o_.maxExprDepth);
      v.name = freshName("v");
      line("var " + v.name + " = " + init + ";");
      break;
    }
    case 3: {
      std::string init = rng_.chance(50) ? literal() : expr(Ty::Int, 3);
      v.name = freshName("c");
      v.assignable = false;
      line("val " + v.name + " = " + init + ";");
      break;
    }
    case 4: {
      std::string i1 = expr(Ty::Int, 3), i2 = expr(Ty::Int, 3);
      Var v2;
      v.name = freshName("v");
      v2.name = freshName("v");
      line("int " + v.name + " = " + i1 + ", " + v2.name + " = " + i2 + ";");
      declare(v2);
      break;
    }
    case 5: {  // a constant that flows into later branches
      v.name = freshName("v");
      line("int " + v.name + " = " + literal() + ";");
      break;
    }
    case 6: {
      v.name = freshName("v");
      line("int " + v.name + ";");
      break;
    }
    case 9: {  // a narrow integer: every store to it truncates
      std::string init = expr(Ty::Int, 3);
      v.name = freshName("n");
      line(std::string(rng_.pick({"i8", "u8", "i16", "u16", "i32", "u32", "byte", "u1"})) + " " + v.name + " = " +
           init + ";");
      break;
    }
    case 7: {  // shadow an int of an enclosing block
      std::vector<const Var*> outer;
      for (size_t s = 1; s + 1 < scopes_.size(); s++)
        for (const Var& o : scopes_[s])
          // Never a fixed variable: a shadowed recursion depth or loop limit
          // would no longer bound the recursion or the loop.
          if (o.ty == Ty::Int && !o.counter && o.assignable && !o.isField && o.name != "arg") outer.push_back(&o);
      bool inCurrent = false;
      const Var* o = outer.empty() ? nullptr : outer[rng_.below(outer.size())];
      if (o)
        for (const Var& c : scopes_.back()) inCurrent |= c.name == o->name;
      std::string init = expr(Ty::Int, 3);
      v.name = o && !inCurrent ? o->name : freshName("v");
      line("int " + v.name + " = " + init + ";");
      break;
    }
    case 10: {  // an int array: a constant length, a computed one, rarely a negative one
      v.name = freshName("a");
      v.ty = Ty::IntArr;
      v.assignable = false;
      std::string len;
      if (rng_.chance(60)) len = std::to_string(rng_.range(1, 8));
      else if (rng_.chance(97)) len = "((" + intExpr(2) + ") & 7) + 1";
      else len = "((" + intExpr(2) + ") & 3) - 1";
      // `!` or `var`: an array declared with an initializer in an inner
      // block would be read-only through its name.
      line(std::string(rng_.chance(70) ? "int[] !" : "var ") + v.name + " = new int[" + len + "];");
      break;
    }
    case 11: {  // a struct object whose fields are then used like int variables
      std::string init = expr(Ty::Int, 3);
      std::string name = freshName("o");
      // `var`: a reference declared with an initializer in an inner block
      // would be read-only through its name.
      line("var " + name + " = new Cell { a = " + init + "; n = a + b; };");
      usesStruct_ = true;
      for (const char* f : {"a", "b", "n"}) {
        Var fv;
        fv.name = name + "." + f;
        fv.isField = true;
        declare(fv);
      }
      return;
    }
    default: {
      Ty sig = haveFn1 && (!haveFn2 || rng_.chance(60)) ? Ty::Fn1 : Ty::Fn2;
      uint64_t cost = 0;
      size_t order = 0;
      std::string init = fnValue(sig, ctx_.order, &cost, &order);
      v.name = freshName("h");
      v.ty = sig;
      v.assignable = false;
      v.fnCost = cost;
      v.fnOrder = order;
      int form = static_cast<int>(rng_.below(3));
      if (form == 0) line(std::string(typeName(sig)) + " " + v.name + " = " + init + ";");
      else line((form == 1 ? "val " : "var ") + v.name + " = " + init + ";");
      break;
    }
  }
  declare(v);
}

void Generator::printStatement() {
  charge(1);
  std::string e = expr(rng_.chance(85) ? Ty::Int : Ty::Bool, o_.maxExprDepth);
  switch (rng_.below(3)) {
    case 0: line("sys.io.p(" + e + "); sys.io.p(\" \");"); break;
    case 1: line("sys.io.p(" + e + "); sys.io.p(\"\\n\");"); break;
    default: line("sys.io.p(\"" + freshName("L") + "=\"); sys.io.p(" + e + "); sys.io.p(\"\\n\");"); break;
  }
}

bool Generator::ifStatement(int depth) {
  charge(1);
  std::string cond = condExpr(3);
  if (rng_.chance(15)) {  // an unbraced arm (never a declaration)
    std::string arm = assignmentText();
    if (rng_.chance(40)) {
      line("if (" + cond + ") " + arm);
      line("else " + assignmentText());
    } else {
      line("if (" + cond + ") " + arm);
    }
    return false;
  }
  int n = 1 + static_cast<int>(rng_.below(static_cast<uint64_t>(std::max(1, o_.maxBlockStatements / (depth + 2)))));
  line("if (" + cond + ") {");
  indent_++;
  openScope();
  bool allEnd = block(n, depth + 1);
  closeScope();
  indent_--;
  int elseIfs = rng_.chance(25) ? static_cast<int>(rng_.range(1, 2)) : 0;
  for (int k = 0; k < elseIfs; k++) {
    line("} else if (" + condExpr(3) + ") {");
    indent_++;
    openScope();
    allEnd &= block(n, depth + 1);
    closeScope();
    indent_--;
  }
  if (rng_.chance(50)) {
    line("} else {");
    indent_++;
    openScope();
    allEnd &= block(n, depth + 1);
    closeScope();
    indent_--;
  } else {
    allEnd = false;
  }
  line("}");
  return allEnd;
}

bool Generator::jumpStatement(int depth) {
  charge(1);
  bool inLoop = ctx_.loopDepth > 0;
  bool canReturn = !ctx_.procedure;
  int keepLoop = ctx_.isMain ? 95 : 75;
  int kind = inLoop && (!canReturn || rng_.chance(keepLoop)) ? static_cast<int>(rng_.below(2)) : 2;
  std::string jump = kind == 0 ? "break;" : kind == 1 ? "continue;" : "return " + intTypedExpr(2) + ";";
  // Unconditional only inside a nested block, so that loops and main keep a body.
  if (depth > 0 && rng_.chance(kind == 2 ? 10 : 20)) {
    line(jump);
    return true;
  }
  line("if (" + condExpr(3) + ") " + jump);
  return false;
}

void Generator::callStatement() {
  charge(1);
  // Procedures are only callable as statements; any other call may be one too.
  std::vector<const FuncInfo*> procs;
  for (const auto& f : funcs_)
    if (!f.returnsValue && canAfford(f.cost)) procs.push_back(&f);
  if (!procs.empty() && rng_.chance(60)) {
    const FuncInfo& f = *procs[rng_.below(procs.size())];
    charge(f.cost);
    markCalled(f.name);
    line(f.name + "(" + argsFor(f, 2) + ");");
    return;
  }
  std::string call = callExpr(2);
  if (call.empty()) call = sideEffectExpr(2);
  if (call.empty()) {
    line(assignmentText());
    return;
  }
  line(call + ";");
}

void Generator::nestedBlock(int depth) {
  line("{");
  indent_++;
  openScope();
  int n = 1 + static_cast<int>(rng_.below(4));
  block(n, depth + 1);
  closeScope();
  indent_--;
  line("}");
}

std::string Generator::assignmentText() {
  if (rng_.chance(25)) {
    std::string a = arrayAssignmentText();
    if (!a.empty()) return a;
  }
  const Var* t = pickVar([](const Var& v) { return v.assignable && (v.ty == Ty::Int || v.ty == Ty::Bool); }, false);
  if (!t) return "sys.io.p(" + intExpr(2) + ");";
  if (t->ty == Ty::Bool) {
    static const char* const kOps[] = {"=", "=", "&=", "|=", "^="};
    std::string op = kOps[rng_.below(5)];
    return t->name + " " + op + " " + (op == "=" ? condExpr(3) : expr(Ty::Int, 2)) + ";";
  }
  std::string name = t->name;
  switch (rng_.weighted({30, 35, 12, 5})) {
    case 0: return name + " = " + expr(Ty::Int, o_.maxExprDepth) + ";";
    case 1: {
      static const char* const kOps[] = {"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", ">>>="};
      std::string op = kOps[rng_.below(11)];
      std::string rhs = op == "/=" || op == "%=" ? divisor(2) : expr(Ty::Int, 3);
      return name + " " + op + " " + rhs + ";";
    }
    case 2: {
      static const char* const kForms[] = {"++", "--"};
      std::string op = kForms[rng_.below(2)];
      return rng_.chance(50) ? name + op + ";" : op + name + ";";
    }
    default: {  // chained assignment
      const Var* u = pickVar([](const Var& v) { return v.assignable && v.ty == Ty::Int; }, false);
      return name + " = " + u->name + " = " + expr(Ty::Int, 3) + ";";
    }
  }
}

std::string Generator::arrayAssignmentText() {
  const Var* a = pickVar([](const Var& v) { return v.ty == Ty::IntArr; }, false);
  if (!a) return "";
  std::string target = a->name + "[" + arrayIndex(a->name) + "]";
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

}  // namespace simplec::fuzz
