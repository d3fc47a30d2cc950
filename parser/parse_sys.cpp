// The sys library: built-in names (sys.io.stdin, sys.args) and the library
// written in Simple (runtime/sys.smp, parser/sys_prelude.h), whose tokens
// follow the program's own after its Eof. Its structs are declared like the
// program's; their methods are parsed only when the program uses them, so
// unused library code never reaches the graph, at any -O level.
#include "lexer/lexer.h"
#include "parser/parser_impl.h"
#include "parser/sys_prelude.h"

namespace simplec {

bool Parser::needsSysLibrary() const {
  // `sys.NAME` with NAME not one of the built-in io, math and args.
  for (size_t i = 0; i + 2 < toks_.size(); i++) {
    if (toks_[i].kind != Tok::Ident || toks_[i].text != "sys" || toks_[i + 1].kind != Tok::Dot ||
        toks_[i + 2].kind != Tok::Ident)
      continue;
    const std::string& n = toks_[i + 2].text;
    if (n != "io" && n != "math" && n != "args") return true;
  }
  return false;
}

void Parser::appendSysLibrary() {
  std::vector<Token> lib = tokenize(sysPreludeFile(), diag_);
  for (Token& t : lib) t.file = kSysLibraryFile;
  sysStart_ = toks_.size();
  toks_.insert(toks_.end(), lib.begin(), lib.end());
}

// sys.NAME... naming a struct of the library or one of its constants.
Val Parser::parseSysLibraryName(const Token& sys) {
  size_t start = pos_, end = 0;
  StructInfo* s = structNameAt(pos_, &end);
  std::string path = s ? s->name : "sys";
  bool known = false;
  if (s && end + 1 < toks_.size() && toks_[end].kind == Tok::Dot && toks_[end + 1].kind == Tok::Ident) {
    path += "." + toks_[end + 1].text;
    int fi = s->find(toks_[end + 1].text);
    known = fi >= 0 && s->fields[size_t(fi)].isConst();
  }
  if (!known) {
    // Past the path: the struct names, then `.NAME` if there is one.
    pos_ = s ? end : pos_ + 1;
    if (s && at(Tok::Dot) && peekTok().kind == Tok::Ident) pos_ += 2;
    error(sys.pos(), "unknown name '" + path + "'" + sysSuggestion(path));
    if (at(Tok::LParen)) parseCall({con(0), SType::error()}, tok().pos());
    return {con(0), SType::error()};
  }
  pos_ = end;
  return typeMember(s, sys.pos(), start);
}

Val Parser::callRuntime(const std::string& symbol, std::vector<SType> params, SType ret, std::vector<Node*> args) {
  int f = declareExtern(symbol, std::move(params), std::move(ret));
  Node* fp = conOf(Type::funPtr(f));
  return callFunction(fp, *funTypes_[size_t(f)].sig, std::move(args));
}

//   sys.io.stdin '(' ')'
Val Parser::sysStdin() {
  expect(Tok::LParen);
  expect(Tok::RParen);
  return callRuntime("__simplec_stdin", {}, SType::arrayT(SType::intN(8, true), false), {});
}

// sys.args: argv as a u8[~]?[~], made by the runtime once.
Val Parser::sysArgs() {
  SType arg = SType::arrayT(SType::intN(8, true), true).withNullable(true);
  return callRuntime("__simplec_args", {}, SType::arrayT(arg, true), {});
}

Val Parser::externField(FieldInfo& f, SrcPos pos, size_t startTok) {
  if (f.type.kind == SType::Fun) {
    int ext = declareExtern(f.name, f.type.sig->params, f.type.sig->ret);
    if (u_.funs[size_t(ext)].isData || !sameType(funTypes_[size_t(ext)], f.type)) {
      error(pos, "external function '" + f.name + "' declared again with another type");
      return {con(0), SType::error()};
    }
    Node* fp = conOf(Type::funPtr(ext));
    // Used as a value, a C function goes through a thunk of ours.
    if (!at(Tok::LParen)) fp = externThunk(ext);
    return {fp, f.type};
  }
  int ext = declareExternVar(f.name, f.type);
  if (!u_.funs[size_t(ext)].isData || !sameType(funTypes_[size_t(ext)], f.type)) {
    error(pos, "external variable '" + f.name + "' declared again with another type");
    return {con(0), SType::error()};
  }
  Val v = loadExternVar(ext, pos);
  lastExternField_ = {ext, startTok, pos_};
  return v;
}

}  // namespace simplec
