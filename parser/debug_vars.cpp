// -g: records the function's parameters and locals with their types
// (son/debug_info.h) as the parser defines them, and names the value
// each is given. Does nothing without -g.
#include "parser/parser_impl.h"
#include "parser/struct_layout.h"
#include "son/mem_access.h"

namespace simplec {

void Parser::debugDeclare(int idx, Node* v, int param, Node* raw) {
  if (!u_.debugInfo || idx < 0 || !v) return;
  const VarInfo& info = syms().vars[size_t(idx)];
  std::vector<int>& ids = fn_->debugVar;
  if (ids.size() <= size_t(idx)) ids.resize(size_t(idx) + 1, -1);
  ids[size_t(idx)] = -1;
  // Temporaries, field names inside methods, C variables and named
  // functions (`val f = {...}`) are not variables of this frame.
  if (info.name.empty() || info.name[0] == '$' || info.field >= 0 || info.externVar >= 0) return;
  SType::Kind k = info.type.kind;
  if (k == SType::Error || k == SType::Void || k == SType::Null) return;
  if (k == SType::Fun && info.constValue) return;
  std::vector<DebugVar>& vars = u_.funs[size_t(fn_->funIdx)].debugVars;
  DebugVar d;
  d.name = info.name;
  d.type = debugTypeOf(info.type);
  d.pos = info.pos;
  d.param = param;
  ids[size_t(idx)] = int(vars.size());
  vars.push_back(d);
  // A parameter has its value from the function's entry; a local from the
  // end of its declarator on.
  SrcPos passAt = param > 0 ? SrcPos{} : endOf(prevTok());
  G().addDebugName(v, ids[size_t(idx)], DebugName::Declare, ctrl(), passAt);
  if (raw && raw != v) G().addDebugName(raw, ids[size_t(idx)], DebugName::Declare, ctrl(), passAt);
}

void Parser::debugAssign(int idx, Node* v) {
  if (!u_.debugInfo || idx < 0 || size_t(idx) >= fn_->debugVar.size() || !v) return;
  int d = fn_->debugVar[size_t(idx)];
  if (d < 0) return;
  u_.funs[size_t(fn_->funIdx)].debugVars[size_t(d)].reassigned = true;
  // The assignment is done once the source passes its last token (a
  // for-loop's step: once it passes the body).
  G().addDebugName(v, d, DebugName::Assign, ctrl(), fn_->stepPassAt.valid() ? fn_->stepPassAt : endOf(prevTok()));
}

void Parser::debugScope(size_t nvars, SrcPos begin, SrcPos end) {
  if (!u_.debugInfo) return;
  std::vector<DebugVar>& vars = u_.funs[size_t(fn_->funIdx)].debugVars;
  // The block's own variables: inner blocks have cut theirs off already.
  for (size_t idx = nvars; idx < syms().vars.size() && idx < fn_->debugVar.size(); idx++) {
    int d = fn_->debugVar[idx];
    if (d < 0 || size_t(d) >= vars.size()) continue;
    vars[size_t(d)].scopeBegin = begin;
    vars[size_t(d)].scopeEnd = end;
  }
}

void Parser::debugMerge(int idx, Node* v, Node* merge) {
  if (!u_.debugInfo || idx < 0 || size_t(idx) >= fn_->debugVar.size() || !v) return;
  int d = fn_->debugVar[size_t(idx)];
  if (d >= 0) G().addDebugName(v, d, DebugName::Merge, merge);
}

// The debug type of values of static type t: as a variable holds them (f32
// widened to a double, narrow integers extended), or, with inMemory, as an
// array element or struct field is stored (f32 in 4 bytes).
int Parser::debugTypeOf(const SType& t, bool inMemory) {
  SType base = t.nonNull();
  base.readonly = false;
  std::string key = base.str() + (inMemory && t.kind == SType::Float ? "@mem" : "");
  auto it = debugTypeIds_.find(key);
  if (it != debugTypeIds_.end()) return it->second;
  int id = int(u_.debugTypes.size());
  debugTypeIds_[key] = id;
  u_.debugTypes.emplace_back();
  DebugType d;
  d.name = base.str();
  switch (t.kind) {
    case SType::Int:
      d.size = t.bits / 8;
      d.isSigned = !t.isUnsigned;
      break;
    case SType::Bool:
      d.kind = DebugType::Bool;
      d.size = 1;
      break;
    case SType::Float:
      d.kind = DebugType::Float;
      d.size = inMemory ? t.bits / 8 : 8;  // f32 variables hold doubles
      break;
    case SType::Struct: {
      d.kind = DebugType::Struct;
      // Fields in declaration order, at their offsets in the layout, each
      // as stored (an f32 in 4 bytes).
      StructLayout l = layoutOf(*t.strct);
      for (size_t i = 0; i < t.strct->fields.size(); i++) {
        const FieldInfo& f = t.strct->fields[i];
        if (f.isConst()) continue;
        DebugField df;
        df.name = f.name;
        df.offset = l.offset[i];
        df.type = debugTypeOf(f.type, true);
        d.fields.push_back(df);
      }
      d.size = int(kArrayHeader + l.bytes);
      break;
    }
    case SType::Array:
      d.kind = DebugType::Array;
      d.elem = debugTypeOf(*t.elem, true);
      break;
    default:
      d.kind = DebugType::Fun;
      break;
  }
  u_.debugTypes[size_t(id)] = std::move(d);
  return id;
}

}  // namespace simplec
