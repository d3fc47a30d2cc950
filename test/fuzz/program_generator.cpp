// The statement half of the program generator: features (swarm testing),
// program layout, functions, declarations, assignments, prints, ifs and
// jumps. Loops are in loop_generator.cpp, arrays in array_generator.cpp,
// structs and references in struct_generator.cpp.
// Invariant: every loop has a trip bound fixed before its body runs (its
// control variables are never assignable in the body), and the cost of each
// statement is charged at the current loop multiplier before it is emitted.
#include <algorithm>

#include "test/fuzz/generator_state.h"

namespace simplec::fuzz {

namespace {

struct FeatureSpec {
  Feature f;
  const char* name;
  int percent;  // chance of being on in a program (swarm testing)
};

const FeatureSpec kFeatures[] = {
    {Feature::Arrays, "arrays", 70},     {Feature::ArrayArgs, "arrayargs", 50}, {Feature::SelfIndex, "selfindex", 40},
    {Feature::Structs, "structs", 50},   {Feature::Nullable, "nullable", 50},   {Feature::Methods, "methods", 35},
    {Feature::Floats, "floats", 50},     {Feature::Narrow, "narrow", 50},       {Feature::LongFuncs, "longfuncs", 35},
    {Feature::Recursion, "recursion", 60}, {Feature::FnRefs, "fnrefs", 60},     {Feature::DivZero, "divzero", 30},
    {Feature::Strings, "strings", 30},
};
static_assert(sizeof kFeatures / sizeof kFeatures[0] == size_t(Feature::Count), "one entry per feature");

// The features a feature needs: off when one of them is forced off, else
// they are turned on with it.
const std::pair<Feature, Feature> kNeeds[] = {
    {Feature::ArrayArgs, Feature::Arrays}, {Feature::SelfIndex, Feature::Arrays},
    {Feature::Nullable, Feature::Structs}, {Feature::Methods, Feature::Structs},
};

constexpr uint64_t kBaseBudget = 20000;  // a default-size program's cost budget

}  // namespace

const char* featureName(Feature f) {
  for (const auto& s : kFeatures)
    if (s.f == f) return s.name;
  return "?";
}

int featureByName(const std::string& name) {
  for (const auto& s : kFeatures)
    if (name == s.name) return int(s.f);
  return -1;
}

std::string generateProgram(uint64_t seed, const GeneratorOptions& opts) {
  Generator g(seed, opts);
  std::string body = g.program();
  return "// simplec_fuzz program, seed " + std::to_string(seed) + "\n" + g.featureLine() + body;
}

Generator::Generator(uint64_t seed, const GeneratorOptions& opts) : rng_(seed), o_(opts) {
  // A large program runs more: its functions keep the budgets of a small one's.
  if (o_.targetLines > 0) o_.costBudget += uint64_t(o_.targetLines) * 10;
}

void Generator::chooseFeatures() {
  for (const auto& s : kFeatures) {
    bool r = rng_.chance(s.percent);  // drawn whatever is forced: a seed keeps its other choices
    int forced = size_t(s.f) < o_.force.size() ? o_.force[size_t(s.f)] : 0;
    feat_[size_t(s.f)] = forced > 0 || (forced == 0 && (!o_.swarm || r));
  }
  for (auto [f, need] : kNeeds) {
    if (!on(f) || on(need)) continue;
    bool needOff = size_t(need) < o_.force.size() && o_.force[size_t(need)] < 0;
    feat_[size_t(needOff ? f : need)] = !needOff;
  }
}

std::string Generator::featureLine() const {
  std::string line = "// features:";
  for (const auto& s : kFeatures)
    if (on(s.f)) line += std::string(" ") + s.name;
  return line + "\n";
}

std::string Generator::program() {
  chooseFeatures();
  // A large program's run ends at its first runtime error: it makes them
  // only when asked to (divzero forced on).
  errorsOk_ = o_.targetLines == 0 || (size_t(Feature::DivZero) < o_.force.size() && o_.force[size_t(Feature::DivZero)] > 0);
  if (!errorsOk_) feat_[size_t(Feature::DivZero)] = false;
  zeroDivisors_ = on(Feature::DivZero);
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
  if (on(Feature::Structs)) declareStructs();
  // Helpers: function k may call functions 0..k-1, so calls form a DAG
  // (plus bounded self-recursion) and costs are known when a caller is made.
  std::vector<std::string> pieces;
  if (o_.targetLines > 0) {
    // Until the helpers fill the target, less what main and the structs take.
    long lines = std::count(constants.begin(), constants.end(), '\n') + 60;
    for (const auto& s : structs_) lines += long(s.fields.size() + s.methods.size() + s.statics.size()) + 2;
    for (size_t k = 0; lines < o_.targetLines; k++) {
      out_.clear();
      function(k);
      lines += std::count(out_.begin(), out_.end(), '\n');
      pieces.push_back(out_);
    }
  } else {
    int nFuncs = static_cast<int>(rng_.below(static_cast<uint64_t>(o_.maxFunctions) + 1));
    for (int k = 0; k < nFuncs; k++) {
      out_.clear();
      function(static_cast<size_t>(k));
      pieces.push_back(out_);
    }
  }
  bool functionForm = rng_.chance(35);
  bool hasArg = !functionForm || rng_.chance(80);
  out_.clear();
  mainBody(functionForm, hasArg);
  std::string mainText = out_;
  // Definitions in a random order: calls before definitions are allowed.
  for (size_t i = pieces.size(); i > 1; i--) std::swap(pieces[i - 1], pieces[rng_.below(i)]);
  if (functionForm) pieces.insert(pieces.begin() + static_cast<long>(rng_.below(pieces.size() + 1)), mainText);
  std::string text = constants + structDecls();
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

std::string Generator::typeText(const Var& t) const {
  switch (t.ty) {
    case Ty::Int: return t.elem.empty() ? "int" : t.elem;
    case Ty::Bool: return "bool";
    case Ty::Flt: return t.elem.empty() ? "flt" : t.elem;
    case Ty::Fn1: return "{ int -> int }";
    case Ty::Fn2: return "{ int int -> int }";
    case Ty::IntArr: return (t.elem.empty() ? "int" : t.elem) + (t.readOnly ? "[~]" : "[]");
    case Ty::FltArr: return std::string("flt") + (t.readOnly ? "[~]" : "[]");
    case Ty::Ref: return structs_[size_t(t.sid)].name + (t.nullable ? "?" : "");
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
  if (f.recursive || !f.returnsValue || f.ret.ty != Ty::Int || !f.ret.elem.empty()) return false;
  size_t n = sig == Ty::Fn1 ? 1 : sig == Ty::Fn2 ? 2 : 0;
  if (n == 0 || f.params.size() != n) return false;
  for (const Var& p : f.params)
    if (p.ty != Ty::Int || !p.elem.empty()) return false;
  return true;
}

void Generator::function(size_t order) {
  FuncInfo f;
  f.name = freshName("f");
  f.order = order;
  // A long function: 20-40 lines that call several earlier functions.
  bool longFn = on(Feature::LongFuncs) && order > 0 && rng_.chance(40);
  size_t nParams = rng_.chance(15) ? static_cast<size_t>(rng_.range(7, 10))
                                   : static_cast<size_t>(rng_.range(0, 3));
  f.recursive = on(Feature::Recursion) && !longFn && nParams > 0 && rng_.chance(25);
  f.returnsValue = f.recursive || !rng_.chance(10);
  if (f.returnsValue && !f.recursive) {
    int r = static_cast<int>(rng_.below(100));
    if (on(Feature::Floats) && r < 15) f.ret.ty = Ty::Flt;
    else if (on(Feature::ArrayArgs) && r < 30) f.ret = arrayResultType();
    else if (!structs_.empty() && r < 42) {
      f.ret.ty = Ty::Ref;
      f.ret.sid = static_cast<int>(rng_.below(structs_.size()));
    }
  }
  // Some helpers get exactly the shapes function references can hold.
  if (on(Feature::FnRefs) && !f.recursive && f.returnsValue && f.ret.ty == Ty::Int && rng_.chance(30))
    nParams = rng_.chance(50) ? 1 : 2;
  bool fnShape = on(Feature::FnRefs) && f.ret.ty == Ty::Int && nParams <= 2 && rng_.chance(50);
  for (size_t i = 0; i < nParams; i++) {
    Var t;
    if (i > 0 || !f.recursive) {
      int r = static_cast<int>(rng_.below(100));
      if (fnShape) r = 100;  // int parameters only
      if (r < 12) t.ty = Ty::Bool;
      else if (r < 20 && on(Feature::FnRefs) && hasFnCandidate(Ty::Fn1, order)) t.ty = Ty::Fn1;
      else if (r < 25 && on(Feature::FnRefs) && hasFnCandidate(Ty::Fn2, order)) t.ty = Ty::Fn2;
      else if (r < 40 && on(Feature::ArrayArgs)) t = arrayParamType();
      else if (r < 52 && !structs_.empty()) {
        t.ty = Ty::Ref;
        t.sid = static_cast<int>(rng_.below(structs_.size()));
        t.nullable = on(Feature::Nullable) && rng_.chance(30);
      } else if (r < 62 && on(Feature::Floats)) {
        t.ty = Ty::Flt;
        if (on(Feature::Narrow) && rng_.chance(25)) t.elem = "f32";
      } else if (r < 72 && on(Feature::Narrow)) {
        t.elem = rng_.pick({"i8", "u8", "i16", "u16", "i32", "u32", "byte"});
      }
    }
    f.params.push_back(t);
  }
  if (f.recursive && f.params.empty()) f.params.push_back(Var{});

  int64_t maxBudget = std::max<int64_t>(40, static_cast<int64_t>(std::min(o_.costBudget, kBaseBudget) / (f.recursive ? 4 : 12)));
  if (longFn) maxBudget *= 2;
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
  retTy_ = f.returnsValue ? f.ret : Var{};

  openScope();
  fnScope_ = scopes_.size();
  std::string header = "val " + f.name + " = {";
  std::vector<Var> refParams;
  for (size_t i = 0; i < f.params.size(); i++) {
    Var v = f.params[i];
    v.name = freshName("p");
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
    // Arrays and non-null references are never reassigned: loops run over
    // an array's indices, `p.f` names a field of the same object throughout.
    if (v.ty == Ty::IntArr || v.ty == Ty::FltArr || (v.ty == Ty::Ref && !v.nullable)) v.assignable = false;
    header += std::string(i == 0 ? " " : (rng_.chance(85) ? ", " : " ")) + typeText(v) + " " + v.name;
    declare(v);
    if (v.ty == Ty::Ref && !v.nullable) refParams.push_back(v);
  }
  for (const Var& v : refParams) declareFields(v);
  header += " ->";
  line(header);
  indent_++;
  if (f.recursive) {
    int saved = ctx_.selfCallsLeft;
    ctx_.selfCallsLeft = 0;
    charge(1);
    std::string test = rng_.chance(50) ? ctx_.depthParam + " <= 0" : ctx_.depthParam + " < 1";
    if (rng_.chance(50)) {
      line("if (" + test + ") " + returnText());
    } else {
      line("if (" + test + ") {");
      indent_++;
      openScope();
      block(2, 3);
      line(returnText());
      closeScope();
      indent_--;
      line("}");
    }
    ctx_.selfCallsLeft = saved;
  }
  bool ended = false;
  std::vector<std::string> results;  // a long function's call results
  if (longFn) {
    // Calls of several distinct earlier functions spread over the body.
    std::vector<size_t> callees;
    for (size_t k = 0; k < funcs_.size(); k++)
      if (funcs_[k].returnsValue && funcs_[k].ret.ty == Ty::Int) callees.push_back(k);
    for (size_t i = callees.size(); i > 1; i--) std::swap(callees[i - 1], callees[rng_.below(i)]);
    if (callees.size() > 4) callees.resize(size_t(rng_.range(2, 4)));
    int n = static_cast<int>(rng_.range(12, 26));
    for (int k = 0; k < n && !ended; k++) {
      if (!canAfford(2)) break;
      bool callNow = !callees.empty() && rng_.below(static_cast<uint64_t>(n - k)) < callees.size();
      const FuncInfo& g = funcs_[callees.empty() ? 0 : callees.back()];
      if (callNow && canAfford(g.cost + 1)) {
        callees.pop_back();
        charge(g.cost + 1);
        markCalled(g.name);
        Var t;
        t.name = freshName("t");
        std::string call = g.name + "(" + argsFor(g, 2) + ")";
        static const char* const kOps[] = {" + ", " ^ ", " - ", " & "};
        line("int " + t.name + " = " + (rng_.chance(50) ? call : "(" + call + kOps[rng_.below(4)] + intExpr(2) + ")") + ";");
        declare(t);
        results.push_back(t.name);
        continue;
      }
      if (callNow) callees.pop_back();
      ended = statement(0);
    }
  } else {
    int n = 1 + static_cast<int>(rng_.below(static_cast<uint64_t>(o_.maxBlockStatements)));
    ended = block(n, 0);
  }
  if (f.returnsValue) {
    if (!ended) {
      if (results.size() >= 2 && retTy_.ty == Ty::Int) {
        std::string sum = results[0];
        for (size_t k = 1; k < results.size(); k++) sum = "(" + sum + (rng_.chance(50) ? " ^ " : " + ") + results[k] + ")";
        line("return " + sum + " + " + intExpr(2) + ";");
      } else {
        line(returnText());
      }
    }
  } else {
    line("sys.io.p(" + expr(Ty::Int, 2) + ");");
  }
  closeScope();
  indent_--;
  line("};");
  f.cost = std::max<uint64_t>(ctx_.cost, 1) * invocations;
  funcs_.push_back(f);
}

std::string Generator::returnText() {
  switch (retTy_.ty) {
    case Ty::Flt: return "return " + floatExpr(3) + ";";
    case Ty::IntArr:
    case Ty::FltArr: return "return " + arrayValue(retTy_, 2) + ";";
    case Ty::Ref: return "return " + refValue(retTy_, 2) + ";";
    default: return "return " + intTypedExpr(3) + ";";
  }
}

void Generator::mainBody(bool functionForm, bool hasArg) {
  ctx_ = FnCtx{};
  ctx_.order = funcs_.size();
  ctx_.isMain = true;
  ctx_.budget = o_.costBudget;
  retTy_ = Var{};
  if (functionForm) {
    line(hasArg ? "val main = { int arg ->" : "val main = { ->");
    indent_++;
  }
  openScope();
  fnScope_ = scopes_.size();
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
      if (!f.returnsValue) line(call + ";");
      else if (f.ret.ty == Ty::Int || f.ret.ty == Ty::Flt) line("sys.io.p(" + call + "); sys.io.p(\" \");");
      else if (f.ret.ty == Ty::Ref) line(call + ";");
      else line("sys.io.p(" + call + "#); sys.io.p(\" \");");
    }
    // Print what main computed so that a wrong value shows in the output.
    std::string prints;
    for (const Var& v : scopes_.back())
      if (v.ty == Ty::Int || v.ty == Ty::Bool || v.ty == Ty::Flt) prints += "sys.io.p(" + v.name + "); sys.io.p(\" \"); ";
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
  // A large program's main never does: its helpers would not run.
  int jumpWeight = ctx_.loopDepth > 0 ? 5 : ctx_.procedure ? 0 : ctx_.isMain ? (depth > 0 && o_.targetLines == 0 ? 1 : 0) : 4;
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
      on(Feature::SelfIndex) ? 6 : 0,  // a store through an index loaded from the same array
      on(Feature::Nullable) ? 6 : 0,   // a null check
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
    case 8: guardedDivisionStatement(); return false;
    case 9: {
      charge(1);
      std::string t = selfIndexedText();
      line(t.empty() ? assignmentText() : t);
      return false;
    }
    default: return nullCheckStatement(depth);
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
  // Pure: a side effect on the divisor's variable would void the guard.
  pureDepth_++;
  std::string a = intExpr(2);
  pureDepth_--;
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
  bool haveFn1 = hasFnCandidate(Ty::Fn1, ctx_.order), haveFn2 = hasFnCandidate(Ty::Fn2, ctx_.order);
  bool fnRefs = on(Feature::FnRefs) && (haveFn1 || haveFn2);
  std::vector<int> w = {30, 14, 9, 9, 7, 16, 3, scopes_.size() > 3 ? 5 : 0, fnRefs ? 7 : 0,
                        on(Feature::Narrow) ? 10 : 0, on(Feature::Arrays) ? 14 : 0,
                        on(Feature::Structs) ? 14 : 0, on(Feature::Floats) ? 12 : 0};
  size_t kind = rng_.weighted(w);
  if (kind == 10) return arrayDeclaration();
  if (kind == 11) return refDeclaration();
  charge(1);
  Var v;
  switch (kind) {
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
      v.elem = rng_.pick({"i8", "u8", "i16", "u16", "i32", "u32", "byte", "u1"});
      line(v.elem + " " + v.name + " = " + init + ";");
      break;
    }
    case 7: {  // shadow an int of an enclosing block
      std::vector<const Var*> outer;
      for (size_t s = 1; s + 1 < scopes_.size(); s++)
        for (const Var& o : scopes_[s])
          // Never a fixed variable: a shadowed recursion depth or loop limit
          // would no longer bound the recursion or the loop.
          if (o.ty == Ty::Int && o.elem.empty() && !o.counter && o.assignable && !o.isField && o.name != "arg")
            outer.push_back(&o);
      bool inCurrent = false;
      const Var* o = outer.empty() ? nullptr : outer[rng_.below(outer.size())];
      if (o)
        for (const Var& c : scopes_.back()) inCurrent |= c.name == o->name;
      std::string init = expr(Ty::Int, 3);
      v.name = o && !inCurrent ? o->name : freshName("v");
      line("int " + v.name + " = " + init + ";");
      break;
    }
    case 12: {  // a float; sometimes an f32, rounded on every store
      v.ty = Ty::Flt;
      v.name = freshName("w");
      std::string init = rng_.chance(80) ? floatExpr(3) : intExpr(2);  // an int widens
      if (on(Feature::Narrow) && rng_.chance(25)) {
        v.elem = "f32";
        line("f32 " + v.name + " = " + init + ";");
      } else if (rng_.chance(25) && init.find('.') != std::string::npos) {
        line("var " + v.name + " = flt(" + init + ");");
      } else {
        line("flt " + v.name + " = " + init + ";");
      }
      break;
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
      if (form == 0) line(typeText(v) + " " + v.name + " = " + init + ";");
      else line((form == 1 ? "val " : "var ") + v.name + " = " + init + ";");
      break;
    }
  }
  declare(v);
}

void Generator::printStatement() {
  charge(1);
  std::string e = on(Feature::Floats) && rng_.chance(20) ? floatExpr(3)
                                                          : expr(rng_.chance(85) ? Ty::Int : Ty::Bool, o_.maxExprDepth);
  switch (rng_.below(3)) {
    case 0: line("sys.io.p(" + e + "); sys.io.p(\" \");"); break;
    case 1: line("sys.io.p(" + e + "); sys.io.p(\"\\n\");"); break;
    default: line("sys.io.p(\"" + freshName("L") + "=\"); sys.io.p(" + e + "); sys.io.p(\"\\n\");"); break;
  }
}

bool Generator::ifStatement(int depth) {
  charge(1);
  if (rng_.chance(10)) return dispatchChain(depth);
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
  bool allEnd = arm("if (" + cond + ") {", n, depth);
  int elseIfs = rng_.chance(25) ? static_cast<int>(rng_.range(1, 2)) : 0;
  for (int k = 0; k < elseIfs; k++) allEnd &= arm("} else if (" + condExpr(3) + ") {", n, depth);
  if (rng_.chance(50))
    allEnd &= arm("} else {", n, depth);
  else
    allEnd = false;
  line("}");
  return allEnd;
}

// One arm of an if: its opening line, then a block of up to n statements
// in a scope of its own. Returns whether the block always ends in a jump.
bool Generator::arm(const std::string& opening, int n, int depth) {
  line(opening);
  indent_++;
  openScope();
  bool ends = block(n, depth + 1);
  closeScope();
  indent_--;
  return ends;
}

// An else-if chain testing one int value against constants, as a
// dispatch is written in a language without a switch (jump tables):
// keys around a base, with holes and now and then a repeated key.
bool Generator::dispatchChain(int depth) {
  const Var* v = pickVar([](const Var& x) { return x.ty == Ty::Int; }, true);
  std::string subject = v ? v->name : literal();
  if (v && rng_.chance(40)) subject = "(" + subject + (rng_.chance(50) ? " & 15)" : " % 11)");
  static const int64_t kBases[] = {0, 0, 1, -3, 7, 100, -2147483648LL, 2147483640LL};
  int64_t base = kBases[rng_.below(sizeof kBases / sizeof kBases[0])];
  int cases = static_cast<int>(rng_.range(4, 9));
  int n = 1 + static_cast<int>(rng_.below(static_cast<uint64_t>(std::max(1, o_.maxBlockStatements / (depth + 3)))));
  bool allEnd = true;
  for (int k = 0; k < cases; k++) {
    int64_t key = base + static_cast<int64_t>(rng_.below(static_cast<uint64_t>(cases + 3)));
    allEnd &= arm(std::string(k == 0 ? "if (" : "} else if (") + subject + " == " + constant(key) + ") {", n, depth);
  }
  if (rng_.chance(60))
    allEnd &= arm("} else {", n, depth);
  else
    allEnd = false;
  line("}");
  return allEnd;
}

bool Generator::jumpStatement(int depth) {
  charge(1);
  bool inLoop = ctx_.loopDepth > 0;
  bool canReturn = !ctx_.procedure;
  int keepLoop = ctx_.isMain ? (o_.targetLines > 0 ? 100 : 95) : 75;
  int kind = inLoop && (!canReturn || rng_.chance(keepLoop)) ? static_cast<int>(rng_.below(2)) : 2;
  std::string jump = kind == 0 ? "break;" : kind == 1 ? "continue;" : returnText();
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
  if (call.empty() && on(Feature::Methods)) call = methodCallExpr(2);
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
    std::string a = on(Feature::Floats) && rng_.chance(20) ? floatArrayAssignmentText() : arrayAssignmentText();
    if (!a.empty()) return a;
  }
  if (on(Feature::Floats) && rng_.chance(15)) {
    std::string a;
    floatAssignment(&a);
    if (!a.empty()) return a;
  }
  if (on(Feature::Structs) && rng_.chance(10)) {
    std::string a = refAssignmentText();
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

}  // namespace simplec::fuzz
