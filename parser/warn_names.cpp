// Warnings about names, decided from the symbol table as blocks end:
// unused locals and parameters (-Wunused-variable, -Wunused-but-set-variable,
// -Wunused-parameter, -Wunused-but-set-parameter) and a local that hides
// another of its function (-Wshadow). Each variable is looked at once, when
// it leaves scope, so the cost is linear in the number of declarations.
// "Used" means read: `x = e` alone only sets x; `x++` and `x += e` read it.
#include "parser/parser_impl.h"

namespace simplec {

VarKind Parser::declKind(const SType& t, const Type* constValue) {
  // The script's top level declares the program's functions and constants,
  // which other functions (or a C caller) use: not warned when unused.
  bool topLevel = fn_ == mainCtx_ && syms().depth() == fn_->bodyDepth;
  if (topLevel && (constValue || t.kind == SType::Fun)) return VarKind::Global;
  return VarKind::Local;
}

void Parser::warnUnused(size_t from) {
  // After an error the parser may have skipped the statement that used a
  // name; its warning would be noise.
  if (hadRealErrors()) return;
  std::vector<VarInfo>& vars = syms().vars;
  for (size_t i = from; i < vars.size(); i++) {
    const VarInfo& v = vars[i];
    bool param = v.kind == VarKind::Param;
    if ((v.kind != VarKind::Local && !param) || v.read) continue;
    // `_name`: unused on purpose.
    if (v.name.empty() || v.name[0] == '_') continue;
    if (v.assigned)
      warn(v.pos, param ? Warn::UnusedButSetParameter : Warn::UnusedButSetVariable,
           std::string(param ? "parameter" : "variable") + " '" + v.name + "' set but not used");
    else
      warn(v.pos, param ? Warn::UnusedParameter : Warn::UnusedVariable,
           std::string(param ? "unused parameter '" : "unused variable '") + v.name + "'");
  }
}

void Parser::warnShadow(const Token& name) {
  if (syms().definedInInnermost(name.text)) return;  // a redefinition, reported as an error
  int j = syms().find(name.text);
  if (j < 0) return;
  switch (syms().vars[size_t(j)].kind) {
    case VarKind::Local:
      warn(name.pos(), Warn::Shadow, "declaration of '" + name.text + "' shadows a previous local");
      break;
    case VarKind::Param:
      warn(name.pos(), Warn::Shadow, "declaration of '" + name.text + "' shadows a parameter");
      break;
    case VarKind::Global:
      warn(name.pos(), Warn::Shadow, "declaration of '" + name.text + "' shadows a global declaration");
      break;
    case VarKind::Other:
    case VarKind::Field: break;
  }
}

}  // namespace simplec
