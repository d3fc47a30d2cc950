// -g: writes .debug_info, .debug_abbrev and .debug_loc (DWARF 4) for a
// module into an object, with MCStreamer directly (only MC is linked): the
// compile unit (language C99, so gdb parses expressions), the types of
// son/debug_info.h, and for each function a DW_TAG_subprogram with its
// parameters and locals, whose locations are the ranges of
// debug_locations.h (labels placed by McLowering), and the calls inlined
// into it (inline_scopes.h) as DW_TAG_inlined_subroutine entries, so that
// gdb shows a frame for each. The line table stays MC's (.debug_line); the
// unit points at it.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "codegen/debug_locations.h"
#include "codegen/mir.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCStreamer.h"

namespace simplec::x86_64 {

class McLowering;

class DebugInfoWriter {
 public:
  DebugInfoWriter(const mir::MModule& m, llvm::MCContext& ctx, const llvm::MCObjectFileInfo& fileInfo,
                  llvm::MCStreamer& out);
  // Call in .text before the first function and after the last one.
  void beginText();
  void endText();
  // Around the lowering of each function: computes its variables' ranges
  // and asks `lower` for labels at their ends.
  void beginFunction(const mir::MFunction& f, llvm::MCSymbol* sym, McLowering& lower);
  void endFunction(llvm::MCSymbol* end);
  // Writes the sections (before the streamer finishes).
  void finish();

  // What finish() needs of a function is copied: its MIR may be freed
  // once it is lowered.
  struct Var {
    mir::DebugVarLoc v;
    std::vector<std::pair<llvm::MCSymbol*, llvm::MCSymbol*>> ranges;  // with places:
    std::vector<DebugPlace> places;
  };
  using LabelRange = std::pair<llvm::MCSymbol*, llvm::MCSymbol*>;
  struct Inlined {
    int call;    // index into MModule::inlinedCalls
    int parent;  // index into Fun::inlined, -1: the function itself
    std::vector<LabelRange> ranges;
  };
  struct Lexical {
    int parent;  // index into Fun::lexical, -1: the function itself
    std::vector<LabelRange> ranges;
  };
  struct Fun {
    std::string name;
    bool global = false;
    SrcFile file = kMainFile;
    uint32_t line = 0;
    llvm::MCSymbol* begin = nullptr;
    llvm::MCSymbol* end = nullptr;
    std::vector<Var> vars;
    std::vector<int> varScope;     // by var: index into lexical, -1: the function
    std::vector<Inlined> inlined;  // parents first
    std::vector<int> inlinedScope; // by inlined call: its lexical block (outermost calls only)
    std::vector<Lexical> lexical;  // parents first; only blocks with code
  };

 private:
  const mir::MModule& m_;
  llvm::MCContext& ctx_;
  const llvm::MCObjectFileInfo& fi_;
  llvm::MCStreamer& out_;
  llvm::MCSymbol* textBegin_ = nullptr;
  llvm::MCSymbol* textEnd_ = nullptr;
  std::vector<Fun> funs_;
};

}  // namespace simplec::x86_64
