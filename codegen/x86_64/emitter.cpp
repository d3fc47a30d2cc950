// Module-level emission: one fresh MCContext per output, the module's
// symbols created up front, then .text (function by function, as the
// driver hands them over) (functions, 16-byte aligned, typed
// and sized), .rodata (data items), the stack table (stack_table.h) and
// .note.GNU-stack (non-executable stack), streamed either to the ELF object
// writer or to the AT&T printer.
// Nothing in it depends on addresses or time, so the output is reproducible.
#include "codegen/x86_64/emitter.h"

#include <cstdio>
#include <memory>

#include "codegen/x86_64/call_table.h"
#include "codegen/x86_64/cfi.h"
#include "codegen/x86_64/debug_info_writer.h"
#include "codegen/x86_64/elf_reader.h"
#include "codegen/x86_64/mc_context.h"
#include "codegen/x86_64/mc_lower.h"
#include "codegen/x86_64/stack_table.h"
#include "lexer/diag.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/MC/MCAsmBackend.h"
#include "llvm/MC/MCAssembler.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCDwarf.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCObjectStreamer.h"
#include "llvm/MC/MCObjectWriter.h"
#include "llvm/Support/FormattedStream.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace simplec::x86_64 {
namespace {

// One MCContext (symbols, sections) for one output; collects MC errors.
struct McSession {
  const McTarget& t;
  llvm::MCContext ctx;
  std::unique_ptr<llvm::MCObjectFileInfo> fileInfo;
  std::string diags;

  explicit McSession(const McTarget& target)
      : t(target),
        ctx(target.triple, target.asmInfo.get(), target.regInfo.get(), target.subtarget.get(),
            nullptr, &target.options) {
    fileInfo.reset(t.target->createMCObjectFileInfo(ctx, /*PIC=*/true));
    ctx.setObjectFileInfo(fileInfo.get());
    ctx.setUseNamesOnTempLabels(true);  // readable labels in assembly output (ModuleWriter::begin: not in objects)
    ctx.setDiagnosticHandler([this](const llvm::SMDiagnostic& d, bool, const llvm::SourceMgr&,
                                    std::vector<const llvm::MDNode*>&) {
      if (!diags.empty()) diags += "; ";
      diags += d.getMessage().str();
    });
  }
};

bool isPowerOfTwo(int v) { return v > 0 && (v & (v - 1)) == 0; }

// -g: DWARF 4 line tables for the source file. In an object the compile
// unit that points at them comes from debug_info_writer.h when the module
// has variables (m.debugVars), else from MC as for an assembler's -g; in
// assembly text the .file/.loc directives are enough, the assembler makes
// the rest. Returns the source's DWARF file number.
unsigned setUpLineTable(const mir::MModule& m, McSession& s, llvm::MCStreamer& out, bool object) {
  s.ctx.setDwarfVersion(4);
  s.ctx.setCompilationDir(m.compDir);
  s.ctx.setDwarfDebugProducer("simplec");
  // With variables (-g), debug_info_writer.h makes the compile unit instead.
  s.ctx.setGenDwarfForAssembly(object && !m.debugVars);
  if (!object) {
    // MC would print `.file 1 "dir" "name"`, which GNU as takes only for
    // DWARF 5: name the file in one string.
    std::string quoted;
    for (char c : m.sourceName) {
      auto u = static_cast<unsigned char>(c);
      if (u < 0x20 || u >= 0x7f) {
        char oct[8];
        std::snprintf(oct, sizeof oct, "\\%03o", u);
        quoted += oct;
        continue;
      }
      if (c == '"' || c == '\\') quoted += '\\';
      quoted += c;
    }
    out.emitRawText("\t.file\t1 \"" + quoted + "\"");
    return 1;
  }
  unsigned file = out.emitDwarfFileDirective(1, "", m.sourceName);
  s.ctx.setGenDwarfFileNumber(file);
  llvm::MCSection* text = s.fileInfo->getTextSection();
  out.switchSection(text);
  s.ctx.addGenDwarfSection(text);
  return file;
}

// The line of a function's first instruction that has one, or 0.
uint32_t firstLine(const mir::MFunction& f) {
  for (const mir::MBlock& b : f.blocks)
    for (const mir::MInst& mi : b.insts)
      if (mi.line) return mi.line;
  return 0;
}

bool checkDiags(McSession& s, std::string* err) {
  if (!s.ctx.hadError() && s.diags.empty()) return true;
  *err = "machine code emission failed: " + (s.diags.empty() ? "unknown MC error" : s.diags);
  return false;
}

}  // namespace

