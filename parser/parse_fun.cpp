// Functions: literals, returns, calls, top-level functions usable before
// their definition, and the sys library calls of this subset.
//   funlit = '{' {type ['!'] name [',']} '->' statement* '}'
//   call   = postfix '(' [expr {',' expr}] ')'
#include "parser/parser_impl.h"

namespace simplec {

std::string Parser::uniqueSymbol(const std::string& name) {
  int& n = symbolsUsed_[name];
  std::string s = n == 0 ? name : name + "." + std::to_string(n);
  n++;
  return s;
}

int Parser::newFunction(std::string name, SrcPos pos) {
  int idx = int(u_.funs.size());
  FunInfo f;
  f.name = name;
  f.symbol = uniqueSymbol(name);
  f.pos = pos;
  u_.funs.push_back(std::move(f));
  funTypes_.push_back(SType::error());
  Graph& g = u_.newGraph(idx);
  // Nodes the parser holds in locals may lose their last use for a while:
  // kills wait for the sweep at the end of the parse.
  g.deferKills = true;
  Node* fun = g.make(Op::Fun, {g.start()}, Type::ctrl(), idx);
  fun->name = name;
  fun->pos = pos;
  Node* mem = g.make(Op::Parm, {fun}, Type::mem(), -1);
  mem->pos = pos;
  u_.funs[size_t(idx)].fun = fun;
  return idx;
}

void Parser::enterGraph(FunCtx& ctx, int funIdx) {
  ctx.funIdx = funIdx;
  ctx.graph = u_.graph(funIdx);
  ctx.peep = std::make_unique<Peephole>(*ctx.graph);
}

FunInfo Parser::claimExternSymbol(const std::string& symbol) {
  // A local function that took this name first gives it up: in one object
  // file a name is one symbol.
  if (symbolsUsed_[symbol] > 0)
    for (FunInfo& f : u_.funs)
      if (!f.isExtern && f.symbol == symbol) f.symbol = uniqueSymbol(symbol);
  symbolsUsed_[symbol]++;
  FunInfo f;
  f.name = f.symbol = symbol;
  f.isExtern = true;
  return f;
}

void Parser::exportAs(int funIdx, const std::string& symbol) {
  FunInfo& target = u_.funs[size_t(funIdx)];
  target.isGlobal = true;
  if (target.symbol == symbol) return;
  // An inner function that took the name first gives it up (as for externs).
  if (symbolsUsed_[symbol] > 0)
    for (FunInfo& f : u_.funs)
      if (!f.isExtern && f.symbol == symbol) f.symbol = uniqueSymbol(symbol);
  symbolsUsed_[symbol]++;
  target.symbol = symbol;
  target.name = symbol;
}

int Parser::declareExtern(const std::string& symbol, std::vector<SType> params, SType ret) {
  auto it = externs_.find(symbol);
  if (it != externs_.end()) return it->second;
  int idx = int(u_.funs.size());
  FunInfo f = claimExternSymbol(symbol);
  for (auto& p : params) {
    f.paramTypes.push_back(p.lattice());
    f.f32Params.push_back(p.isFloat() && p.bits == 32);
  }
  f.retType = ret.hasValue() ? ret.lattice() : nullptr;
  f.f32Result = ret.isFloat() && ret.bits == 32;
  u_.funs.push_back(std::move(f));
  funTypes_.push_back(SType::fun(std::move(params), ret));
  externs_[symbol] = idx;
  return idx;
}

void Parser::addReturn(Val v, SrcPos pos) {
  FunCtx& f = *fn_;
  if (!v.n) v = {con(0), SType::voidT()};
  // A return no path reaches (after another return, a break or continue in
  // the same block) does not shape the result type: it is never taken.
  if (deadCode()) return;
  if (f.retTypeKnown) {
    // A reference and null (or a read-only and a writable array) have a
    // common type too.
    bool ok = (f.retType.isNumeric() && v.t.isNumeric()) || sameType(f.retType, v.t) ||
              f.retType.isError() || v.t.isError() ||
              (f.retType.isRef() && v.t.isRef() && !commonType(f.retType, v.t).isError());
    if (!ok) {
      retConflict_.emplace(f.funIdx, v.t);
      error(pos, "return type mismatch: '" + v.t.str() + "' here, '" + f.retType.str() + "' before");
      note(f.retPos, "'" + f.retType.str() + "' comes from this return");
    } else {
      SType t = commonType(f.retType, v.t);
      if (!sameType(t, f.retType)) f.retPos = pos;
      f.retType = t;
    }
  } else {
    f.retType = v.t;
    f.retTypeKnown = true;
    f.retPos = pos;
  }
  addReturnPath(ctrl(), scope()->allMem(), v.n);
  setCtrl(deadCtrl());
}

void Parser::addReturnPath(Node* c, Node* m, Node* v) {
  if (!fn_->returns) {
    fn_->returns = mk(Op::Scope, {}, Type::bottom(), -1);
    fn_->returns->keep = 1;
  }
  G().addDef(fn_->returns, c);
  G().addDef(fn_->returns, m);
  G().addDef(fn_->returns, v);
}

void Parser::finishFunction(FunCtx& ctx, SrcPos endPos, bool isEntryScript) {
  FunCtx* saved = fn_;
  fn_ = &ctx;
  if (!deadCode() && !isEntryScript) {
    // Falling off the end returns the last expression's value.
    if (ctx.lastWasExpr && ctx.lastExpr.n && ctx.lastExpr.t.hasValue())
      addReturn(ctx.lastExpr, endPos);
    else if (!ctx.retTypeKnown || !ctx.retType.hasValue())
      addReturn({nullptr, SType::voidT()}, endPos);
    else
      error(endPos, "missing 'return' at the end of the function");
  }
  struct RetPath {
    Node *ctrl, *mem, *val;
  };
  std::vector<RetPath> live;
  for (size_t i = 0; i < ctx.numReturns(); i++) {
    Node* rc = ctx.returns->in[3 * i];
    if (rc->type->kind() != TKind::XCtrl) live.push_back({rc, ctx.returns->in[3 * i + 1], ctx.returns->in[3 * i + 2]});
  }
  // Every value as the result type stores it: integers widen where the
  // result is a float (the exit of an endless loop returns an integer 0),
  // and an f32 result is rounded.
  if (ctx.retType.isFloat())
    for (RetPath& r : live) r.val = storeAs({r.val, r.val->type->isInt() ? SType::intT() : SType::floatT(64)}, ctx.retType).n;
  Node *c, *m, *v;
  if (live.size() == 1) {
    c = live[0].ctrl;
    m = live[0].mem;
    v = live[0].val;
  } else if (live.empty()) {
    // Never returns (e.g. an endless loop): keep the function well-formed.
    c = deadCtrl();
    m = ctx.numReturns() == 0 ? scope()->allMem() : ctx.returns->in[1];
    v = zeroOf(ctx.retType).n;
  } else {
    std::vector<Node*> cs{nullptr}, ms{nullptr}, vs{nullptr};
    for (auto& r : live) {
      cs.push_back(r.ctrl);
      ms.push_back(r.mem);
      vs.push_back(r.val);
    }
    Node* r = mk(Op::Region, cs, Type::ctrl());
    r->keep++;
    ms[0] = vs[0] = r;
    m = mk(Op::Phi, ms, Type::mem());
    m->keep++;
    v = mk(Op::Phi, vs, ctx.retType.hasValue() ? ctx.retType.lattice() : Type::intBot());
    v->keep++;
    Node* m2 = peep(m);
    Node* v2 = peep(v);
    m->keep--;
    v->keep--;
    if (m2 != m) G().killIfUnused(m);
    if (v2 != v) G().killIfUnused(v);
    m = m2;
    v = v2;
    m->keep++;
    v->keep++;
    r->keep--;
    c = peep(r);
    m->keep--;
    v->keep--;
  }
  FunInfo& info = u_.funs[size_t(ctx.funIdx)];
  Node* ret = mk(Op::Return, {c, m, v}, Type::ctrl());
  ret->type = Type::ctrl();
  info.ret = ret;
  info.retType = ctx.retType.hasValue() ? ctx.retType.lattice() : nullptr;
  info.retPos = ctx.retPos;
  info.f32Result = ctx.retType.isFloat() && ctx.retType.bits == 32;
  G().addDef(G().stop(), ret);
  scopes_.kill(ctx.scope);
  if (ctx.returns) {
    ctx.returns->keep = 0;
    while (!ctx.returns->in.empty()) G().delDef(ctx.returns, ctx.returns->in.size() - 1);
  }
  fn_ = saved;
}

Val Parser::parseFunLiteral(const std::string& name, const StructInfo* selfStruct) {
  SrcPos startPos = tok().pos();
  size_t open = pos_;
  expect(Tok::LBrace);
  struct Param {
    SType t;
    Token name;
  };
  std::vector<Param> params;
  try {
    while (!at(Tok::Arrow)) {
      if (at(Tok::Eof)) syntaxError(tok().pos(), "expected '->'");
      // `{ x -> ... }`: a name without a type, not a type without a name.
      size_t end = 0;
      if (at(Tok::Ident) && !structNameAt(pos_, &end) && (peekTok().kind == Tok::Arrow || peekTok().kind == Tok::Comma))
        syntaxError(tok().pos(), "expected a type");
      SType t = parseType();
      accept(Tok::Bang);  // `int[] !a`: parameters are mutable anyway
      if (at(Tok::TypeName)) syntaxError(tok().pos(), "'" + tok().text + "' cannot be used as a name");
      if (!at(Tok::Ident)) syntaxError(tok().pos(), "expected a parameter name");
      params.push_back({t, tok()});
      pos_++;
      accept(Tok::Comma);
    }
    expect(Tok::Arrow);
  } catch (SyntaxError&) {
    // A broken header: skip the whole literal.
    skipPastBrace(open);
    return {con(0), SType::error()};
  }
  int idx = newFunction(name, startPos);
  FunInfo& info = u_.funs[size_t(idx)];
  std::vector<SType> ptypes;
  if (selfStruct) {
    // A method: the hidden first parameter `self`.
    ptypes.push_back(SType::structT(selfStruct));
    info.paramTypes.push_back(ptypes.back().lattice());
  }
  for (auto& p : params) {
    ptypes.push_back(p.t);
    info.paramTypes.push_back(p.t.lattice());
    info.f32Params.push_back(p.t.isFloat() && p.t.bits == 32);
  }
  if (selfStruct && parsingMethod_) {
    parsingMethod_->funIdx = idx;
    parsingMethod_->methodParams = ptypes;
    parsingMethod_ = nullptr;
  }
  auto top = topFuns_.find(name);
  bool isTop = top != topFuns_.end() && top->second.parsing && top->second.funIdx < 0;
  if (isTop) {
    top->second.funIdx = idx;
    top->second.type = SType::fun(ptypes, SType::intT());
  }
  funTypes_[size_t(idx)] = SType::fun(ptypes, SType::intT());

  FunCtx ctx;
  enterGraph(ctx, idx);
  // A method is lexically at file level (inside its struct), wherever it is
  // first used: it must not see the locals of the function that used it.
  ctx.outer = isTop || selfStruct ? mainCtx_ : fn_;
  Node* fun = info.fun;
  Node* mem = nullptr;
  for (Node* u : fun->out)
    if (u->op == Op::Parm && u->aux < 0) mem = u;
  ctx.scope = scopes_.fresh(*ctx.graph, *ctx.peep, ctx.symbols, fun, mem);
  ctx.selfStruct = selfStruct;
  // From here on nodes go into the new function's graph.
  FunCtx* savedFn = fn_;
  bool savedTop = topLevel_;
  fn_ = &ctx;
  topLevel_ = false;
  // A function literal in a constant's initializer has names of its own.
  ConstInit savedConstInit = constInit_;
  constInit_ = {};
  try {
    size_t firstParam = 0;
    if (selfStruct) {
      Node* parm = mk(Op::Parm, {fun}, ptypes[0].lattice(), 0);
      int selfIdx = ctx.scope->define({"self", ptypes[0], true, nullptr, startPos}, parm);
      debugDeclare(selfIdx, parm, 1);
      // Inside a method, fields may be named without `self.`.
      for (size_t i = 0; i < selfStruct->fields.size(); i++) {
        const FieldInfo& f = selfStruct->fields[i];
        if (f.isConst()) continue;
        VarInfo alias{f.name, f.type, false, nullptr, f.pos};
        alias.field = int(i);
        alias.selfVar = selfIdx;
        alias.kind = VarKind::Field;
        ctx.scope->define(alias, con(0));
      }
      ctx.symbols.pushBlock();  // parameters may shadow field names
      ctx.bodyDepth = 2;
      firstParam = 1;
    }
    for (size_t i = 0; i < params.size(); i++) {
      // A narrow parameter is truncated again on entry: a C caller leaves the
      // upper bits of the register undefined.
      Node* parm = mk(Op::Parm, {fun}, params[i].t.isNarrow() ? Type::intBot() : params[i].t.lattice(),
                      int64_t(i + firstParam));
      Node* value = params[i].t.isNarrow() ? narrowTo({parm, SType::intT()}, params[i].t).n : parm;
      VarInfo pinfo{params[i].name.text, params[i].t, false, nullptr, params[i].name.pos()};
      pinfo.maybeNull = params[i].t.isNullTracked() && params[i].t.nullable;
      pinfo.kind = VarKind::Param;
      int idx = ctx.scope->define(pinfo, value);
      if (idx < 0) error(params[i].name.pos(), "redefinition of '" + params[i].name.text + "'");
      debugDeclare(idx, value, int(i + firstParam + 1), parm);
    }
    StatementSeq seq;
    while (!at(Tok::RBrace) && !at(Tok::Eof)) parseStatementIn(seq);
    SrcPos endPos = tok().pos();
    expect(Tok::RBrace, open);
    warnUnused(0);
    finishFunction(ctx, endPos, false);
  } catch (...) {
    fn_ = savedFn;
    topLevel_ = savedTop;
    constInit_ = savedConstInit;
    throw;
  }
  fn_ = savedFn;
  topLevel_ = savedTop;
  constInit_ = savedConstInit;
  lastMethodUsedSelf_ = ctx.usedSelf;
  lastMethodWroteSelf_ = ctx.wroteSelf;
  SType ret = ctx.retTypeKnown ? ctx.retType : SType::voidT();
  SType type = SType::fun(ptypes, ret);
  funTypes_[size_t(idx)] = type;
  if (isTop) top->second.type = type;
  // The body is complete: collect its garbage now rather than at the end of
  // the file, so that the next functions reuse the storage (NodePool) and
  // the parse's peak memory follows the live nodes, not all nodes made.
  ctx.peep.reset();
  if (!diag_.hasErrors()) finishGraph(*ctx.graph);
  return {conOf(Type::funPtr(idx)), type};
}

void Parser::preDeclareTopFunctions() {
  // `val NAME = {` at brace depth 0 declares a function usable anywhere.
  int depth = 0;
  for (size_t i = 0; i + 3 < toks_.size(); i++) {
    Tok k = toks_[i].kind;
    if (k == Tok::Eof) depth = 0;  // the program's end; the sys library follows
    if (k == Tok::LBrace) depth++;
    if (k == Tok::RBrace) depth--;
    if (depth == 0 && k == Tok::KwVal && toks_[i + 1].kind == Tok::Ident && toks_[i + 2].kind == Tok::Assign &&
        toks_[i + 3].kind != Tok::LBrace)
      topVals_.insert({toks_[i + 1].text, TopVal{i + 3, nullptr, SType::error()}});
    if (depth == 0 && k == Tok::KwVal && toks_[i + 1].kind == Tok::Ident &&
        toks_[i + 2].kind == Tok::Assign && toks_[i + 3].kind == Tok::LBrace && !isFunTypeAt(i + 3)) {
      const std::string& name = toks_[i + 1].text;
      if (topFuns_.count(name)) continue;  // reported as a redefinition when parsed
      TopFun tf;
      tf.litPos = i + 3;
      topFuns_[name] = tf;
      topFunAt_[i + 3] = name;
    }
  }
}

void Parser::parseTopFunBody(TopFun& tf, const std::string& name) {
  size_t savedPos = pos_;
  tf.parsing = tf.attempted = true;
  pos_ = tf.litPos;
  int errorsBefore = diag_.errorCount();
  try {
    parseFunLiteral(name);
  } catch (SyntaxError&) {
    skipPastBrace(tf.litPos);
  }
  tf.bodyErrors = diag_.errorCount() - errorsBefore;
  tf.parsing = false;
  tf.endPos = pos_;
  pos_ = savedPos;
}

Val Parser::topFunValue(const std::string& name, SrcPos pos) {
  TopFun& tf = topFuns_[name];
  // A body that failed to parse is not parsed again at every use (uses in
  // other failing bodies would multiply).
  if (tf.funIdx < 0 && !tf.attempted) parseTopFunBody(tf, name);
  if (tf.funIdx < 0) return {con(0), SType::error()};
  Node* c = conOf(Type::funPtr(tf.funIdx));
  if (tf.parsing) {
    // A recursive use before the result type is known: take what an earlier
    // parse learnt, else what the returns so far say, else optimistically
    // bool (the narrowest); parseFile() checks the assumption afterwards.
    FunCtx* f = fn_;
    while (f && f->funIdx != tf.funIdx) f = f->outer;
    SType ret = SType::boolT();
    auto hint = hints_.find(name);
    if (hint != hints_.end()) ret = remapStructs(hint->second);
    else if (f && f->retTypeKnown) ret = f->retType;
    else tf.retDefaulted = true;
    if (tf.retAssumed && !sameType(tf.assumedRet, ret)) tf.assumptionsDiffer = true;
    tf.assumedRet = ret;
    tf.retAssumed = true;
    return {c, SType::fun(tf.type.sig->params, ret)};
  }
  return {c, funTypes_[size_t(tf.funIdx)]};
}

bool Parser::callsExtern(const Node* fptr) const {
  if (!fptr->isConst() || fptr->type->kind() != TKind::FunPtr || fptr->type->fun() < 0) return false;
  const FunInfo& f = u_.funs[size_t(fptr->type->fun())];
  // __errno_location (the address of errno) writes nothing: no flush.
  return f.isExtern && !f.isData && f.symbol.rfind("__simplec_", 0) != 0 && f.symbol != "__errno_location";
}

Node* Parser::externThunk(int ext) {
  auto it = externThunks_.find(ext);
  if (it != externThunks_.end()) return conOf(Type::funPtr(it->second));
  SType type = funTypes_[size_t(ext)];
  const FunSig& sig = *type.sig;
  int idx = newFunction(u_.funs[size_t(ext)].name, u_.funs[size_t(ext)].pos);
  externThunks_[ext] = idx;
  for (const SType& p : sig.params) {
    u_.funs[size_t(idx)].paramTypes.push_back(p.lattice());
    u_.funs[size_t(idx)].f32Params.push_back(p.isFloat() && p.bits == 32);
  }
  funTypes_[size_t(idx)] = type;
  FunCtx ctx;
  enterGraph(ctx, idx);
  ctx.outer = mainCtx_;
  Node* fun = u_.funs[size_t(idx)].fun;
  Node* mem = nullptr;
  for (Node* u : fun->out)
    if (u->op == Op::Parm && u->aux < 0) mem = u;
  ctx.scope = scopes_.fresh(*ctx.graph, *ctx.peep, ctx.symbols, fun, mem);
  FunCtx* savedFn = fn_;
  bool savedTop = topLevel_;
  fn_ = &ctx;
  topLevel_ = false;
  std::vector<Node*> args;
  for (size_t i = 0; i < sig.params.size(); i++) {
    // Passed on to C unchanged: C reads only the bits of the declared width.
    const Type* t = sig.params[i].isNarrow() ? Type::intBot() : sig.params[i].lattice();
    args.push_back(mk(Op::Parm, {fun}, t, int64_t(i)));
  }
  Val r = callFunction(conOf(Type::funPtr(ext)), sig, args);
  addReturn(r, {});
  finishFunction(ctx, {}, false);
  fn_ = savedFn;
  topLevel_ = savedTop;
  funTypes_[size_t(idx)] = type;
  return conOf(Type::funPtr(idx));
}

Val Parser::callFunction(Node* fptr, const FunSig& sig, std::vector<Node*> args, SrcPos pos) {
  // Indirect calls reach only functions of ours (C functions used as values
  // go through thunks, see externThunk).
  bool trusted = !callsExtern(fptr);
  if (!trusted) {
    // A C function may write to fd 1: what sys.io.p buffered goes first.
    int flush = declareExtern("__simplec_flush", {}, SType::voidT());
    Node* fp = conOf(Type::funPtr(flush));
    callFunction(fp, *funTypes_[size_t(flush)].sig, {});
  }
  std::vector<Node*> ins{ctrl(), scope()->allMem(), fptr};
  ins.insert(ins.end(), args.begin(), args.end());
  int64_t f32Bits = 0;  // which values travel as single precision
  for (size_t i = 0; i < sig.params.size() && i < size_t(kCallF32Result); i++)
    if (sig.params[i].isFloat() && sig.params[i].bits == 32) f32Bits |= int64_t(1) << i;
  if (sig.ret.isFloat() && sig.ret.bits == 32) f32Bits |= int64_t(1) << kCallF32Result;
  Node* made = mk(Op::Call, ins, Type::ctrl(), f32Bits);
  if (pos.valid()) made->pos = pos;
  Node* call = peep(made);
  // A C function declared to return a non-null reference is not trusted to:
  // its result is typed nullable and checked below.
  bool checkNull = !trusted && sig.ret.isRef() && !sig.ret.nullable;
  const Type* rt = !sig.ret.hasValue() || (!trusted && sig.ret.isNarrow()) ? Type::intBot()
                   : checkNull ? sig.ret.withNullable(true).lattice()
                               : sig.ret.lattice();
  Node* ce = peep(mk(Op::CallEnd, {call}, Type::tuple({Type::ctrl(), Type::mem(), rt})));
  ce->keep++;
  Node* c = peep(mk(Op::CProj, {ce}, nullptr, 0));
  Node* m = peep(mk(Op::Proj, {ce}, nullptr, 1));
  Node* r = sig.ret.hasValue() ? peep(mk(Op::Proj, {ce}, nullptr, 2)) : nullptr;
  ce->keep--;
  setCtrl(c);
  scope()->setAllMem(m);
  noteCall();
  if (checkNull && r) {
    // NULL from C is a runtime error at the call, not a later segfault
    // (a ZeroCheck of kind 1, see ops.def).
    Node* zc = mk(Op::ZeroCheck, {ctrl(), r}, Type::ctrl(), 1);
    zc->pos = call->pos;
    Node* z = peep(zc);
    if (z == zc) setCtrl(zc);
    else G().killIfUnused(zc);
  }
  // Our functions return narrow results extended; C leaves the upper bits
  // undefined, so a result from anything else is truncated again.
  if (r && sig.ret.isNarrow() && !trusted) return narrowTo({r, SType::intT()}, sig.ret);
  return {r, sig.ret};
}

//   args = '(' [expr {',' expr}] ')'
void Parser::parseArguments(std::vector<Val>* args, std::vector<SrcPos>* argPos) {
  size_t lp = pos_;
  expect(Tok::LParen);
  if (!at(Tok::RParen)) {
    for (;;) {
      argPos->push_back(tok().pos());
      args->push_back(parseExpr());
      if (!accept(Tok::Comma)) break;
    }
  }
  expect(Tok::RParen, lp);
}

Val Parser::parseCall(Val callee, SrcPos pos) {
  std::vector<Val> args;
  std::vector<SrcPos> argPos;
  parseArguments(&args, &argPos);
  if (callee.t.isError()) return {con(0), SType::error()};
  if (callee.t.kind != SType::Fun) {
    error(pos, "cannot call a value of type '" + callee.t.str() + "'");
    return {con(0), SType::error()};
  }
  if (callee.t.nullable) {
    reportMightBeNull(callee, pos);
    return {con(0), SType::error()};
  }
  const FunSig& sig = *callee.t.sig;
  if (args.size() != sig.params.size()) {
    error(pos, "wrong number of arguments: expected " + std::to_string(sig.params.size()) + ", found " +
                   std::to_string(args.size()));
    return {con(0), sig.ret};
  }
  std::vector<Node*> ns;
  for (size_t i = 0; i < args.size(); i++) {
    if (regainsWrite(args[i].t, sig.params[i]))
      error(argPos[i], "a read-only '" + args[i].t.str() + "' cannot be passed as a mutable argument");
    checkIntConversion(args[i], sig.params[i], callee.n, i + 1, argPos[i]);
    ns.push_back(coerce(args[i], sig.params[i], argPos[i]).n);
  }
  Val r = callFunction(callee.n, sig, ns, pos);
  if (!r.n) r.n = con(0);
  return r;
}

// sys.io.p(x) prints a string, a number or a bool; sys.io.stdin(),
// sys.args and sys.math.* are built in too; the rest is the sys library.
Val Parser::parseSys() {
  Token sys = tok();
  auto nameAt = [this](size_t k) -> std::string {
    return peekTok(k - 1).kind == Tok::Dot && peekTok(k).kind == Tok::Ident ? peekTok(k).text.str() : "";
  };
  std::string first = nameAt(2), second = nameAt(4);
  if (first == "io" && second == "stdin") {
    pos_ += 5;
    return sysStdin();
  }
  if (first == "args") {
    pos_ += 3;
    return sysArgs();
  }
  if (first != "io" && first != "math" && sysStart_ != 0) return parseSysLibraryName(sys);
  pos_++;
  std::string path = "sys";
  while (accept(Tok::Dot)) {
    if (!at(Tok::Ident)) syntaxError(tok().pos(), "expected a name after '.'");
    path += "." + tok().text;
    pos_++;
    if (path == "sys.io.p") break;
    if (path.rfind("sys.math.", 0) == 0) return parseSysMath(path.substr(9), sys.pos());
  }
  if (path != "sys.io.p") {
    error(sys.pos(), "unknown name '" + path + "'" + sysSuggestion(path));
    if (at(Tok::LParen)) parseCall({con(0), SType::error()}, tok().pos());
    return {con(0), SType::error()};
  }
  SrcPos lp = tok().pos();
  size_t open = pos_;
  expect(Tok::LParen);
  SrcPos argPos = tok().pos();
  Val v = parseExpr();
  expect(Tok::RParen, open);
  return printCall(v, argPos.valid() ? argPos : lp);
}

Val Parser::printCall(Val v, SrcPos pos) {
  switch (v.t.kind) {
    case SType::Error: break;
    case SType::Int:
    case SType::Bool: {
      bool isBool = v.t.kind == SType::Bool;
      int f = declareExtern(isBool ? "__simplec_print_bool" : "__simplec_print_i64", {SType::intT()}, SType::voidT());
      Node* fp = conOf(Type::funPtr(f));
      callFunction(fp, *funTypes_[size_t(f)].sig, {v.n});
      break;
    }
    case SType::Float: {
      // An f32 is passed as the double it widens to; the runtime prints the
      // shortest digits that read back as the same f32.
      bool isF32 = v.t.bits == 32;
      int f = declareExtern(isF32 ? "__simplec_print_f32d" : "__simplec_print_f64", {SType::floatT(64)}, SType::voidT());
      Node* fp = conOf(Type::funPtr(f));
      callFunction(fp, *funTypes_[size_t(f)].sig, {v.n});
      break;
    }
    case SType::Array:
      if (v.t.isString()) {
        // The runtime prints the bytes of any u8 array (and "null" for null).
        int f = declareExtern("__simplec_print_ary", {SType::strT().withNullable(true)}, SType::voidT());
        Node* fp = conOf(Type::funPtr(f));
        callFunction(fp, *funTypes_[size_t(f)].sig, {v.n});
        break;
      }
      error(pos, "cannot print a value of type '" + v.t.str() + "'");
      break;
    case SType::Void: error(pos, "expression has no value"); break;
    default: error(pos, "cannot print a value of type '" + v.t.str() + "'"); break;
  }
  return {nullptr, SType::voidT()};
}

}  // namespace simplec
