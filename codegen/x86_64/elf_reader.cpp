// Reads ELF64 relocatable objects back: section headers, section names,
// symbols (with their names) and SHT_RELA relocations attached to the
// section they apply to. All reads go through `fetch`, which checks bounds.
#include "codegen/x86_64/elf_reader.h"

#include <elf.h>

#include <cstring>

namespace simplec::x86_64 {
namespace {

class Reader {
 public:
  explicit Reader(const std::vector<uint8_t>& b) : b_(b) {}

  template <typename T>
  bool fetch(uint64_t off, T* out) const {
    if (off > b_.size() || b_.size() - off < sizeof(T)) return false;
    std::memcpy(out, b_.data() + off, sizeof(T));
    return true;
  }
  bool range(uint64_t off, uint64_t size) const {
    return off <= b_.size() && size <= b_.size() - off;
  }
  // A NUL-terminated string inside [tabOff, tabOff + tabSize).
  bool str(uint64_t tabOff, uint64_t tabSize, uint64_t idx, std::string* out) const {
    if (!range(tabOff, tabSize) || idx >= tabSize) return false;
    const char* p = reinterpret_cast<const char*>(b_.data() + tabOff + idx);
    size_t max = size_t(tabSize - idx);
    size_t n = strnlen(p, max);
    if (n == max) return false;
    out->assign(p, n);
    return true;
  }
  const uint8_t* data() const { return b_.data(); }

 private:
  const std::vector<uint8_t>& b_;
};

}  // namespace

const ElfSection* ElfObject::section(const std::string& name) const {
  for (const ElfSection& s : sections)
    if (s.name == name) return &s;
  return nullptr;
}

const ElfSymbol* ElfObject::symbol(const std::string& name) const {
  for (const ElfSymbol& s : symbols)
    if (s.name == name) return &s;
  return nullptr;
}

bool readElf(const std::vector<uint8_t>& bytes, ElfObject* out, std::string* err) {
  Reader r(bytes);
  *out = ElfObject{};
  Elf64_Ehdr eh;
  if (!r.fetch(0, &eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB) {
    *err = "not an ELF64 little-endian object";
    return false;
  }
  if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 || eh.e_shstrndx >= eh.e_shnum) {
    *err = "bad ELF section header table";
    return false;
  }
  std::vector<Elf64_Shdr> sh(eh.e_shnum);
  for (unsigned i = 0; i < eh.e_shnum; ++i)
    if (!r.fetch(eh.e_shoff + uint64_t(i) * sizeof(Elf64_Shdr), &sh[i])) {
      *err = "truncated ELF section header table";
      return false;
    }
  const Elf64_Shdr& names = sh[eh.e_shstrndx];
  out->sections.resize(eh.e_shnum);
  for (unsigned i = 0; i < eh.e_shnum; ++i) {
    ElfSection& s = out->sections[i];
    if (!r.str(names.sh_offset, names.sh_size, sh[i].sh_name, &s.name)) {
      *err = "bad ELF section name";
      return false;
    }
    s.type = sh[i].sh_type;
    s.flags = sh[i].sh_flags;
    s.align = sh[i].sh_addralign;
    if (sh[i].sh_type != SHT_NOBITS && sh[i].sh_type != SHT_NULL) {
      if (!r.range(sh[i].sh_offset, sh[i].sh_size)) {
        *err = "ELF section '" + s.name + "' out of range";
        return false;
      }
      s.bytes.assign(r.data() + sh[i].sh_offset, r.data() + sh[i].sh_offset + sh[i].sh_size);
    }
  }

  // Symbols (with section symbols named after their section).
  std::vector<std::string> symNames;
  for (unsigned i = 0; i < eh.e_shnum; ++i) {
    if (sh[i].sh_type != SHT_SYMTAB) continue;
    if (sh[i].sh_link >= eh.e_shnum) {
      *err = "bad ELF symbol string table link";
      return false;
    }
    const Elf64_Shdr& strtab = sh[sh[i].sh_link];
    uint64_t count = sh[i].sh_size / sizeof(Elf64_Sym);
    for (uint64_t k = 0; k < count; ++k) {
      Elf64_Sym sym;
      if (!r.fetch(sh[i].sh_offset + k * sizeof(Elf64_Sym), &sym)) {
        *err = "truncated ELF symbol table";
        return false;
      }
      ElfSymbol s;
      if (!r.str(strtab.sh_offset, strtab.sh_size, sym.st_name, &s.name)) {
        *err = "bad ELF symbol name";
        return false;
      }
      s.bind = ELF64_ST_BIND(sym.st_info);
      s.type = ELF64_ST_TYPE(sym.st_info);
      s.shndx = sym.st_shndx;
      s.value = sym.st_value;
      s.size = sym.st_size;
      if (s.type == STT_SECTION && s.shndx < eh.e_shnum) s.name = out->sections[s.shndx].name;
      symNames.push_back(s.name);
      if (k != 0) out->symbols.push_back(s);
    }
    break;  // relocatable objects have one symbol table
  }

  for (unsigned i = 0; i < eh.e_shnum; ++i) {
    if (sh[i].sh_type != SHT_RELA) continue;
    if (sh[i].sh_info >= eh.e_shnum) {
      *err = "bad ELF relocation section target";
      return false;
    }
    uint64_t count = sh[i].sh_size / sizeof(Elf64_Rela);
    for (uint64_t k = 0; k < count; ++k) {
      Elf64_Rela rel;
      if (!r.fetch(sh[i].sh_offset + k * sizeof(Elf64_Rela), &rel)) {
        *err = "truncated ELF relocation section";
        return false;
      }
      ElfReloc x;
      x.offset = rel.r_offset;
      x.type = uint32_t(ELF64_R_TYPE(rel.r_info));
      uint64_t symIndex = ELF64_R_SYM(rel.r_info);
      if (symIndex >= symNames.size()) {
        *err = "ELF relocation names a nonexistent symbol";
        return false;
      }
      x.symbol = symNames[symIndex];
      x.addend = rel.r_addend;
      out->sections[sh[i].sh_info].relocs.push_back(x);
    }
  }
  return true;
}

}  // namespace simplec::x86_64