// The output being written: MC's session and streamer, the symbols, and
// what the tables after .text need of the functions already lowered.
struct ModuleWriter::State {
  const McTarget& t;
  McSession s;
  llvm::SmallVector<char, 0> objectBytes;
  std::string asmText;
  std::unique_ptr<llvm::raw_svector_ostream> objectStream;
  std::unique_ptr<llvm::raw_string_ostream> asmStream;
  std::unique_ptr<llvm::MCStreamer> out;
  McSymbols syms;
  std::unique_ptr<McLowering> lower;
  std::unique_ptr<CfiWriter> cfi;
  CallTable calls;
  std::unique_ptr<DebugInfoWriter> debugInfo;
  unsigned dwarfFile = 0;
  int funcIndex = 0;
  size_t rodataDefined = 0;         // header.rodata items defined so far
  std::vector<StackEntry> stack;    // the functions lowered, for the stack table
  std::vector<std::string> localRefs;  // local labels referenced before their data was defined

  explicit State(const McTarget& target) : t(target), s(target) {}

  void add(const std::string& name) {
    if (!syms.byName.count(name)) syms.byName[name] = s.ctx.getOrCreateSymbol(name);
  }
  bool define(const std::string& name, const char* what, std::string* err) {
    if (name.empty()) {
      *err = std::string("a ") + what + " has an empty symbol name";
      return false;
    }
    if (!syms.defined.insert(name).second) {
      *err = "symbol '" + name + "' is defined twice";
      return false;
    }
    add(name);
    return true;
  }
  bool defineData(const mir::MModule& m, std::string* err) {
    for (; rodataDefined < m.rodata.size(); rodataDefined++)
      if (!define(m.rodata[rodataDefined].label, "data item", err)) return false;
    return true;
  }
};

ModuleWriter::ModuleWriter(const mir::MModule& header, Form form) : header_(header), form_(form) {}
ModuleWriter::~ModuleWriter() = default;

bool ModuleWriter::begin(const std::vector<std::string>& functionNames, std::string* err) {
  const McTarget* t = McTarget::get(err);
  if (!t) return false;
  s_ = std::make_unique<State>(*t);
  State& st = *s_;
  bool object = form_ == Form::Object;
  if (object) {
    // An object's temporary labels never reach its symbol table: unnamed,
    // they cost no name and no entry in MC's symbol map.
    st.s.ctx.setUseNamesOnTempLabels(false);
    st.objectStream = std::make_unique<llvm::raw_svector_ostream>(st.objectBytes);
    std::unique_ptr<llvm::MCAsmBackend> backend(
        t->target->createMCAsmBackend(*t->subtarget, *t->regInfo, t->options));
    std::unique_ptr<llvm::MCCodeEmitter> codeEmitter(t->target->createMCCodeEmitter(*t->instrInfo, st.s.ctx));
    if (!backend || !codeEmitter) {
      *err = "LLVM X86 target: cannot create the assembler back end";
      return false;
    }
    std::unique_ptr<llvm::MCObjectWriter> writer = backend->createObjectWriter(*st.objectStream);
    st.out.reset(t->target->createMCObjectStreamer(t->triple, st.s.ctx, std::move(backend), std::move(writer),
                                                   std::move(codeEmitter), *t->subtarget));
    if (!st.out) {
      *err = "LLVM X86 target: cannot create the object streamer";
      return false;
    }
    if (header_.longJumps) static_cast<llvm::MCObjectStreamer&>(*st.out).getAssembler().setRelaxAll(true);
  } else {
    st.asmStream = std::make_unique<llvm::raw_string_ostream>(st.asmText);
    // AT&T is syntax variant 0; the streamer takes ownership of the printer.
    llvm::MCInstPrinter* printer =
        t->target->createMCInstPrinter(t->triple, 0, *t->asmInfo, *t->instrInfo, *t->regInfo);
    if (!printer) {
      *err = "LLVM X86 target: cannot create the instruction printer";
      return false;
    }
    st.out.reset(t->target->createAsmStreamer(st.s.ctx, std::make_unique<llvm::formatted_raw_ostream>(*st.asmStream),
                                              printer, nullptr, nullptr));
    if (!st.out) {
      *err = "LLVM X86 target: cannot create the assembly streamer";
      return false;
    }
  }
  llvm::MCStreamer& out = *st.out;
  out.initSections(/*NoExecStack=*/false, *t->subtarget);
  // Every named symbol is created before any temporary label exists (see
  // McSymbols); the data labels that isel makes later (.Lflt.*) are of a
  // form no temporary label takes.
  for (const std::string& f : functionNames)
    if (!st.define(f, "function", err)) return false;
  if (!st.defineData(header_, err)) return false;
  for (const std::string& e : header_.externs)
    if (!e.empty()) st.add(e);

  const mir::MModule& m = header_;
  if (!m.sourceName.empty()) out.emitFileDirective(m.sourceName);
  st.dwarfFile = m.debugLines && !m.sourceName.empty() ? setUpLineTable(m, st.s, out, object) : 0;
  out.switchSection(st.s.fileInfo->getTextSection());
  st.lower = std::make_unique<McLowering>(st.t, st.s.ctx, out, st.syms);
  st.lower->setDwarfFile(st.dwarfFile, m.sourceName);
  st.cfi = std::make_unique<CfiWriter>(st.t, out);
  st.lower->setCfi(st.cfi.get());
  st.lower->setCallTable(&st.calls);
  if (st.dwarfFile && object && m.debugVars) {
    st.debugInfo = std::make_unique<DebugInfoWriter>(m, st.s.ctx, *st.s.fileInfo, out);
    st.debugInfo->beginText();
  }
  return true;
}

