// Structs and references for the program generator: struct declarations
// (int, narrow, flt and bool fields, array fields, references to other
// structs, per-type constants, methods and self-free functions),
// allocations with constructor blocks, fields used like variables (so that
// assignments, compound operators and ++ reach them), nullable references
// and the tests that prove them non-null.
// Invariants: a non-null reference field points to a struct declared before
// its own (so constructors nest finitely); a reference variable that may be
// null is dereferenced only under `if (p)`, after `if (!p) jump;` (by a
// non-assignable copy of its Var that shadows it) or in `p ? p.f : k`;
// fields are reached through a reference only when it is known non-null.
#include <algorithm>

#include "test/fuzz/generator_state.h"

namespace simplec::fuzz {

namespace {

bool isNullableName(const Var& v) {
  return v.ty == Ty::Ref && v.nullable && v.name.find('.') == std::string::npos;
}

}  // namespace

Var Generator::randomFieldType(int sid) {
  Var t;
  std::vector<int> w = {30, on(Feature::Narrow) ? 15 : 0, 5, on(Feature::Floats) ? 12 : 0,
                        on(Feature::Arrays) ? 10 : 0, sid > 0 ? 8 : 0, on(Feature::Nullable) ? 10 : 0};
  switch (rng_.weighted(w)) {
    case 0: break;
    case 1: t.elem = rng_.pick({"i8", "u8", "i16", "u16", "i32", "u32", "u1"}); break;
    case 2: t.ty = Ty::Bool; break;
    case 3:
      t.ty = Ty::Flt;
      if (on(Feature::Narrow) && rng_.chance(25)) t.elem = "f32";
      break;
    case 4: {
      t.ty = Ty::IntArr;
      t.elem = on(Feature::Narrow) && rng_.chance(25) ? rng_.pick({"u8", "i16", "bool"}) : "int";
      t.minLen = t.maxLen = static_cast<int>(rng_.pick<int64_t>({1, 2, 4, 8, 8, 16}));
      if (rng_.chance(30)) t.minLen = 1, t.maxLen = 8;
      break;
    }
    case 5:  // a struct declared before this one: constructors nest finitely
      t.ty = Ty::Ref;
      t.sid = static_cast<int>(rng_.below(static_cast<uint64_t>(sid)));
      break;
    default:  // any struct, this one included
      t.ty = Ty::Ref;
      t.nullable = true;
      t.sid = static_cast<int>(rng_.below(structs_.size()));
      break;
  }
  return t;
}

void Generator::declareStructs() {
  int n = static_cast<int>(rng_.range(1, 4));
  for (int k = 0; k < n; k++) {
    StructInfo s;
    s.name = freshName("S");
    structs_.push_back(s);
  }
  for (int k = 0; k < n; k++) {
    std::vector<FieldInfo> fields;
    int nf = static_cast<int>(rng_.range(2, 6));
    for (int i = 0; i < nf; i++) {
      FieldInfo f;
      f.type = randomFieldType(k);
      f.type.name = freshName("x");
      switch (f.type.ty) {
        case Ty::Int:
          if (rng_.chance(30)) f.init = constant(rng_.range(-5, 300));
          break;
        case Ty::Bool:
          if (rng_.chance(20)) f.init = "true";
          break;
        case Ty::Flt:
          if (rng_.chance(40)) f.init = floatLiteral();
          break;
        case Ty::IntArr:
          if (f.type.minLen == f.type.maxLen && rng_.chance(40))
            f.init = "new " + f.type.elem + "[" + std::to_string(f.type.minLen) + "]";
          break;
        default: break;
      }
      fields.push_back(f);
    }
    if (rng_.chance(30)) {  // a per-type constant, read as `s.k` or `S.k`
      FieldInfo c;
      c.type.name = freshName("k");
      c.type.assignable = false;
      c.isVal = true;
      c.init = constant(rng_.range(-3, 50));
      fields.push_back(c);
    }
    structs_[size_t(k)].fields = fields;
    // Per-type constants read through the type anywhere (`S.k`), and bare
    // inside the struct's methods.
    for (const FieldInfo& f : fields)
      if (f.isVal) {
        Var c = f.type;
        c.name = structs_[size_t(k)].name + "." + f.type.name;
        scopes_[0].push_back(c);
      }
    if (!on(Feature::Methods)) continue;
    // Methods: a few statements on the fields (named bare), no calls.
    std::string saved = out_;
    int savedIndent = indent_;
    out_.clear();
    indent_ = 1;
    int nm = static_cast<int>(rng_.range(1, 2));
    for (int m = 0; m < nm; m++) {
      ctx_ = FnCtx{};
      ctx_.budget = 8;
      retTy_ = Var{};
      inMethod_ = true;
      openScope();
      for (const FieldInfo& f : fields) {
        if (f.type.ty != Ty::Int && f.type.ty != Ty::Bool && f.type.ty != Ty::Flt) continue;
        Var v = f.type;
        v.assignable = !f.isVal;
        declare(v);
      }
      Var p;
      p.name = freshName("p");
      declare(p);
      fnScope_ = scopes_.size();
      std::string name = freshName("m");
      line("val " + name + " = { int " + p.name + " ->");
      indent_++;
      int lines = static_cast<int>(rng_.range(1, 3));
      for (int i = 0; i < lines; i++) {
        charge(1);
        line(assignmentText());
      }
      line("return " + intTypedExpr(2) + ";");
      indent_--;
      line("};");
      closeScope();
      inMethod_ = false;
      structs_[size_t(k)].methods.push_back({name, ctx_.cost + 2});
    }
    if (rng_.chance(50)) {  // a function that never uses self: `S.g(x)`
      openScope();
      Var p;
      p.name = freshName("p");
      declare(p);
      std::string name = freshName("g");
      pureDepth_++;
      line("val " + name + " = { int " + p.name + " -> return " + intTypedExpr(2) + "; };");
      pureDepth_--;
      closeScope();
      structs_[size_t(k)].statics.push_back(name);
    }
    structs_[size_t(k)].memberText = out_;
    out_ = saved;
    indent_ = savedIndent;
  }
}

std::string Generator::structDecls() const {
  std::string text;
  for (const StructInfo& s : structs_) {
    text += "struct " + s.name + " {\n";
    for (const FieldInfo& f : s.fields) {
      if (f.isVal) {
        text += "    val " + f.type.name + " = " + f.init + ";\n";
        continue;
      }
      // An array field with an initializer would be read-only without `!`.
      bool bang = !f.init.empty() && (f.type.ty == Ty::IntArr || f.type.ty == Ty::Ref);
      text += "    " + typeText(f.type) + (bang ? " !" : " ") + f.type.name + (f.init.empty() ? "" : " = " + f.init) + ";\n";
    }
    text += s.memberText;
    text += "};\n";
  }
  return text;
}

std::string Generator::allocation(int sid, int depth) {
  const StructInfo& st = structs_[size_t(sid)];
  std::vector<std::string> sets;
  openScope();
  pureDepth_++;
  for (const FieldInfo& f : st.fields) {
    if (f.isVal) continue;
    const Var& t = f.type;
    bool must = (t.ty == Ty::Ref && !t.nullable) || ((t.ty == Ty::IntArr || t.ty == Ty::FltArr) && f.init.empty());
    if (!must && !rng_.chance(45)) continue;
    std::string value;
    switch (t.ty) {
      case Ty::Int:
      case Ty::Bool: value = intExpr(2); break;
      case Ty::Flt: value = rng_.chance(80) ? floatExpr(2) : intExpr(1); break;
      case Ty::IntArr:
      case Ty::FltArr: value = arrayValue(t, 0); break;
      default: value = t.nullable && depth <= 0 ? "null" : refValue(t, depth - 1); break;
    }
    sets.push_back(t.name + " = " + value + ";");
    // Inside the constructor the fields are named bare; later ones may read it.
    if (t.ty == Ty::Int || t.ty == Ty::Bool || t.ty == Ty::Flt) {
      Var v = t;
      v.assignable = false;
      declare(v);
    }
  }
  pureDepth_--;
  closeScope();
  if (sets.empty()) return rng_.chance(50) ? "new " + st.name : "new " + st.name + " {}";
  std::string text = "new " + st.name + " {";
  for (const std::string& s : sets) text += " " + s;
  return text + " }";
}

std::string Generator::refValue(const Var& t, int depth) {
  if (t.nullable && (depth < -1 || rng_.chance(20))) return "null";
  std::vector<const Var*> cands;
  for (const Var* v : visible([](const Var& v) { return v.ty == Ty::Ref; }))
    if (v->sid == t.sid && (!v->nullable || t.nullable) && (!v->readOnly || t.readOnly)) cands.push_back(v);
  if (!cands.empty() && rng_.chance(60)) return cands[rng_.below(cands.size())]->name;
  if (depth > 0 && rng_.chance(25)) {
    Var want = t;
    want.nullable = false;
    std::string c = refCallExpr(want, depth);
    if (!c.empty()) return c;
  }
  return allocation(t.sid, depth);
}

void Generator::declareFields(const Var& v, int level) {
  for (const FieldInfo& f : structs_[size_t(v.sid)].fields) {
    Var fv = f.type;
    fv.name = v.name + "." + f.type.name;
    fv.isField = true;
    bool isArray = fv.ty == Ty::IntArr || fv.ty == Ty::FltArr;
    // Array fields keep their array (loops may run over an array's indices).
    fv.assignable = !v.readOnly && !f.isVal && !isArray;
    if (isArray || fv.ty == Ty::Ref) fv.readOnly = v.readOnly;  // deeply read-only
    declare(fv);
    if (fv.ty == Ty::Ref && !fv.nullable && level < 1) declareFields(fv, level + 1);
  }
}

void Generator::refDeclaration() {
  charge(1);
  bool outer = scopes_.size() == fnScope_;
  Var v;
  v.ty = Ty::Ref;
  v.sid = static_cast<int>(rng_.below(structs_.size()));
  v.nullable = on(Feature::Nullable) && rng_.chance(40);
  v.name = freshName(v.nullable ? "q" : "r");
  // In an inner block a reference declared with an initializer is
  // read-only through its name unless written `!name` or with `var`.
  bool readOnly = !outer && rng_.chance(12);
  Var want = v;
  want.readOnly = readOnly;
  std::string init = refValue(want, 2);
  std::string type = typeText(v);
  if (readOnly || (outer && rng_.chance(40))) line(type + " " + v.name + " = " + init + ";");
  else if (!v.nullable && init.compare(0, 4, "new ") == 0 && rng_.chance(30)) line("var " + v.name + " = " + init + ";");
  else line(type + " !" + v.name + " = " + init + ";");
  v.readOnly = readOnly;
  // Non-null references are never reassigned: their fields stay variables.
  v.assignable = v.nullable && !readOnly;
  declare(v);
  if (!v.nullable) declareFields(v);
}

bool Generator::nullCheckStatement(int depth) {
  std::vector<const Var*> cands = visible(isNullableName);
  if (cands.empty()) {
    if (!structs_.empty()) refDeclaration();
    else printStatement();
    return false;
  }
  Var p = *cands[rng_.below(cands.size())];
  bool canJump = ctx_.loopDepth > 0 || (!ctx_.procedure && !ctx_.isMain);
  bool canSet = p.assignable && !p.readOnly;
  charge(1);
  switch (rng_.weighted({50, canSet ? 25 : 0, canJump ? 25 : 0})) {
    case 0: {
      line("if (" + p.name + ") {");
      indent_++;
      openScope();
      Var nn = p;
      nn.nullable = false;
      nn.assignable = false;  // a reassignment could make it null again
      declare(nn);
      declareFields(nn);
      int n = 1 + static_cast<int>(rng_.below(static_cast<uint64_t>(std::max(1, o_.maxBlockStatements / (depth + 2)))));
      bool ended = block(n, depth + 1);
      closeScope();
      indent_--;
      if (canSet && rng_.chance(40)) {
        line("} else {");
        indent_++;
        charge(1);
        line(p.name + " = " + allocation(p.sid, 1) + ";");
        indent_--;
        ended = false;
      } else {
        ended = false;
      }
      line("}");
      return ended;
    }
    case 1: line("if (!" + p.name + ") " + p.name + " = " + allocation(p.sid, 1) + ";"); return false;
    default: {
      std::string jump = ctx_.loopDepth > 0 ? (rng_.chance(50) ? "continue;" : "break;") : returnText();
      line("if (!" + p.name + ") " + jump);
      // Non-null from here to the end of the block.
      Var nn = p;
      nn.nullable = false;
      nn.assignable = false;
      declare(nn);
      declareFields(nn);
      return false;
    }
  }
}

std::string Generator::refAssignmentText() {
  const Var* t = pickVar([](const Var& v) { return v.ty == Ty::Ref && v.assignable && !v.readOnly; }, false);
  if (!t) return "";
  Var target = *t;
  Var want = target;
  want.readOnly = false;
  return target.name + " = " + refValue(want, 1) + ";";
}

std::string Generator::methodCallExpr(int depth) {
  if (inMethod_ || pureDepth_ > 0) return "";
  std::vector<int> withStatics;
  for (size_t k = 0; k < structs_.size(); k++)
    if (!structs_[k].statics.empty()) withStatics.push_back(int(k));
  if (!withStatics.empty() && rng_.chance(30)) {
    const StructInfo& s = structs_[size_t(withStatics[rng_.below(withStatics.size())])];
    charge(1);
    return s.name + "." + rng_.pick(s.statics) + "(" + intExpr(depth - 1) + ")";
  }
  std::vector<const Var*> cands;
  for (const Var* v : visible([](const Var& v) { return v.ty == Ty::Ref && !v.nullable && !v.readOnly; }))
    if (!structs_[size_t(v->sid)].methods.empty()) cands.push_back(v);
  if (cands.empty()) return "";
  const Var& v = *cands[rng_.below(cands.size())];
  const auto& m = rng_.pick(structs_[size_t(v.sid)].methods);
  if (!canAfford(m.second)) return "";
  charge(m.second);
  std::string obj = v.name;
  return obj + "." + m.first + "(" + intExpr(depth - 1) + ")";
}

std::string Generator::nullableFieldRead() {
  std::vector<const Var*> cands = visible(isNullableName);
  if (cands.empty()) return "";
  const Var& p = *cands[rng_.below(cands.size())];
  std::vector<std::string> fields;
  for (const FieldInfo& f : structs_[size_t(p.sid)].fields)
    if (f.type.ty == Ty::Int || f.type.ty == Ty::Bool) fields.push_back(f.type.name);
  if (fields.empty()) return "";
  std::string name = p.name;
  return "(" + name + " ? " + name + "." + rng_.pick(fields) + " : " + literal() + ")";
}

}  // namespace simplec::fuzz
