// Module-level emission: one fresh MCContext per output, the module's
// symbols created up front, then .text (functions, 16-byte aligned, typed
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
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCDwarf.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCObjectFileInfo.h"
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
    ctx.setUseNamesOnTempLabels(true);  // readable labels in assembly output
    ctx.setDiagnosticHandler([this](const llvm::SMDiagnostic& d, bool, const llvm::SourceMgr&,
                                    std::vector<const llvm::MDNode*>&) {
      if (!diags.empty()) diags += "; ";
      diags += d.getMessage().str();
    });
  }
};

bool isPowerOfTwo(int v) { return v > 0 && (v & (v - 1)) == 0; }

// Creates every named symbol before any temporary label exists (see
// McSymbols). Returns false on a name defined twice.
bool collectSymbols(const mir::MModule& m, llvm::MCContext& ctx, McSymbols* syms,
                    std::string* err) {
  auto add = [&](const std::string& name) {
    if (!syms->byName.count(name)) syms->byName[name] = ctx.getOrCreateSymbol(name);
  };
  auto define = [&](const std::string& name, const char* what) {
    if (name.empty()) {
      *err = std::string("a ") + what + " has an empty symbol name";
      return false;
    }
    if (!syms->defined.insert(name).second) {
      *err = "symbol '" + name + "' is defined twice";
      return false;
    }
    add(name);
    return true;
  };
  for (const mir::MFunction& f : m.funcs)
    if (!define(f.name, "function")) return false;
  for (const mir::DataItem& d : m.rodata)
    if (!define(d.label, "data item")) return false;
  for (const std::string& e : m.externs)
    if (!e.empty()) add(e);
  std::vector<mir::Symbol> refs;
  for (const mir::MFunction& f : m.funcs) collectSymbolRefs(f, &refs);
  for (mir::Symbol s : refs) {
    if (s.id() < syms->byId.size() && syms->byId[s.id()]) continue;  // seen before
    const std::string& r = s.str();
    add(r);
    // A local label can only be resolved inside this object.
    if (!syms->defined.count(r) && syms->byName[r]->isTemporary()) {
      *err = "reference to undefined local label '" + r + "'";
      return false;
    }
    syms->noteOperandSymbol(s);
  }
  return true;
}

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

// Streams the whole module; the caller then calls finish() on `out`.
bool emitModule(const mir::MModule& m, McSession& s, llvm::MCStreamer& out, bool object, std::string* err) {
  McSymbols syms;
  if (!collectSymbols(m, s.ctx, &syms, err)) return false;
  const llvm::MCSubtargetInfo& sti = *s.t.subtarget;

  if (!m.sourceName.empty()) out.emitFileDirective(m.sourceName);
  unsigned dwarfFile = m.debugLines && !m.sourceName.empty() ? setUpLineTable(m, s, out, object) : 0;

  out.switchSection(s.fileInfo->getTextSection());
  McLowering lower(s.t, s.ctx, out, syms);
  lower.setDwarfFile(dwarfFile, m.sourceName);
  CfiWriter cfi(s.t, out);
  CallTable calls;
  lower.setCfi(&cfi);
  lower.setCallTable(&calls);
  std::unique_ptr<DebugInfoWriter> debugInfo;
  if (dwarfFile && object && m.debugVars) {
    debugInfo = std::make_unique<DebugInfoWriter>(m, s.ctx, *s.fileInfo, out);
    debugInfo->beginText();
  }
  for (size_t i = 0; i < m.funcs.size(); ++i) {
    const mir::MFunction& f = m.funcs[i];
    llvm::MCSymbol* sym = syms.get(f.name);
    out.emitCodeAlignment(llvm::Align(16), &sti);
    if (f.global) out.emitSymbolAttribute(sym, llvm::MCSA_Global);
    out.emitSymbolAttribute(sym, llvm::MCSA_ELF_TypeFunction);
    out.emitLabel(sym);
    if (dwarfFile && object && !debugInfo)
      s.ctx.addMCGenDwarfLabelEntry(llvm::MCGenDwarfLabelEntry(f.name, dwarfFile, firstLine(f), sym));
    cfi.beginFunction();
    if (debugInfo) debugInfo->beginFunction(f, sym, lower);
    lower.lowerFunction(f, int(i));
    cfi.endFunction();
    llvm::MCSymbol* end = s.ctx.createTempSymbol("func_end", true);
    out.emitLabel(end);
    if (debugInfo) debugInfo->endFunction(end);
    out.emitELFSize(
        sym, llvm::MCBinaryExpr::createSub(llvm::MCSymbolRefExpr::create(end, s.ctx),
                                           llvm::MCSymbolRefExpr::create(sym, s.ctx), s.ctx));
  }

  if (debugInfo) debugInfo->endText();

  if (!m.rodata.empty()) {
    out.switchSection(s.fileInfo->getReadOnlySection());
    for (const mir::DataItem& d : m.rodata) {
      if (!isPowerOfTwo(d.align) || d.align > 4096) {
        *err = "data item '" + d.label + "' has invalid alignment " + std::to_string(d.align);
        return false;
      }
      llvm::MCSymbol* sym = syms.get(d.label);
      out.emitValueToAlignment(llvm::Align(uint64_t(d.align)));
      if (!sym->isTemporary()) {
        out.emitSymbolAttribute(sym, llvm::MCSA_ELF_TypeObject);
        out.emitELFSize(sym, llvm::MCConstantExpr::create(int64_t(d.bytes.size()), s.ctx));
      }
      out.emitLabel(sym);
      out.emitBytes(d.bytes);
    }
  }

  emitStackTable(m, syms, s.ctx, out);
  calls.emit(m, syms, s.ctx, out);
  if (debugInfo) debugInfo->finish();
  out.switchSection(s.t.asmInfo->getNonexecutableStackSection(s.ctx));
  return true;
}

