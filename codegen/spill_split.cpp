// Splitting spilled values into copies per stretch (see spill_split.h).
// Each block is walked twice: backwards to count, for every read or write
// of a spilled vreg, how many later instructions of its stretch read it;
// then forwards to rewrite, keeping the copy that holds each spilled vreg
// now (cur_). A copy pays off only with a later read in the stretch: a lone
// read keeps the slot as its operand (x86 reads memory in place).
#include "codegen/spill_split.h"

#include <utility>

#include "son/small_vec.h"

namespace simplec {

using namespace mir;

namespace {

bool clobbers(const MInst& mi) { return mi.op == MOp::Call; }

// The spilled vregs an instruction names, and how.
struct Access {
  int v;
  bool read = false;    // as a source, a UseDef operand or an address register
  bool def = false;     // as a Def operand
  bool useDef = false;  // as a UseDef operand
  int later = 0;        // reads of v by later instructions of the stretch
};
using Accesses = SmallVec<Access, 4>;

class Splitter {
 public:
  Splitter(MFunction& f, const std::vector<bool>& spilled, const std::vector<int>& blockFirstInst)
      : f_(f), spilled_(spilled), blockFirstInst_(blockFirstInst),
        later_(f.vregs.size(), 0), cur_(f.vregs.size(), -1) {
    out_.first = int(f.vregs.size());
  }

  SpilledCopies run() {
    for (size_t b = 0; b < f_.blocks.size(); ++b) splitBlock(int(b));
    return std::move(out_);
  }

 private:
  bool splittable(int v) const {
    return v >= 0 && size_t(v) < spilled_.size() && spilled_[size_t(v)] &&
           f_.vregs[size_t(v)] != RegClass::Vec;
  }
  Access& accessOf(Accesses& acc, int v) {
    for (Access& a : acc)
      if (a.v == v) return a;
    acc.push_back(Access{v});
    return acc.back();
  }
  void collect(const MInst& mi, Accesses& acc) {
    acc.clear();
    if (mi.op == MOp::ParMove) return;  // reads and writes the slots
    for (size_t i = 0; i < mi.ops.size(); ++i) {
      const Opnd& o = mi.ops[i];
      if (o.kind == Opnd::VReg && splittable(o.reg)) {
        OpndRole role = operandRole(mi, i);
        Access& a = accessOf(acc, o.reg);
        a.read |= role != OpndRole::Def;
        a.def |= role == OpndRole::Def;
        a.useDef |= role == OpndRole::UseDef;
      } else if (o.kind == Opnd::Mem) {
        if (o.base >= 0 && o.baseVirt && splittable(o.base)) accessOf(acc, o.base).read = true;
        if (o.index >= 0 && o.indexVirt && splittable(o.index)) accessOf(acc, o.index).read = true;
      }
    }
  }
  void forget(std::vector<int>& table, std::vector<int>& touched, int fill) {
    for (int v : touched) table[size_t(v)] = fill;
    touched.clear();
  }
  // (later_ and cur_ are indexed by spilled vregs only, never by a copy.)
  int newCopy(int v, int from) {
    int t = f_.newVReg(f_.vregs[size_t(v)]);
    out_.parent.push_back(v);
    out_.life.push_back(LiveRange{from, from});
    return t;
  }
  // The copy t is used at `pos` (read at 2i, or written at 2i + 1).
  void extend(int t, int pos) {
    LiveRange& r = out_.life[size_t(t - out_.first)];
    if (pos > r.to) r.to = pos;
  }
  // Replaces v by t wherever `mi` reads it (sources, UseDef operands,
  // address registers); Def operands stay.
  static void replaceReads(MInst& mi, int v, int t) {
    for (size_t i = 0; i < mi.ops.size(); ++i) {
      Opnd& o = mi.ops[i];
      if (o.kind == Opnd::VReg && o.reg == v && operandRole(mi, i) != OpndRole::Def) o.reg = t;
      if (o.kind == Opnd::Mem) {
        if (o.base == v && o.baseVirt) o.base = t;
        if (o.index == v && o.indexVirt) o.index = t;
      }
    }
  }
  static void replaceDefs(MInst& mi, int v, int t) {
    for (size_t i = 0; i < mi.ops.size(); ++i) {
      Opnd& o = mi.ops[i];
      if (o.kind == Opnd::VReg && o.reg == v && operandRole(mi, i) == OpndRole::Def) o.reg = t;
    }
  }
  static MInst copy(int to, int from) { return MInst(MOp::Mov, {Opnd::vreg(to), Opnd::vreg(from)}); }

