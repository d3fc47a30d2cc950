// The names a "did you mean" may offer (parser/suggest.h): what could have
// been meant at the point of the error. Only names valid there are offered,
// so following a suggestion never leads to another error of the same kind.
#include "parser/parser_impl.h"
#include "parser/suggest.h"

namespace simplec {

namespace {

bool isUserName(const std::string& n) { return !n.empty() && n[0] != '$'; }

}  // namespace

std::vector<std::string> Parser::namesInScope() const {
  std::vector<std::string> out;
  if (fn_)
    for (const auto& block : fn_->symbols.blocks)
      for (const auto& [name, idx] : block)
        if (isUserName(name)) out.push_back(name);
  // An enclosing function lends its constants only.
  for (FunCtx* c = fn_ ? fn_->outer : nullptr; c; c = c->outer)
    for (const VarInfo& v : c->symbols.vars)
      if (isUserName(v.name) && (v.constValue || v.externVar >= 0)) out.push_back(v.name);
  for (const auto& [name, tf] : topFuns_) out.push_back(name);
  for (const auto& [name, tv] : topVals_) out.push_back(name);
  for (const auto& [name, s] : structByName_)
    if (name.find('.') == std::string::npos) out.push_back(name);
  out.push_back("sys");
  return out;
}

std::vector<std::string> Parser::structNames() const {
  std::vector<std::string> out;
  // Inside struct A.B a nested struct is named by its last part too.
  std::string ctx = typeContext_ ? typeContext_->name + "." : "";
  for (const auto& [name, s] : structByName_) {
    if (name.find('.') == std::string::npos)
      out.push_back(name);
    else if (!ctx.empty() && name.rfind(ctx, 0) == 0 && name.find('.', ctx.size()) == std::string::npos)
      out.push_back(name.substr(ctx.size()));
  }
  return out;
}

std::vector<std::string> Parser::typeNames() const {
  std::vector<std::string> out{"int", "i8", "i16", "i32", "i64", "u1", "u8", "u16", "u32",
                               "bool", "byte", "flt", "f32", "f64"};
  std::vector<std::string> structs = structNames();
  out.insert(out.end(), structs.begin(), structs.end());
  return out;
}

std::string Parser::sysSuggestion(const std::string& path) const {
  size_t dot = path.rfind('.');
  if (dot == std::string::npos) return "";
  std::string parent = path.substr(0, dot), last = path.substr(dot + 1);
  // The built-in members, then what the sys library declares.
  std::vector<std::string> members;
  if (parent == "sys") members = {"io", "math", "args"};
  if (parent == "sys.io") members = {"p", "stdin"};
  if (parent == "sys.math") members = {"sqrt", "floor", "ceil", "abs", "min", "max"};
  for (const auto& [name, s] : structByName_) {
    if (name.size() > parent.size() && name.rfind(parent + ".", 0) == 0 &&
        name.find('.', parent.size() + 1) == std::string::npos)
      members.push_back(name.substr(parent.size() + 1));
    if (name == parent)
      for (const FieldInfo& f : s->fields)
        if (f.isConst() || f.externDecl) members.push_back(f.name);
  }
  std::string best = closestName(last, members);
  return best.empty() ? "" : "; did you mean '" + parent + "." + best + "'?";
}

std::string Parser::spelling(size_t from, size_t to, const std::string& fallback) const {
  std::string s;
  for (size_t i = from; i < to && i < toks_.size(); i++) {
    if (toks_[i].kind != Tok::Ident && toks_[i].kind != Tok::Dot) return fallback;
    s += toks_[i].kind == Tok::Dot ? "." : toks_[i].text.str();
  }
  return s.empty() ? fallback : s;
}

std::vector<std::string> Parser::fieldNames(const StructInfo& s) {
  std::vector<std::string> out;
  for (const FieldInfo& f : s.fields) out.push_back(f.name);
  return out;
}

}  // namespace simplec
