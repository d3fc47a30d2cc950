// Whole-unit lowering: graph -> MIR module.
#include "codegen/lower.h"

#include "codegen/branch_duplication.h"
#include "codegen/frame.h"
#include "codegen/inlined_calls.h"
#include "codegen/isel.h"
#include "codegen/mir_peephole.h"
#include "codegen/regalloc.h"
#include "lexer/diag.h"
#include "son/unit.h"
#include "sched/gcm.h"

namespace simplec {

mir::MModule lowerUnit(Unit& g, const std::string& sourcePath, const LowerOptions& opts) {
  mir::MModule m;
  m.sourceName = sourcePath;
  m.debugTypes = g.debugTypes;  // -g (empty otherwise)
  if (g.debugInfo) addInlinedCalls(g, m);
  IselContext cx;
  const std::string names[kNumSrcFiles] = {sourcePath, kSysLibraryPath};
  for (int f = 0; f < kNumSrcFiles; f++) {
    cx.fileLabels[f] = m.fileLabels[f] = ".Lsrc.file" + (f ? std::to_string(f) : std::string());
    m.rodata.push_back({cx.fileLabels[f], names[f] + std::string(1, '\0'), 1});
  }
  // A string constant is a read-only u8 array: its length, then its bytes.
  for (size_t i = 0; i < g.strings.size(); i++) {
    std::string bytes(8, '\0');
    uint64_t len = g.strings[i].size();
    for (int b = 0; b < 8; b++) bytes[size_t(b)] = char((len >> (8 * b)) & 0xFF);
    m.rodata.push_back({IselContext::stringLabel(int(i)), bytes + g.strings[i], 8});
  }
  for (const FunInfo& f : g.funs)
    if (f.isExtern) m.externs.push_back(f.symbol);
  m.externs.push_back("__simplec_rt_error");
  m.externs.push_back("__simplec_new_array");
  m.externs.push_back("__simplec_floor");
  m.externs.push_back("__simplec_ceil");
  for (size_t i = 0; i < g.funs.size(); i++) {
    if (!g.funs[i].hasBody()) continue;
    try {
      Schedule s;
      {
        PassScope t(opts.timer, "gcm");
        s = gcm(*g.funs[i].graph);
      }
      mir::MFunction mf;
      {
        PassScope t(opts.timer, "isel");
        mf = selectInstructions(*g.funs[i].graph, s, cx);
      }
      mf.line = g.funs[i].pos.line;
      mf.col = g.funs[i].pos.col;
      mf.file = g.funs[i].pos.file;
      // The graph is done with: its memory goes before the next function's.
      if (opts.dropGraphs) g.dropGraph(int(i));
      if (opts.allocate) {
        {
          PassScope t(opts.timer, "regalloc");
          allocateRegisters(mf);
        }
        PassScope t(opts.timer, "machine");
        lowerFrame(mf);
        peepholeMachineCode(mf);
        tidyBlockLayout(mf);
        // On the final layout (a jump to the next block costs nothing), then
        // once more to turn `jcc NEXT; jmp B` into one branch.
        if (duplicateBranchBlocks(mf) > 0) tidyBlockLayout(mf);
      }
      // Functions wait for the object writer together: hold them at their size.
      for (mir::MBlock& b : mf.blocks) b.insts.shrink_to_fit();
      m.funcs.push_back(std::move(mf));
    } catch (InternalError& e) {
      // Name the function, as the pass already named itself.
      std::string what = e.what();
      if (what.find("function '") == std::string::npos) what = "function '" + g.funs[i].name + "': " + what;
      throw InternalError(e.pass, what);
    }
  }
  // The float constants the code loads, little-endian as x86 reads them.
  auto bytesOf = [](uint64_t bits, int n) {
    std::string b;
    for (int i = 0; i < n; i++) b += char((bits >> (8 * (i % 8))) & 0xff);
    return b;
  };
  for (uint64_t bits : cx.floatConsts) m.rodata.push_back({IselContext::floatLabel(bits), bytesOf(bits, 8), 8});
  if (cx.usesSignMask) m.rodata.push_back({IselContext::kSignMaskLabel, bytesOf(uint64_t(1) << 63, 16), 16});
  if (cx.usesAbsMask) m.rodata.push_back({IselContext::kAbsMaskLabel, bytesOf(~(uint64_t(1) << 63), 16), 16});
  return m;
}

std::string printSchedules(const Unit& u) {
  std::string out;
  for (const FunInfo& f : u.funs) {
    if (!f.hasBody()) continue;
    out += "fun " + f.name + ":\n";
    out += printSchedule(*f.graph, gcm(*f.graph));
  }
  return out;
}

}  // namespace simplec