bool ModuleWriter::addFunction(const mir::MFunction& f, std::string* err) {
  State& st = *s_;
  // The symbols its operands name; a local label must be data of this module.
  std::vector<mir::Symbol> refs;
  collectSymbolRefs(f, &refs);
  for (mir::Symbol r : refs) {
    if (r.id() < st.syms.byId.size() && st.syms.byId[r.id()]) continue;  // seen before
    const std::string& name = r.str();
    st.add(name);
    llvm::MCSymbol* sym = st.syms.byName[name];
    if (sym->isTemporary() && !st.syms.defined.count(name)) {
      st.syms.defined.insert(name);  // checked against the data at finish()
      st.localRefs.push_back(name);
    }
    st.syms.noteOperandSymbol(r);
  }

  llvm::MCStreamer& out = *st.out;
  const llvm::MCSubtargetInfo& sti = *st.t.subtarget;
  bool object = form_ == Form::Object;
  llvm::MCSymbol* sym = st.syms.get(f.name);
  out.emitCodeAlignment(llvm::Align(16), &sti);
  if (f.global) out.emitSymbolAttribute(sym, llvm::MCSA_Global);
  out.emitSymbolAttribute(sym, llvm::MCSA_ELF_TypeFunction);
  out.emitLabel(sym);
  if (st.dwarfFile && object && !st.debugInfo)
    st.s.ctx.addMCGenDwarfLabelEntry(llvm::MCGenDwarfLabelEntry(f.name, st.dwarfFile, firstLine(f), sym));
  st.cfi->beginFunction();
  if (st.debugInfo) st.debugInfo->beginFunction(f, sym, *st.lower);
  st.lower->lowerFunction(f, st.funcIndex++);
  st.cfi->endFunction();
  llvm::MCSymbol* end = st.s.ctx.createTempSymbol("func_end", true);
  out.emitLabel(end);
  if (st.debugInfo) st.debugInfo->endFunction(end);
  out.emitELFSize(sym, llvm::MCBinaryExpr::createSub(llvm::MCSymbolRefExpr::create(end, st.s.ctx),
                                                     llvm::MCSymbolRefExpr::create(sym, st.s.ctx), st.s.ctx));
  st.stack.push_back({f.name, f.file, f.line, f.col, f.probeBlock ? st.lower->blockLabel(size_t(f.probeBlock)) : nullptr});
  return !st.s.ctx.hadError() || checkDiags(st.s, err);
}