bool checkDiags(McSession& s, std::string* err) {
  if (!s.ctx.hadError() && s.diags.empty()) return true;
  *err = "machine code emission failed: " + (s.diags.empty() ? "unknown MC error" : s.diags);
  return false;
}

}  // namespace

bool writeObjectToMemory(const mir::MModule& m, std::vector<uint8_t>* outBytes, std::string* err) {
  const McTarget* t = McTarget::get(err);
  if (!t) return false;
  McSession s(*t);
  llvm::SmallVector<char, 0> buffer;
  {
    llvm::raw_svector_ostream os(buffer);
    std::unique_ptr<llvm::MCAsmBackend> backend(
        t->target->createMCAsmBackend(*t->subtarget, *t->regInfo, t->options));
    std::unique_ptr<llvm::MCCodeEmitter> codeEmitter(
        t->target->createMCCodeEmitter(*t->instrInfo, s.ctx));
    if (!backend || !codeEmitter) {
      *err = "LLVM X86 target: cannot create the assembler back end";
      return false;
    }
    std::unique_ptr<llvm::MCObjectWriter> writer = backend->createObjectWriter(os);
    std::unique_ptr<llvm::MCStreamer> streamer(
        t->target->createMCObjectStreamer(t->triple, s.ctx, std::move(backend), std::move(writer),
                                          std::move(codeEmitter), *t->subtarget));
    if (!streamer) {
      *err = "LLVM X86 target: cannot create the object streamer";
      return false;
    }
    streamer->initSections(/*NoExecStack=*/false, *t->subtarget);
    if (!emitModule(m, s, *streamer, true, err)) return false;
    if (!checkDiags(s, err)) return false;
    streamer->finish();
    if (!checkDiags(s, err)) return false;
  }
  outBytes->assign(buffer.begin(), buffer.end());
  return true;
}

bool writeObject(const mir::MModule& m, const std::string& path, std::string* err) {
  std::vector<uint8_t> bytes;
  if (!writeObjectToMemory(m, &bytes, err)) return false;
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

bool writeAssembly(const mir::MModule& m, std::string* out, std::string* err) {
  const McTarget* t = McTarget::get(err);
  if (!t) return false;
  McSession s(*t);
  std::string text;
  {
    llvm::raw_string_ostream os(text);
    // AT&T is syntax variant 0; the streamer takes ownership of the printer.
    llvm::MCInstPrinter* printer =
        t->target->createMCInstPrinter(t->triple, 0, *t->asmInfo, *t->instrInfo, *t->regInfo);
    if (!printer) {
      *err = "LLVM X86 target: cannot create the instruction printer";
      return false;
    }
    std::unique_ptr<llvm::MCStreamer> streamer(t->target->createAsmStreamer(
        s.ctx, std::make_unique<llvm::formatted_raw_ostream>(os), printer, nullptr, nullptr));
    if (!streamer) {
      *err = "LLVM X86 target: cannot create the assembly streamer";
      return false;
    }
    streamer->initSections(/*NoExecStack=*/false, *t->subtarget);
    if (!emitModule(m, s, *streamer, false, err)) return false;
    streamer->finish();
    if (!checkDiags(s, err)) return false;
    streamer.reset();  // flushes the formatted stream into `os`
    os.flush();
  }
  *out = std::move(text);
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
