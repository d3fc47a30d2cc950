// Floats in the parser: widening of integers, f32 rounding, float arithmetic
// and comparisons, the explicit conversions `int(x)` ... `f32(x)`, and the
// sys.math functions.
//   conversion = typename '(' expr ')'
//   math       = 'sys' '.' 'math' '.' name '(' expr {',' expr} ')'
#include "parser/parser_impl.h"

namespace simplec {

Node* Parser::fcon(double v) { return conOf(Type::fltConst(v)); }

Val Parser::zeroOf(const SType& t) {
  if (t.isFloat()) return {fcon(0.0), t};
  if (t.isRef()) return {nullCon(), t};
  return {con(0), t};
}

Val Parser::widenToFloat(Val v) {
  if (v.t.isFloat() || v.t.isError()) return v;
  return {dataOp(Op::IToF, v.n), SType::floatT(64)};
}

Val Parser::storeAs(Val v, const SType& to) {
  if (to.isFloat()) {
    v = widenToFloat(v);
    if (to.bits == 32 && !(v.t.isFloat() && v.t.bits == 32)) v.n = dataOp(Op::FToF32, v.n);
    return {v.n, to};
  }
  if (to.isNarrow()) return narrowTo(v, to);
  return {v.n, to.isError() ? v.t : to};
}

Val Parser::floatArith(Op op, Val a, Val b, SrcPos opPos) {
  Op fop = op == Op::Add ? Op::FAdd : op == Op::Sub ? Op::FSub : op == Op::Mul ? Op::FMul : Op::FDiv;
  a = widenToFloat(a);
  b = widenToFloat(b);
  return {dataOp(fop, a.n, b.n, opPos), SType::floatT(64)};
}

Val Parser::floatCompare(Tok op, Val a, Val b, SrcPos opPos) {
  a = widenToFloat(a);
  b = widenToFloat(b);
  switch (op) {
    case Tok::Eq: return {dataOp(Op::FEQ, a.n, b.n, opPos), SType::boolT()};
    case Tok::Ne: return {dataOp(Op::FNE, a.n, b.n, opPos), SType::boolT()};
    case Tok::Lt: return {dataOp(Op::FLT, a.n, b.n, opPos), SType::boolT()};
    case Tok::Le: return {dataOp(Op::FLE, a.n, b.n, opPos), SType::boolT()};
    case Tok::Gt: return {dataOp(Op::FLT, b.n, a.n, opPos), SType::boolT()};
    default: return {dataOp(Op::FLE, b.n, a.n, opPos), SType::boolT()};
  }
}

//   conversion = typename '(' expr ')'
// Float to integer truncates toward zero (NaN gives 0, out of range
// saturates), then truncates to a narrow width; integer to narrower integer
// truncates; anything numeric converts to a float.
Val Parser::parseConversion() {
  Token name = tok();
  pos_++;
  SType to = primitiveTypeNamed(name.text);
  size_t lp = pos_;
  expect(Tok::LParen);
  SrcPos argPos = tok().pos();
  Val v = parseExpr();
  expect(Tok::RParen, lp);
  if (v.t.isError() || to.isError()) return zeroOf(to.isError() ? SType::error() : to);
  if (!v.t.isNumeric()) {
    if (!v.t.hasValue())
      error(argPos, "expression has no value");
    else
      error(argPos, "cannot convert '" + v.t.str() + "' to '" + to.str() + "'");
    return zeroOf(to);
  }
  if (to.isFloat()) return storeAs(v, to);
  if (v.t.isFloat()) v = {dataOp(Op::FToI, v.n, nullptr, name.pos()), SType::intT()};
  if (to.isNarrow()) return narrowTo(v, to);
  return {v.n, to};
}

//   math = 'sys' '.' 'math' '.' name '(' expr {',' expr} ')'
// sqrt, floor and ceil take a number and give a flt; abs of an integer is
// an integer (wrapping at the minimum); min and max give the common type.
Val Parser::parseSysMath(const std::string& fn, SrcPos namePos) {
  int arity = fn == "min" || fn == "max" ? 2 : 1;
  bool known = fn == "sqrt" || fn == "floor" || fn == "ceil" || fn == "abs" || arity == 2;
  SrcPos lp = tok().pos();
  std::vector<Val> args;
  std::vector<SrcPos> argPos;
  parseArguments(&args, &argPos);
  if (!known) {
    error(namePos, "unknown name 'sys.math." + fn + "'" + sysSuggestion("sys.math." + fn));
    return {con(0), SType::error()};
  }
  if (args.size() != size_t(arity)) {
    error(lp, "wrong number of arguments: expected " + std::to_string(arity) + ", found " +
                  std::to_string(args.size()));
    return {con(0), SType::error()};
  }
  bool anyFloat = false;
  for (size_t i = 0; i < args.size(); i++) {
    if (args[i].t.isError()) return {con(0), SType::error()};
    if (!args[i].t.isNumeric()) {
      if (!args[i].t.hasValue())
        error(argPos[i], "expression has no value");
      else
        error(argPos[i], "'sys.math." + fn + "' needs a number, found '" + args[i].t.str() + "'");
      return {con(0), SType::error()};
    }
    anyFloat = anyFloat || args[i].t.isFloat();
  }
  if (fn == "sqrt" || fn == "floor" || fn == "ceil" || anyFloat) {
    for (Val& a : args) a = widenToFloat(a);
    Op op = fn == "sqrt" ? Op::FSqrt : fn == "floor" ? Op::FFloor : fn == "ceil" ? Op::FCeil
          : fn == "abs" ? Op::FAbs : fn == "min" ? Op::FMin : Op::FMax;
    return {dataOp(op, args[0].n, arity == 2 ? args[1].n : nullptr, namePos), SType::floatT(64)};
  }
  // Integers, with the operators there are: abs(x) = (x ^ s) - s where
  // s = x >> 63; min(a, b) = b ^ ((a ^ b) & -(a < b)), max likewise.
  Node* a = args[0].n;
  if (fn == "abs") {
    Node* s = dataOp(Op::Sar, a, con(63));
    return {dataOp(Op::Sub, dataOp(Op::Xor, a, s), s), SType::intT()};
  }
  Node* b = args[1].n;
  Node* pick = fn == "min" ? dataOp(Op::LT, a, b) : dataOp(Op::LT, b, a);
  Node* mask = dataOp(Op::Neg, pick);
  return {dataOp(Op::Xor, b, dataOp(Op::And, dataOp(Op::Xor, a, b), mask)), commonType(args[0].t, args[1].t)};
}

}  // namespace simplec