bool ModuleWriter::finish(std::string* err) {
  State& st = *s_;
  const mir::MModule& m = header_;
  llvm::MCStreamer& out = *st.out;
  // The data isel added while the functions were lowered.
  for (const std::string& r : st.localRefs) st.syms.defined.erase(r);
  if (!st.defineData(m, err)) return false;
  for (const std::string& r : st.localRefs)
    if (!st.syms.defined.count(r)) {
      *err = "reference to undefined local label '" + r + "'";
      return false;
    }

  if (st.debugInfo) st.debugInfo->endText();
  if (!m.rodata.empty()) {
    out.switchSection(st.s.fileInfo->getReadOnlySection());
    for (const mir::DataItem& d : m.rodata) {
      if (!isPowerOfTwo(d.align) || d.align > 4096) {
        *err = "data item '" + d.label + "' has invalid alignment " + std::to_string(d.align);
        return false;
      }
      llvm::MCSymbol* sym = st.syms.get(d.label);
      out.emitValueToAlignment(llvm::Align(uint64_t(d.align)));
      if (!sym->isTemporary()) {
        out.emitSymbolAttribute(sym, llvm::MCSA_ELF_TypeObject);
        out.emitELFSize(sym, llvm::MCConstantExpr::create(int64_t(d.bytes.size()), st.s.ctx));
      }
      out.emitLabel(sym);
      out.emitBytes(d.bytes);
    }
  }
  emitStackTable(m, st.stack, st.syms, st.s.ctx, out);
  st.calls.emit(m, st.syms, st.s.ctx, out);
  if (st.debugInfo) st.debugInfo->finish();
  out.switchSection(st.t.asmInfo->getNonexecutableStackSection(st.s.ctx));
  if (form_ == Form::Object && !checkDiags(st.s, err)) return false;
  out.finish();
  if (!checkDiags(st.s, err)) return false;
  st.out.reset();  // flushes the assembly printer's formatted stream
  if (st.asmStream) st.asmStream->flush();
  return true;
}

std::vector<uint8_t> ModuleWriter::takeObject() {
  return std::vector<uint8_t>(s_->objectBytes.begin(), s_->objectBytes.end());
}

std::string ModuleWriter::takeAssembly() { return std::move(s_->asmText); }

bool writeUnit(UnitLowering& lowering, ModuleWriter& w, PassTimer* timer, std::string* err) {
  if (!w.begin(lowering.functionNames(), err)) return false;
  bool lowered = lowering.lowerFunctions([&](mir::MFunction&& f) {
    PassScope t(timer, "encode");
    return w.addFunction(f, err);
  });
  if (!lowered) return false;
  lowering.finishData();
  PassScope t(timer, "encode");
  return w.finish(err);
}

namespace {

// A whole module through a ModuleWriter.
bool writeModule(const mir::MModule& m, ModuleWriter* w, std::string* err) {
  std::vector<std::string> names;
  for (const mir::MFunction& f : m.funcs) names.push_back(f.name);
  if (!w->begin(names, err)) return false;
  for (const mir::MFunction& f : m.funcs)
    if (!w->addFunction(f, err)) return false;
  return w->finish(err);
}

}  // namespace

bool writeObjectToMemory(const mir::MModule& m, std::vector<uint8_t>* outBytes, std::string* err) {
  ModuleWriter w(m, ModuleWriter::Form::Object);
  if (!writeModule(m, &w, err)) return false;
  *outBytes = w.takeObject();
  return true;
}

bool writeObjectBytes(const std::vector<uint8_t>& bytes, const std::string& path, std::string* err) {
  // Write the whole object or report why not; never leave a silent partial.
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) {
    *err = "cannot open '" + path + "' for writing";
    return false;
  }
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  ok = (std::fclose(f) == 0) && ok;
  if (!ok) {
    std::remove(path.c_str());
    *err = "cannot write '" + path + "'";
    return false;
  }
  return true;
}

bool writeObject(const mir::MModule& m, const std::string& path, std::string* err) {
  std::vector<uint8_t> bytes;
  return writeObjectToMemory(m, &bytes, err) && writeObjectBytes(bytes, path, err);
}

bool writeAssembly(const mir::MModule& m, std::string* out, std::string* err) {
  ModuleWriter w(m, ModuleWriter::Form::Assembly);
  if (!writeModule(m, &w, err)) return false;
  *out = w.takeAssembly();
  return true;
}

std::vector<uint8_t> encodeFunctionForTest(const mir::MFunction& f) {
  mir::MModule m;
  m.funcs.push_back(f);
  m.funcs.back().global = true;
  std::vector<uint8_t> bytes;
  std::string err;
  ElfObject obj;
  if (!writeObjectToMemory(m, &bytes, &err) || !readElf(bytes, &obj, &err))
    throw InternalError("emit", err);
  const ElfSection* text = obj.section(".text");
  if (!text) throw InternalError("emit", "object has no .text section");
  return text->bytes;
}

}  // namespace simplec::x86_64
