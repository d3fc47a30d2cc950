// Whole-unit lowering: graph -> MIR module, whole or function by function.
#include "codegen/lower.h"

#include "codegen/branch_duplication.h"
#include "codegen/early_return.h"
#include "codegen/frame.h"
#include "codegen/inlined_calls.h"
#include "codegen/isel.h"
#include "codegen/jump_tables.h"
#include "codegen/mir_peephole.h"
#include "codegen/regalloc.h"
#include "codegen/table_base.h"
#include "lexer/diag.h"
#include "son/unit.h"
#include "sched/gcm.h"

namespace simplec {

UnitLowering::UnitLowering(Unit& u, const std::string& sourcePath, const LowerOptions& opts)
    : u_(u), opts_(opts) {
  mir::MModule& m = m_;
  m.sourceName = sourcePath;
  m.debugTypes = u.debugTypes;  // -g (empty otherwise)
  if (u.debugInfo) addInlinedCalls(u, m);
  const std::string names[kNumSrcFiles] = {sourcePath, kSysLibraryPath};
  for (int f = 0; f < kNumSrcFiles; f++) {
    cx_.fileLabels[f] = m.fileLabels[f] = ".Lsrc.file" + (f ? std::to_string(f) : std::string());
    m.rodata.push_back({cx_.fileLabels[f], names[f] + std::string(1, '\0'), 1});
  }
  // A string constant is a read-only u8 array: its length, then its bytes.
  for (size_t i = 0; i < u.strings.size(); i++) {
    std::string bytes(8, '\0');
    uint64_t len = u.strings[i].size();
    for (int b = 0; b < 8; b++) bytes[size_t(b)] = char((len >> (8 * b)) & 0xFF);
    m.rodata.push_back({IselContext::stringLabel(int(i)), bytes + u.strings[i], 8});
  }
  for (const FunInfo& f : u.funs)
    if (f.isExtern) m.externs.push_back(f.symbol);
  m.externs.push_back("__simplec_rt_error");
  m.externs.push_back("__simplec_new_array");
  m.externs.push_back("__simplec_floor");
  m.externs.push_back("__simplec_ceil");
}

std::vector<std::string> UnitLowering::functionNames() const {
  std::vector<std::string> names;
  for (const FunInfo& f : u_.funs)
    if (f.hasBody()) names.push_back(f.symbol);
  return names;
}

bool UnitLowering::lowerFunctions(const std::function<bool(mir::MFunction&&)>& sink) {
  Unit& g = u_;
  const LowerOptions& opts = opts_;
  // Graphs go one by one below: the pool without the optimizer's holes, and
  // spread graphs packed, so that each one's memory goes with it.
  if (opts.dropGraphs) {
    g.defragmentNodes();
    g.packSpreadGraphs();
  }
  for (size_t i = 0; i < g.funs.size(); i++) {
    if (!g.funs[i].hasBody()) continue;
    mir::MFunction mf;
    try {
      {
        // The schedule goes with the graph, before register allocation.
        Schedule s;
        {
          PassScope t(opts.timer, "gcm");
          s = gcm(*g.funs[i].graph);
        }
        PassScope t(opts.timer, "isel");
        mf = selectInstructions(*g.funs[i].graph, s, cx_);
      }
      mf.line = g.funs[i].pos.line;
      mf.col = g.funs[i].pos.col;
      mf.file = g.funs[i].pos.file;
      // The graph is done with: its memory goes before the next function's.
      if (opts.dropGraphs) g.dropGraph(int(i));
      if (opts.allocate) {
        {
          PassScope t(opts.timer, "regalloc");
          allocateRegisters(mf, opts.splitSpilled);
        }
        PassScope t(opts.timer, "machine");
        lowerFrame(mf);
        if (opts.jumpTables && formJumpTables(mf) > 0) hoistTableBases(mf);
        peepholeMachineCode(mf);
        tidyBlockLayout(mf);
        // On the final layout (a jump to the next block costs nothing), then
        // once more to turn `jcc NEXT; jmp B` into one branch.
        if (duplicateBranchBlocks(mf) > 0) tidyBlockLayout(mf);
        if (opts.wrapEarlyReturns) wrapEarlyReturn(mf);
      }
    } catch (InternalError& e) {
      // Name the function, as the pass already named itself.
      std::string what = e.what();
      if (what.find("function '") == std::string::npos) what = "function '" + g.funs[i].name + "': " + what;
      throw InternalError(e.pass, what);
    }
    if (!sink(std::move(mf))) return false;
  }
  return true;
}

void UnitLowering::finishData() {
  mir::MModule& m = m_;
  // The float constants the code loads, little-endian as x86 reads them.
  auto bytesOf = [](uint64_t bits, int n) {
    std::string b;
    for (int i = 0; i < n; i++) b += char((bits >> (8 * (i % 8))) & 0xff);
    return b;
  };
  for (uint64_t bits : cx_.floatConsts) m.rodata.push_back({IselContext::floatLabel(bits), bytesOf(bits, 8), 8});
  if (cx_.usesSignMask) m.rodata.push_back({IselContext::kSignMaskLabel, bytesOf(uint64_t(1) << 63, 16), 16});
  if (cx_.usesAbsMask) m.rodata.push_back({IselContext::kAbsMaskLabel, bytesOf(~(uint64_t(1) << 63), 16), 16});
}

mir::MModule lowerUnit(Unit& u, const std::string& sourcePath, const LowerOptions& opts) {
  UnitLowering l(u, sourcePath, opts);
  mir::MModule& m = l.module();
  l.lowerFunctions([&](mir::MFunction&& f) {
    // Functions wait for the object writer together: hold them at their size.
    for (mir::MBlock& b : f.blocks) b.insts.shrink_to_fit();
    m.funcs.push_back(std::move(f));
    return true;
  });
  l.finishData();
  return std::move(m);
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
