// -g: DWARF debugging information entries built as a tree before any byte
// is written, so that every DIE's offset is known when another refers to
// it (references are 4-byte offsets into the unit); abbreviations are
// shared by DIEs of the same shape (tag, children, attributes and forms).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "codegen/x86_64/dwarf_encoding.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/MC/MCSymbol.h"

namespace simplec::x86_64 {

namespace dw = llvm::dwarf;

struct DieAttr {
  dw::Attribute at;
  dw::Form form;
  uint64_t u = 0;            // constants; ref: target DIE index
  std::string str;
  std::vector<uint8_t> expr;
  llvm::MCSymbol* a = nullptr;  // addr / sec_offset symbol, or the high end of a difference
  llvm::MCSymbol* b = nullptr;  // the low end of a difference
};

struct Die {
  dw::Tag tag;
  std::vector<DieAttr> attrs;
  std::vector<int> kids;
  uint32_t offset = 0;
  unsigned abbrev = 0;
};

class DieTree {
 public:
  int add(dw::Tag tag, int parent) {
    dies.push_back({tag, {}, {}, 0, 0});
    if (parent >= 0) dies[size_t(parent)].kids.push_back(int(dies.size() - 1));
    return int(dies.size() - 1);
  }
  DieAttr& attr(int d, dw::Attribute at, dw::Form form) {
    DieAttr& a = dies[size_t(d)].attrs.emplace_back();
    a.at = at;
    a.form = form;
    return a;
  }
  void str(int d, dw::Attribute at, const std::string& s) { attr(d, at, dw::DW_FORM_string).str = s; }
  void num(int d, dw::Attribute at, dw::Form form, uint64_t v) { attr(d, at, form).u = v; }
  void ref(int d, dw::Attribute at, int target) { attr(d, at, dw::DW_FORM_ref4).u = uint64_t(target); }
  void flag(int d, dw::Attribute at) { attr(d, at, dw::DW_FORM_flag_present); }
  void expr(int d, dw::Attribute at, std::vector<uint8_t> e) { attr(d, at, dw::DW_FORM_exprloc).expr = std::move(e); }
  void addr(int d, dw::Attribute at, llvm::MCSymbol* s) { attr(d, at, dw::DW_FORM_addr).a = s; }
  void secOffset(int d, dw::Attribute at, llvm::MCSymbol* s) { attr(d, at, dw::DW_FORM_sec_offset).a = s; }
  void diff(int d, dw::Attribute at, llvm::MCSymbol* hi, llvm::MCSymbol* lo) {
    DieAttr& a = attr(d, at, dw::DW_FORM_data4);
    a.a = hi;
    a.b = lo;
  }

  static unsigned size(const DieAttr& a) {
    switch (a.form) {
      case dw::DW_FORM_string: return unsigned(a.str.size() + 1);
      case dw::DW_FORM_data1: return 1;
      case dw::DW_FORM_data2: return 2;
      case dw::DW_FORM_data4: case dw::DW_FORM_ref4: case dw::DW_FORM_sec_offset: return 4;
      case dw::DW_FORM_data8: case dw::DW_FORM_addr: return 8;
      case dw::DW_FORM_udata: return ulebSize(a.u);
      case dw::DW_FORM_sdata: return slebSize(int64_t(a.u));
      case dw::DW_FORM_exprloc: return unsigned(ulebSize(a.expr.size()) + a.expr.size());
      default: return 0;  // flag_present
    }
  }

  // Gives every DIE its abbreviation and offset (the unit header is 11
  // bytes); returns the unit's size after its length field.
  uint32_t layout() {
    uint32_t off = 11;
    place(0, off);
    return off - 4;
  }

  std::vector<Die> dies;
  std::vector<std::vector<unsigned>> abbrevs;  // tag, children, (at, form)*

 private:
  void place(int d, uint32_t& off) {
    Die& die = dies[size_t(d)];
    std::vector<unsigned> key{unsigned(die.tag), die.kids.empty() ? 0u : 1u};
    for (const DieAttr& a : die.attrs) {
      key.push_back(unsigned(a.at));
      key.push_back(unsigned(a.form));
    }
    auto it = abbrevIds_.find(key);
    if (it == abbrevIds_.end()) {
      abbrevs.push_back(key);
      it = abbrevIds_.emplace(key, unsigned(abbrevs.size())).first;
    }
    die.abbrev = it->second;
    die.offset = off;
    off += ulebSize(die.abbrev);
    for (const DieAttr& a : die.attrs) off += size(a);
    for (int k : die.kids) place(k, off);
    if (!die.kids.empty()) off += 1;  // end of the children
  }
  std::map<std::vector<unsigned>, unsigned> abbrevIds_;
};

}  // namespace simplec::x86_64
