// The allocation differential check (see alloc_check.h): allocate, lower,
// then run both versions on every input and report the first difference.
#include "test/unit/codegen/alloc_check.h"

#include "codegen/frame.h"
#include "codegen/regalloc.h"
#include "lexer/diag.h"

namespace simplec::test {

using namespace mir;

std::string findUnloweredOperands(const MFunction& f) {
  std::string v = findVirtualRegisters(f);
  if (!v.empty()) return v;
  for (size_t b = 0; b < f.blocks.size(); ++b)
    for (const MInst& mi : f.blocks[b].insts)
      for (const Opnd& o : mi.ops)
        if (o.kind == Opnd::Slot || o.kind == Opnd::InArg)
          return "frame operand left in b" + std::to_string(b) + ": " + mopName(mi.op);
  return "";
}

AllocCheck allocateAndCompare(const MFunction& f, const std::vector<InterpConfig>& inputs, bool split) {
  AllocCheck c;
  c.allocated = f;
  try {
    allocateRegisters(c.allocated, split);
    std::string left = findVirtualRegisters(c.allocated);
    if (!left.empty()) {
      c.error = "after allocation: " + left;
      return c;
    }
    lowerFrame(c.allocated);
  } catch (const InternalError& e) {
    c.error = std::string("internal error in ") + e.pass + ": " + e.what();
    return c;
  }
  std::string left = findUnloweredOperands(c.allocated);
  if (!left.empty()) {
    c.error = "after lowering: " + left;
    return c;
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    InterpConfig pre = inputs[i];
    pre.lowered = false;
    InterpConfig post = inputs[i];
    post.lowered = true;
    post.seed = inputs[i].seed * 7919 + 13;  // different garbage
    InterpResult a = runMir(f, pre);
    InterpResult b = runMir(c.allocated, post);
    c.before.push_back(a);
    c.after.push_back(b);
    std::string tag = "input " + std::to_string(i) + ": ";
    if (!a.ok) {
      c.error = tag + "original does not run: " + a.error;
      return c;
    }
    if (!b.ok) {
      c.error = tag + "allocated code fails: " + b.error;
      return c;
    }
    if (a.ret != b.ret) {
      c.error = tag + "return value " + std::to_string(b.ret) + ", expected " +
                std::to_string(a.ret);
      return c;
    }
    if (a.calls != b.calls) {
      c.error = tag + "calls differ";
      for (size_t k = 0; k < a.calls.size() || k < b.calls.size(); ++k)
        c.error += "\n  " + (k < a.calls.size() ? a.calls[k] : "-") + "  vs  " +
                   (k < b.calls.size() ? b.calls[k] : "-");
      return c;
    }
    if (a.heap != b.heap) {
      c.error = tag + "heap differs";
      return c;
    }
  }
  return c;
}

}  // namespace simplec::test
