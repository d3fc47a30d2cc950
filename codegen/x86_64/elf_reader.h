// ElfObject: a small, bounds-checked reader for ELF64 little-endian
// relocatable objects: sections with their bytes, RELA relocations and the
// symbol table. Used to check what the emitter wrote (tests, self-checks);
// it never trusts the input: every offset is range-checked before use.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace simplec::x86_64 {

struct ElfReloc {
  uint64_t offset = 0;
  uint32_t type = 0;   // R_X86_64_*
  std::string symbol;  // the symbol's name; a section symbol's section name
  int64_t addend = 0;
};

struct ElfSymbol {
  std::string name;
  uint8_t bind = 0, type = 0;  // STB_*, STT_*
  uint16_t shndx = 0;
  uint64_t value = 0, size = 0;
};

struct ElfSection {
  std::string name;
  uint32_t type = 0;
  uint64_t flags = 0, align = 0;
  std::vector<uint8_t> bytes;    // empty for SHT_NOBITS
  std::vector<ElfReloc> relocs;  // from the matching .rela section
};

struct ElfObject {
  std::vector<ElfSection> sections;  // in section-header order
  std::vector<ElfSymbol> symbols;    // symbol-table order, entry 0 skipped

  const ElfSection* section(const std::string& name) const;
  const ElfSymbol* symbol(const std::string& name) const;
};

bool readElf(const std::vector<uint8_t>& bytes, ElfObject* out, std::string* err);

}  // namespace simplec::x86_64