  void splitBlock(int block);

  MFunction& f_;
  const std::vector<bool>& spilled_;
  const std::vector<int>& blockFirstInst_;
  SpilledCopies out_;
  std::vector<int> later_;  // backwards walk: reads after the current instruction
  std::vector<int> cur_;    // forwards walk: the copy holding v now, or -1
  std::vector<int> touched_;
  // The block's accesses, each with its instruction's index, in the
  // backward walk's order (the last instruction's first).
  struct Entry {
    size_t k;
    Access a;
  };
  std::vector<Entry> entries_;
  Accesses acc_;  // one instruction's, while collecting
};

void Splitter::splitBlock(int block) {
  MBlock& b = f_.blocks[size_t(block)];
  size_t n = b.insts.size();
  entries_.clear();
  bool copies = false;  // does any access make a copy?
  // Backwards: later reads in the stretch, for each access.
  for (size_t k = n; k-- > 0;) {
    const MInst& mi = b.insts[k];
    // The reads after a call or a ParMove are another stretch's.
    if (clobbers(mi) || mi.op == MOp::ParMove) forget(later_, touched_, 0);
    collect(mi, acc_);
    for (Access& a : acc_) {
      int& later = later_[size_t(a.v)];
      a.later = later;
      copies |= later > 0;  // a read with more to follow, or a definition read later
      // After a definition the later reads see the new value: the reads
      // before it can share only this instruction's.
      if (a.def) later = a.read ? 1 : 0;
      else if (a.read) ++later;
      touched_.push_back(a.v);
    }
    // Read back to front, so an instruction's accesses go in reverse.
    for (size_t i = acc_.size(); i-- > 0;) entries_.push_back({k, acc_[i]});
  }
  forget(later_, touched_, 0);
  if (!copies) return;  // the forward walk would change nothing

  // Forwards: rewrite.
  std::vector<MInst> out;
  out.reserve(n + n / 4);
  size_t next = entries_.size();  // entries_[next - 1] is the first not yet done
  for (size_t k = 0; k < n; ++k) {
    int read = 2 * (blockFirstInst_[size_t(block)] + int(k)), write = read + 1;
    MInst mi = std::move(b.insts[k]);
    struct Store {
      int v, copy;
    };
    SmallVec<Store, 2> after;  // stores to make after the instruction
    for (; next > 0 && entries_[next - 1].k == k; --next) {
      const Access& a = entries_[next - 1].a;
      int& cur = cur_[size_t(a.v)];
      if (a.read) {
        // Reads of the value this instruction reads, after it: none when
        // it also defines a new one.
        int more = a.def ? 0 : a.later;
        if (cur < 0 && more > 0) {
          // Loaded just before this instruction: busy from its reads on.
          int t = newCopy(a.v, read);
          out.push_back(copy(t, a.v));
          cur = t;
          touched_.push_back(a.v);
        }
        if (cur >= 0) {
          replaceReads(mi, a.v, cur);
          extend(cur, read);
        }
        if (a.useDef && cur >= 0) {
          // Written here, then stored to the slot right after.
          extend(cur, write);
          after.push_back({a.v, cur});
        }
        // (A UseDef without a copy changes the slot in place.)
      }
      if (a.def) {
        if (a.later > 0) {
          int t = newCopy(a.v, write);
          replaceDefs(mi, a.v, t);
          after.push_back({a.v, t});
          cur = t;
          touched_.push_back(a.v);
        } else {
          cur = -1;  // written in its slot: an older copy is stale
        }
      }
    }
    bool ends = clobbers(mi) || mi.op == MOp::ParMove;
    out.push_back(std::move(mi));
    for (const Store& st : after) out.push_back(copy(st.v, st.copy));
    if (ends) forget(cur_, touched_, -1);
  }
  forget(cur_, touched_, -1);
  b.insts = std::move(out);
}

}  // namespace

SpilledCopies splitSpilled(MFunction& f, const std::vector<bool>& spilled,
                           const std::vector<int>& blockFirstInst) {
  return Splitter(f, spilled, blockFirstInst).run();
}

}  // namespace simplec
