// -g: the debug-information sections (see debug_info_writer.h), as a tree
// of DIEs (die_tree.h).
#include "codegen/x86_64/debug_info_writer.h"

#include <algorithm>
#include <functional>
#include <unordered_map>

#include "codegen/debug_locations.h"
#include "codegen/debug_versions.h"
#include "codegen/inline_scopes.h"
#include "codegen/lexical_scopes.h"
#include "codegen/x86_64/die_tree.h"
#include "codegen/x86_64/dwarf_encoding.h"
#include "codegen/x86_64/mc_lower.h"

namespace simplec::x86_64 {

DebugInfoWriter::DebugInfoWriter(const mir::MModule& m, llvm::MCContext& ctx, const llvm::MCObjectFileInfo& fileInfo,
                                 llvm::MCStreamer& out)
    : m_(m), ctx_(ctx), fi_(fileInfo), out_(out) {}

void DebugInfoWriter::beginText() {
  textBegin_ = ctx_.createTempSymbol("debug_text_begin", true);
  out_.emitLabel(textBegin_);
}

void DebugInfoWriter::endText() {
  textEnd_ = ctx_.createTempSymbol("debug_text_end", true);
  out_.emitLabel(textEnd_);
}

void DebugInfoWriter::beginFunction(const mir::MFunction& f, llvm::MCSymbol* sym, McLowering& lower) {
  Fun fn;
  fn.name = f.name;
  fn.global = f.global;
  fn.file = f.file;
  fn.line = f.line;
  fn.begin = sym;
  std::vector<std::vector<DebugRange>> loc = debugLocations(f);
  std::vector<std::vector<DebugRange>> versions = debugVersionRanges(f, loc);
  std::map<int, llvm::MCSymbol*> labels;  // instruction index -> label
  auto labelAt = [&](int i) {
    llvm::MCSymbol*& s = labels[i];
    if (!s) s = ctx_.createTempSymbol("debug_loc", true);
    return s;
  };
  for (size_t i = 0; i < f.debugVars.size(); i++) {
    const mir::DebugVarLoc& v = f.debugVars[i];
    Var var{v, {}, {}};
    std::vector<DebugRange> none;
    auto of = [&](int value) -> const std::vector<DebugRange>& {
      return value >= 0 && size_t(value) < loc.size() ? loc[size_t(value)] : none;
    };
    // A reassigned variable: where its current value is (debug_versions.h).
    const std::vector<DebugRange>& ranges =
        v.var.reassigned ? versions[i] : preferRanges(of(v.value), of(v.value2));
    for (const DebugRange& r : ranges) {
      var.ranges.push_back({labelAt(r.begin), labelAt(r.end)});
      var.places.push_back(r.place);
    }
    fn.vars.push_back(std::move(var));
  }
  // Source blocks with code (lexical_scopes.h); a block without any gives
  // its variables and calls to the nearest enclosing one that has some.
  std::vector<LexicalScope> blocks = lexicalScopes(f);
  std::vector<int> lexicalIndex(blocks.size(), -1);
  auto withCode = [&](int k) {
    while (k >= 0 && blocks[size_t(k)].ranges.empty()) k = blocks[size_t(k)].parent;
    return k < 0 ? -1 : lexicalIndex[size_t(k)];
  };
  for (size_t k = 0; k < blocks.size(); k++) {
    if (blocks[k].ranges.empty()) continue;
    lexicalIndex[k] = int(fn.lexical.size());
    Lexical lx{withCode(blocks[k].parent), {}};
    for (const InstRange& r : blocks[k].ranges) lx.ranges.push_back({labelAt(r.begin), labelAt(r.end)});
    fn.lexical.push_back(std::move(lx));
  }
  for (const mir::DebugVarLoc& v : f.debugVars)
    fn.varScope.push_back(withCode(lexicalScopeOf(blocks, v.var.scopeBegin, v.var.scopeEnd)));
  for (const InlineScope& sc : inlineScopes(f, m_.inlinedCalls)) {
    Inlined in{sc.call, sc.parent, {}};
    for (const InstRange& r : sc.ranges) in.ranges.push_back({labelAt(r.begin), labelAt(r.end)});
    fn.inlined.push_back(std::move(in));
    // An outermost inlined call sits in the block of its call's position.
    const mir::InlinedCall& c = m_.inlinedCalls[size_t(sc.call)];
    int scope = -1;
    if (sc.parent < 0 && c.line) {
      int k = innermostLexicalScope(blocks, SrcPos{c.line, c.col});
      scope = k < 0 ? -1 : lexicalIndex[size_t(k)];
    }
    fn.inlinedScope.push_back(scope);
  }
  lower.setInstLabels(std::vector<std::pair<int, llvm::MCSymbol*>>(labels.begin(), labels.end()));
  funs_.push_back(std::move(fn));
}

void DebugInfoWriter::endFunction(llvm::MCSymbol* end) { funs_.back().end = end; }

void DebugInfoWriter::finish() {
  DieTree t;
  int cu = t.add(dw::DW_TAG_compile_unit, -1);
  t.str(cu, dw::DW_AT_producer, "simplec");
  t.num(cu, dw::DW_AT_language, dw::DW_FORM_data2, dw::DW_LANG_C99);
  t.str(cu, dw::DW_AT_name, m_.sourceName);
  t.str(cu, dw::DW_AT_comp_dir, m_.compDir);
  t.secOffset(cu, dw::DW_AT_stmt_list, out_.getDwarfLineTableSymbol(0));
  t.addr(cu, dw::DW_AT_low_pc, textBegin_);
  t.diff(cu, dw::DW_AT_high_pc, textEnd_, textBegin_);

  // Types. A variable of a struct, array or function type holds a
  // reference: its DIE is a pointer to the object's.
  const std::vector<DebugType>& types = m_.debugTypes;
  std::vector<int> valueDie(types.size(), -1), objectDie(types.size(), -1);
  auto base = [&](const std::string& name, unsigned enc, int size) {
    int d = t.add(dw::DW_TAG_base_type, cu);
    t.str(d, dw::DW_AT_name, name);
    t.num(d, dw::DW_AT_encoding, dw::DW_FORM_data1, enc);
    t.num(d, dw::DW_AT_byte_size, dw::DW_FORM_data1, uint64_t(size));
    return d;
  };
  int intDie = -1;
  for (size_t i = 0; i < types.size(); i++) {
    const DebugType& ty = types[i];
    switch (ty.kind) {
      case DebugType::Int:
        valueDie[i] = base(ty.name, ty.isSigned ? dw::DW_ATE_signed : dw::DW_ATE_unsigned, ty.size);
        if (ty.name == "int") intDie = valueDie[i];
        break;
      case DebugType::Bool: valueDie[i] = base(ty.name, dw::DW_ATE_boolean, ty.size); break;
      case DebugType::Float: valueDie[i] = base(ty.name, dw::DW_ATE_float, ty.size); break;
      case DebugType::Struct:
        objectDie[i] = t.add(dw::DW_TAG_structure_type, cu);
        break;
      case DebugType::Array:
        objectDie[i] = t.add(dw::DW_TAG_structure_type, cu);
        break;
      case DebugType::Fun:
        objectDie[i] = t.add(dw::DW_TAG_subroutine_type, cu);
        t.flag(objectDie[i], dw::DW_AT_prototyped);
        break;
    }
    if (objectDie[i] >= 0) {
      valueDie[i] = t.add(dw::DW_TAG_pointer_type, cu);
      t.num(valueDie[i], dw::DW_AT_byte_size, dw::DW_FORM_data1, 8);
      t.ref(valueDie[i], dw::DW_AT_type, objectDie[i]);
    }
  }
  if (intDie < 0) intDie = base("int", dw::DW_ATE_signed, 8);
  auto member = [&](int parent, const std::string& name, int type, int64_t offset) {
    int d = t.add(dw::DW_TAG_member, parent);
    t.str(d, dw::DW_AT_name, name);
    t.ref(d, dw::DW_AT_type, type);
    t.num(d, dw::DW_AT_data_member_location, dw::DW_FORM_udata, uint64_t(offset));
  };
  for (size_t i = 0; i < types.size(); i++) {
    const DebugType& ty = types[i];
    int d = objectDie[i];
    if (ty.kind == DebugType::Struct) {
      t.str(d, dw::DW_AT_name, ty.name);
      t.num(d, dw::DW_AT_byte_size, dw::DW_FORM_udata, uint64_t(ty.size));
      for (const DebugField& f : ty.fields)
        if (f.type >= 0) member(d, f.name, valueDie[size_t(f.type)], f.offset);
    } else if (ty.kind == DebugType::Array && ty.elem >= 0) {
      // The length, then the elements: as many as the length says (the
      // bound is read from 8 bytes before the elements).
      t.str(d, dw::DW_AT_name, ty.name);
      t.num(d, dw::DW_AT_byte_size, dw::DW_FORM_udata, 8);
      member(d, "len", intDie, 0);
      int arr = t.add(dw::DW_TAG_array_type, cu);
      t.ref(arr, dw::DW_AT_type, valueDie[size_t(ty.elem)]);
      int sub = t.add(dw::DW_TAG_subrange_type, arr);
      t.ref(sub, dw::DW_AT_type, intDie);
      t.expr(sub, dw::DW_AT_count,
             {dw::DW_OP_push_object_address, dw::DW_OP_lit8, dw::DW_OP_minus, dw::DW_OP_deref});
      member(d, "data", arr, 8);
    }
  }

  // Functions and their variables; each location list gets a label in .debug_loc.
  struct LocList {
    llvm::MCSymbol* label;
    const Var* var;
  };
  std::vector<LocList> lists;
  // Inlined callees: one abstract DW_TAG_subprogram each, which every
  // inlined copy names as its origin. An out-of-line copy of the same
  // function keeps its own complete DIE rather than pointing at the
  // abstract one: gdb finds both by name, and the two never share a scope.
  // The parameters are listed without a location; a copy that knows where
  // one is has a concrete parameter pointing at it (a parameter assigned
  // in the callee is not tracked through inlining: gdb shows it
  // <optimized out>).
  std::vector<int> abstractDies(m_.inlinedFunctions.size(), -1);
  std::vector<std::vector<std::pair<int, int>>> abstractParams(m_.inlinedFunctions.size());  // (param, DIE)
  auto abstractDie = [&](int callee) {
    int& d = abstractDies[size_t(callee)];
    if (d >= 0) return d;
    const mir::InlinedFunction& fn = m_.inlinedFunctions[size_t(callee)];
    d = t.add(dw::DW_TAG_subprogram, cu);
    t.str(d, dw::DW_AT_name, fn.symbol);
    if (fn.declLine) {
      t.num(d, dw::DW_AT_decl_file, dw::DW_FORM_data1, 1);
      t.num(d, dw::DW_AT_decl_line, dw::DW_FORM_udata, fn.declLine);
    }
    t.flag(d, dw::DW_AT_prototyped);
    t.num(d, dw::DW_AT_inline, dw::DW_FORM_data1, dw::DW_INL_inlined);
    for (const DebugVar& v : fn.params) {
      if (v.type < 0 || size_t(v.type) >= types.size()) continue;
      int p = t.add(dw::DW_TAG_formal_parameter, d);
      abstractParams[size_t(callee)].push_back({v.param, p});
      t.str(p, dw::DW_AT_name, v.name);
      if (v.pos.file == kMainFile && v.pos.line > 0) {
        t.num(p, dw::DW_AT_decl_file, dw::DW_FORM_data1, 1);
        t.num(p, dw::DW_AT_decl_line, dw::DW_FORM_udata, uint64_t(v.pos.line));
      }
      t.ref(p, dw::DW_AT_type, valueDie[size_t(v.type)]);
    }
    return d;
  };
  // Scopes (inlined copies, lexical blocks) with several ranges: each list
  // gets a label in .debug_ranges.
  struct RangeList {
    llvm::MCSymbol* label;
    const std::vector<LabelRange>* ranges;
  };
  std::vector<RangeList> rangeLists;
  // Code ranges of a scope: low/high pc when one, else a .debug_ranges list.
  auto addRanges = [&](int d, const std::vector<LabelRange>& ranges) {
    if (ranges.size() == 1) {
      t.addr(d, dw::DW_AT_low_pc, ranges[0].first);
      t.diff(d, dw::DW_AT_high_pc, ranges[0].second, ranges[0].first);
    } else {
      llvm::MCSymbol* l = ctx_.createTempSymbol("debug_ranges", true);
      t.secOffset(d, dw::DW_AT_ranges, l);
      rangeLists.push_back({l, &ranges});
    }
  };
  for (const Fun& fn : funs_) {
    int sp = t.add(dw::DW_TAG_subprogram, cu);
    t.str(sp, dw::DW_AT_name, fn.name);
    if (fn.file == kMainFile && fn.line) {
      t.num(sp, dw::DW_AT_decl_file, dw::DW_FORM_data1, 1);
      t.num(sp, dw::DW_AT_decl_line, dw::DW_FORM_udata, fn.line);
    }
    t.flag(sp, dw::DW_AT_prototyped);
    if (fn.global) t.flag(sp, dw::DW_AT_external);
    t.addr(sp, dw::DW_AT_low_pc, fn.begin);
    t.diff(sp, dw::DW_AT_high_pc, fn.end, fn.begin);
    t.expr(sp, dw::DW_AT_frame_base, {dw::DW_OP_reg6});  // rbp
    // Parameters first, in order, then the locals.
    // (Variables of inlined frames go into those frames, below.)
    std::vector<const Var*> order;
    for (const Var& v : fn.vars)
      if (v.v.var.param > 0) order.push_back(&v);
    std::stable_sort(order.begin(), order.end(),
                     [](const Var* a, const Var* b) { return a->v.var.param < b->v.var.param; });
    for (const Var& v : fn.vars)
      if (v.v.var.param == 0) order.push_back(&v);
    std::vector<const Var*> inlinedVars;
    for (const Var* v : order)
      if (v->v.var.inlineSite >= 0) inlinedVars.push_back(v);
    order.erase(std::remove_if(order.begin(), order.end(), [](const Var* v) { return v->v.var.inlineSite >= 0; }),
                order.end());
    // Source blocks with variables, nested as in the source.
    std::vector<int> lexicalDie;
    for (const Lexical& lx : fn.lexical) {
      int d = t.add(dw::DW_TAG_lexical_block, lx.parent < 0 ? sp : lexicalDie[size_t(lx.parent)]);
      lexicalDie.push_back(d);
      addRanges(d, lx.ranges);
    }
    // A variable's DIE under `parent`: its name and type, or for a
    // parameter of an inlined copy the abstract one it stands for; then
    // its location list, or the constant it is everywhere.
    auto addVar = [&](const Var* v, int parent, int origin) {
      const DebugVar& dv = v->v.var;
      int d = t.add(dv.param > 0 ? dw::DW_TAG_formal_parameter : dw::DW_TAG_variable, parent);
      if (origin >= 0) {
        t.ref(d, dw::DW_AT_abstract_origin, origin);
      } else {
        t.str(d, dw::DW_AT_name, dv.name);
        if (dv.pos.file == kMainFile && dv.pos.line > 0) {
          t.num(d, dw::DW_AT_decl_file, dw::DW_FORM_data1, 1);
          t.num(d, dw::DW_AT_decl_line, dw::DW_FORM_udata, uint64_t(dv.pos.line));
        }
        t.ref(d, dw::DW_AT_type, valueDie[size_t(dv.type)]);
      }
      if (!v->ranges.empty()) {
        llvm::MCSymbol* l = ctx_.createTempSymbol("debug_loclist", true);
        t.secOffset(d, dw::DW_AT_location, l);
        lists.push_back({l, v});
      } else if (v->v.isConst) {
        const DebugType& ty = types[size_t(dv.type)];
        if (ty.kind == DebugType::Float)
          t.num(d, dw::DW_AT_const_value, dw::DW_FORM_data8, uint64_t(v->v.constBits));
        else
          t.num(d, dw::DW_AT_const_value, dw::DW_FORM_sdata, uint64_t(v->v.constBits));
      }
    };
    for (const Var* v : order) {
      const DebugVar& dv = v->v.var;
      if (dv.type < 0 || size_t(dv.type) >= types.size()) continue;
      int scope = fn.varScope[size_t(v - fn.vars.data())];
      addVar(v, scope < 0 ? sp : lexicalDie[size_t(scope)], -1);
    }
    // Inlined calls, nested as they were inlined (inline scopes are frames,
    // which always have a callee), with the variables of their frames.
    std::vector<int> inlinedDie;
    std::unordered_map<int, int> inlinedOfCall;  // inlined call -> index in fn.inlined
    for (size_t i = 0; i < fn.inlined.size(); i++) {
      const Inlined& in = fn.inlined[i];
      const mir::InlinedCall& c = m_.inlinedCalls[size_t(in.call)];
      int scope = fn.inlinedScope[i];
      int parent = in.parent >= 0 ? inlinedDie[size_t(in.parent)] : scope >= 0 ? lexicalDie[size_t(scope)] : sp;
      int d = t.add(dw::DW_TAG_inlined_subroutine, parent);
      inlinedDie.push_back(d);
      inlinedOfCall[in.call] = int(i);
      t.ref(d, dw::DW_AT_abstract_origin, abstractDie(c.callee));
      addRanges(d, in.ranges);
      if (c.line) {
        t.num(d, dw::DW_AT_call_file, dw::DW_FORM_data1, 1);
        t.num(d, dw::DW_AT_call_line, dw::DW_FORM_udata, c.line);
        t.num(d, dw::DW_AT_call_column, dw::DW_FORM_udata, c.col);
      }
    }
    for (const Var* v : inlinedVars) {
      const DebugVar& dv = v->v.var;
      if (dv.type < 0 || size_t(dv.type) >= types.size()) continue;
      // Only the callee's own code has a frame (library code has none).
      if (size_t(dv.inlineSite) >= m_.inlinedCalls.size() || m_.inlinedCalls[size_t(dv.inlineSite)].frame != dv.inlineSite)
        continue;
      auto it = inlinedOfCall.find(dv.inlineSite);
      if (it == inlinedOfCall.end()) continue;  // no code left of that copy
      int callee = m_.inlinedCalls[size_t(dv.inlineSite)].callee;
      int origin = -1;
      if (dv.param > 0) {
        abstractDie(callee);
        const std::vector<std::pair<int, int>>& ps = abstractParams[size_t(callee)];
        for (const auto& [param, die] : ps)
          if (param == dv.param) origin = die;
      }
      addVar(v, inlinedDie[size_t(it->second)], origin);
    }
  }
  uint32_t unitLength = t.layout();

  // .debug_abbrev
  out_.switchSection(fi_.getDwarfAbbrevSection());
  llvm::MCSymbol* abbrevStart = ctx_.createTempSymbol("debug_abbrev_start", true);
  out_.emitLabel(abbrevStart);
  for (size_t i = 0; i < t.abbrevs.size(); i++) {
    const std::vector<unsigned>& k = t.abbrevs[i];
    out_.emitULEB128IntValue(i + 1);
    out_.emitULEB128IntValue(k[0]);
    out_.emitIntValue(k[1], 1);
    for (size_t j = 2; j + 1 < k.size(); j += 2) {
      out_.emitULEB128IntValue(k[j]);
      out_.emitULEB128IntValue(k[j + 1]);
    }
    out_.emitIntValue(0, 1);
    out_.emitIntValue(0, 1);
  }
  out_.emitIntValue(0, 1);

  // .debug_info
  out_.switchSection(fi_.getDwarfInfoSection());
  out_.emitIntValue(unitLength, 4);
  out_.emitIntValue(4, 2);  // DWARF version
  out_.emitSymbolValue(abbrevStart, 4);
  out_.emitIntValue(8, 1);  // address size
  // Pre-order walk; a DIE with children ends with a 0 after them.
  std::function<void(int)> emitDie = [&](int d) {
    const Die& die = t.dies[size_t(d)];
    out_.emitULEB128IntValue(die.abbrev);
    for (const DieAttr& a : die.attrs) {
      switch (a.form) {
        case dw::DW_FORM_string:
          out_.emitBytes(a.str);
          out_.emitIntValue(0, 1);
          break;
        case dw::DW_FORM_data1: out_.emitIntValue(a.u, 1); break;
        case dw::DW_FORM_data2: out_.emitIntValue(a.u, 2); break;
        case dw::DW_FORM_data4:
          if (a.a) out_.emitAbsoluteSymbolDiff(a.a, a.b, 4);
          else out_.emitIntValue(a.u, 4);
          break;
        case dw::DW_FORM_data8: out_.emitIntValue(a.u, 8); break;
        case dw::DW_FORM_udata: out_.emitULEB128IntValue(a.u); break;
        case dw::DW_FORM_sdata: out_.emitSLEB128IntValue(int64_t(a.u)); break;
        case dw::DW_FORM_ref4: out_.emitIntValue(t.dies[size_t(a.u)].offset, 4); break;
        case dw::DW_FORM_addr: out_.emitSymbolValue(a.a, 8); break;
        case dw::DW_FORM_sec_offset: out_.emitSymbolValue(a.a, 4); break;
        case dw::DW_FORM_exprloc:
          out_.emitULEB128IntValue(a.expr.size());
          out_.emitBytes(llvm::StringRef(reinterpret_cast<const char*>(a.expr.data()), a.expr.size()));
          break;
        default: break;  // flag_present: no bytes
      }
    }
    for (int k : die.kids) emitDie(k);
    if (!die.kids.empty()) out_.emitIntValue(0, 1);
  };
  emitDie(0);

  // .debug_loc: (begin, end) relative to the unit's low_pc, the
  // expression's length and bytes; (0, 0) ends a list.
  out_.switchSection(fi_.getDwarfLocSection());
  for (const LocList& l : lists) {
    out_.emitLabel(l.label);
    for (size_t i = 0; i < l.var->ranges.size(); i++) {
      out_.emitAbsoluteSymbolDiff(l.var->ranges[i].first, textBegin_, 8);
      out_.emitAbsoluteSymbolDiff(l.var->ranges[i].second, textBegin_, 8);
      std::vector<uint8_t> e = placeExpression(l.var->places[i]);
      out_.emitIntValue(e.size(), 2);
      out_.emitBytes(llvm::StringRef(reinterpret_cast<const char*>(e.data()), e.size()));
    }
    out_.emitIntValue(0, 8);
    out_.emitIntValue(0, 8);
  }

  // .debug_ranges: (begin, end) relative to the unit's low_pc; (0, 0) ends
  // a list. (Only an empty range at the unit's first byte could look like
  // that end, and every function starts with its prologue, its own code.)
  if (!rangeLists.empty()) out_.switchSection(fi_.getDwarfRangesSection());
  for (const RangeList& l : rangeLists) {
    out_.emitLabel(l.label);
    for (const LabelRange& r : *l.ranges) {
      out_.emitAbsoluteSymbolDiff(r.first, textBegin_, 8);
      out_.emitAbsoluteSymbolDiff(r.second, textBegin_, 8);
    }
    out_.emitIntValue(0, 8);
    out_.emitIntValue(0, 8);
  }
}

}  // namespace simplec::x86_64
