#include "codegen/jump_tables.h"

#include <algorithm>
#include <array>
#include <climits>
#include <optional>
#include <set>

#include "codegen/liveness.h"  // blockSuccessors

namespace simplec {

namespace {

using mir::Cond;
using mir::hasDebugFacts;
using mir::MBlock;
using mir::MFunction;
using mir::MInst;
using mir::MOp;
using mir::Opnd;

bool fitsI32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

// A general-purpose register that holds values (not rsp, rbp or the
// scratch registers the jump itself uses).
bool isValueGpr(int r) {
  return r >= 0 && r < 16 && r != mir::RSP && r != mir::RBP && r != mir::kScratch && r != mir::kScratch2;
}
bool isValueGpr(const Opnd& o) { return o.kind == Opnd::PReg && isValueGpr(o.reg); }

// A block that ends by testing `reg == key`: `cmp reg, key` (or `test reg,
// reg` for 0), `je`/`jne`, then a jmp or the fall-through to the next block.
struct EqualityTest {
  int reg = -1;
  int64_t key = 0;
  int eq = -1, ne = -1;  // where control goes when reg == key, and when not
  size_t at = 0;         // index of the compare in the block
};

std::optional<EqualityTest> equalityTestAtEnd(const MFunction& f, int b) {
  const MBlock& blk = f.blocks[size_t(b)];
  size_t i = blk.insts.size();
  if (i < 2) return std::nullopt;
  int other = b + 1;
  const MInst& last = blk.insts[i - 1];
  if (last.op == MOp::Jmp) {
    if (last.ops.size() != 1 || last.ops[0].kind != Opnd::Block || i < 3) return std::nullopt;
    other = last.ops[0].reg;
    --i;
  }
  if (other < 0 || size_t(other) >= f.blocks.size()) return std::nullopt;
  const MInst& jcc = blk.insts[i - 1];
  if (jcc.op != MOp::Jcc || (jcc.cc != Cond::E && jcc.cc != Cond::NE) || jcc.ops.size() != 1 ||
      jcc.ops[0].kind != Opnd::Block)
    return std::nullopt;
  const MInst& cmp = blk.insts[i - 2];
  EqualityTest t;
  if (cmp.op == MOp::Cmp && cmp.ops.size() == 2 && isValueGpr(cmp.ops[0]) && cmp.ops[1].kind == Opnd::Imm &&
      fitsI32(cmp.ops[1].imm)) {
    t.key = cmp.ops[1].imm;
  } else if (cmp.op == MOp::Test && cmp.ops.size() == 2 && isValueGpr(cmp.ops[0]) && cmp.ops[1] == cmp.ops[0]) {
    t.key = 0;
  } else {
    return std::nullopt;
  }
  t.reg = cmp.ops[0].reg;
  t.at = i - 2;
  int taken = jcc.ops[0].reg;
  t.eq = jcc.cc == Cond::E ? taken : other;
  t.ne = jcc.cc == Cond::E ? other : taken;
  if (t.eq == t.ne) return std::nullopt;
  // succs must say the same (they do once jumps are threaded).
  const std::vector<int>& s = blk.succs;
  if (s.size() != 2 || !((s[0] == t.eq && s[1] == t.ne) || (s[0] == t.ne && s[1] == t.eq))) return std::nullopt;
  return t;
}

// Can mi run after the jump instead of before the next test, copied onto
// each path that ran it? It may not write the tested register (the
// later tests read it), read the flags the tests leave, end the block, or
// take part in the frame's setup (push, pop, rsp, rbp: the CFI follows
// them). Calls stay where they are (their return addresses are call-site
// records).
bool sinkable(const MInst& mi, int tested) {
  switch (mi.op) {
    case MOp::Jmp: case MOp::Jcc: case MOp::JmpTable: case MOp::Ret: case MOp::Call:
    case MOp::Push: case MOp::Pop: case MOp::Setcc: case MOp::Cmov: case MOp::ParMove:
      return false;
    default:
      break;
  }
  bool ok = true;
  auto check = [&](const Opnd& o) {
    if (o.kind == Opnd::VReg || o.reg == tested || o.reg == mir::RSP || o.reg == mir::RBP) ok = false;
  };
  mir::forEachDefUse(mi, [&](const Opnd& o) { ok &= o.kind != Opnd::VReg; }, check, [&](int) { ok = false; });
  return ok;
}

// Can block b follow a chain's test of `reg` (its only predecessor being
// that test)? Then its test is the chain's next one.
bool continuesChain(const MFunction& f, int b, const EqualityTest& t, int reg, int preds) {
  const MBlock& blk = f.blocks[size_t(b)];
  if (preds != 1 || blk.cold || t.reg != reg || hasDebugFacts(blk)) return false;
  for (size_t i = 0; i < t.at; i++)
    if (!sinkable(blk.insts[i], reg)) return false;
  return true;
}

// The longest prefix of `keys` (at least kMinJumpTableCases distinct
// values) dense enough for a table, or 0.
size_t densePrefix(const std::vector<int64_t>& keys) {
  std::set<int64_t> seen;
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  size_t best = 0;
  for (size_t n = 0; n < keys.size(); n++) {
    int64_t k = keys[n];
    seen.insert(k);
    lo = std::min(lo, k);
    hi = std::max(hi, k);
    int64_t span = hi - lo + 1;  // keys fit in 32 bits: no overflow
    // The emitted code subtracts lo with a 32-bit displacement.
    if (lo == INT32_MIN) break;
    auto cases = int64_t(seen.size());
    if (cases >= kMinJumpTableCases && span <= kMaxJumpTableEntriesPerCase * cases && span <= kMaxJumpTableEntries)
      best = n + 1;
  }
  return best;
}

// Lays the blocks out in `order` (old indices, each once), renumbering
// every reference.
void reorderBlocks(MFunction& f, const std::vector<int>& order) {
  std::vector<int> newIndex(f.blocks.size(), -1);
  for (size_t i = 0; i < order.size(); i++) newIndex[size_t(order[i])] = int(i);
  std::vector<MBlock> blocks;
  blocks.reserve(order.size());
  for (int b : order) blocks.push_back(std::move(f.blocks[size_t(b)]));
  f.blocks = std::move(blocks);
  for (MBlock& b : f.blocks) {
    for (int& s : b.succs) s = newIndex[size_t(s)];
    for (MInst& mi : b.insts) mir::forEachJumpTarget(mi, [&](int& t) { t = newIndex[size_t(t)]; });
  }
  f.probeBlock = newIndex[size_t(f.probeBlock)];
}

// Global code motion leaves values in the chain that only some cases read
// (interp's default ran `sp - 1` and `sp - 2` for nothing): of the
// instructions copied to the start of each block in `touched`, the moves
// and address computations whose register is dead after them go.
void removeDeadCopies(MFunction& f, const std::vector<std::pair<int, size_t>>& touched) {
  Liveness lv = computeLiveness(f);
  for (auto [b, copied] : touched) {
    MBlock& blk = f.blocks[size_t(b)];
    std::array<bool, 32> live{};
    for (int r = 0; r < 32; r++) live[size_t(r)] = lv.liveOut[size_t(b)].test(Liveness::pregIndex(lv.numVRegs, r));
    std::vector<char> dead(blk.insts.size(), 0);
    for (size_t i = blk.insts.size(); i-- > 0;) {
      const MInst& mi = blk.insts[i];
      bool pure = mi.op == MOp::Lea ||
                  (mi.op == MOp::Mov && mi.ops.size() == 2 && (mi.ops[1].kind == Opnd::PReg || mi.ops[1].kind == Opnd::Imm));
      if (i < copied && pure && mi.ops[0].kind == Opnd::PReg && !live[size_t(mi.ops[0].reg)]) {
        dead[i] = 1;
        continue;
      }
      std::vector<int> reads;
      mir::forEachDefUse(
          mi, [&](const Opnd& o) { if (o.kind == Opnd::PReg) reads.push_back(o.reg); },
          [&](const Opnd& o) { if (o.kind == Opnd::PReg) live[size_t(o.reg)] = false; },
          [&](int r) { live[size_t(r)] = false; });
      for (int r : reads) live[size_t(r)] = true;
    }
    size_t keep = 0;
    for (size_t i = 0; i < blk.insts.size(); i++)
      if (!dead[i]) blk.insts[keep++] = std::move(blk.insts[i]);
    blk.insts.erase(blk.insts.begin() + ptrdiff_t(keep), blk.insts.end());
  }
}

}  // namespace

int formJumpTables(MFunction& f) {
  const size_t nb = f.blocks.size();
  std::vector<std::optional<EqualityTest>> tests(nb);
  int candidates = 0;
  for (size_t b = 0; b < nb; b++)
    if (!f.blocks[b].cold && (tests[b] = equalityTestAtEnd(f, int(b)))) candidates++;
  if (candidates < kMinJumpTableCases) return 0;

  std::vector<std::vector<int>> succs = blockSuccessors(f);
  std::vector<int> preds(nb, 0);
  for (const std::vector<int>& s : succs)
    for (int t : s) preds[size_t(t)]++;
  // next[b]: the block whose test follows b's in a chain, or -1.
  std::vector<int> next(nb, -1);
  std::vector<char> continues(nb, 0);
  for (size_t b = 0; b < nb; b++) {
    if (!tests[b]) continue;
    int n = tests[b]->ne;
    if (tests[size_t(n)] && continuesChain(f, n, *tests[size_t(n)], tests[b]->reg, preds[size_t(n)])) {
      next[b] = n;
      continues[size_t(n)] = 1;
    }
  }

  std::vector<char> inChain(nb, 0);
  // New blocks (appended, laid out after their chain's head at the end).
  std::vector<std::vector<int>> placedAfter(nb);
  // Blocks that got copied code, and how many instructions at their start.
  std::vector<std::pair<int, size_t>> touched;
  int made = 0;
  for (size_t h = 0; h < nb; h++) {
    if (!tests[h] || continues[h] || next[h] < 0) continue;
    std::vector<int> chain = {int(h)};
    inChain[h] = 1;
    // A table has at most kMaxJumpTableEntries cases: longer chains go on
    // testing after its default.
    for (int b = next[h]; b >= 0 && !inChain[size_t(b)] && chain.size() < size_t(kMaxJumpTableEntries);
         b = next[size_t(b)]) {
      chain.push_back(b);
      inChain[size_t(b)] = 1;
    }
    // No case may lead back into the chain.
    size_t usable = 0;
    while (usable < chain.size() && !inChain[size_t(tests[size_t(chain[usable])]->eq)]) usable++;
    for (int b : chain) inChain[size_t(b)] = 0;
    chain.resize(usable);
    if (chain.size() < size_t(kMinJumpTableCases)) continue;

    // copied[j]: the instructions the path to case j ran in the chain (the
    // code of blocks 1..j before their tests). Each case gets its own
    // copy, so bound the total.
    std::vector<size_t> copied(chain.size(), 0);
    for (size_t j = 1; j < chain.size(); j++) copied[j] = copied[j - 1] + tests[size_t(chain[j])]->at;
    size_t n = 0;
    for (size_t total = 0; n < chain.size(); n++) {
      total += copied[n];
      if (total + copied[n] > kMaxCopiedPerCase * (n + 1) + kMaxCopiedExtra) break;
    }
    std::vector<int64_t> keys;
    for (size_t j = 0; j < n; j++) keys.push_back(tests[size_t(chain[j])]->key);
    n = densePrefix(keys);
    if (n == 0) continue;
    chain.resize(n);
    keys.resize(n);

    int64_t lo = *std::min_element(keys.begin(), keys.end());
    int64_t hi = *std::max_element(keys.begin(), keys.end());
    // entry[j]: where the table sends case j (-1: not sent there, a
    // repeated key); j == n: the default.
    std::vector<int> entry(n + 1, -1);
    std::vector<int> slot(size_t(hi - lo + 1), int(n));
    for (size_t j = n; j-- > 0;) slot[size_t(keys[j] - lo)] = int(j);  // the first test of a key decides
    std::vector<char> used(n + 1, 0);
    used[n] = 1;
    for (int j : slot) used[size_t(j)] = 1;
    for (size_t j = 0; j <= n; j++) {
      if (!used[j]) continue;
      int target = j < n ? tests[size_t(chain[j])]->eq : tests[size_t(chain[n - 1])]->ne;
      size_t upTo = std::min(j, n - 1);
      entry[j] = target;
      if (copied[upTo] == 0) continue;
      std::vector<MInst> code;
      for (size_t k = 1; k <= upTo; k++) {
        const MBlock& blk = f.blocks[size_t(chain[k])];
        code.insert(code.end(), blk.insts.begin(), blk.insts.begin() + ptrdiff_t(tests[size_t(chain[k])]->at));
      }
      MBlock& t = f.blocks[size_t(target)];
      // (Not in front of a test: a chain found above may start there.)
      if (preds[size_t(target)] == 1 && !hasDebugFacts(t) && !tests[size_t(target)]) {
        // Only this test leads there: the code goes in front of it.
        touched.push_back({target, code.size()});
        t.insts.insert(t.insts.begin(), std::make_move_iterator(code.begin()), std::make_move_iterator(code.end()));
        continue;
      }
      MBlock copy;
      copy.loopDepth = f.blocks[size_t(chain[upTo])].loopDepth;
      copy.insts = std::move(code);
      copy.insts.push_back(MInst(MOp::Jmp, {Opnd::block(target)}));
      copy.succs = {target};
      entry[j] = int(f.blocks.size());
      touched.push_back({entry[j], copy.insts.size() - 1});
      placedAfter[h].push_back(entry[j]);
      f.blocks.push_back(std::move(copy));
    }

    MBlock& head = f.blocks[h];
    const MInst& cmp = head.insts[tests[h]->at];
    MInst jump(MOp::JmpTable,
               {Opnd::preg(tests[h]->reg), Opnd::imm64(lo), Opnd::imm64(made), Opnd(), Opnd::block(entry[n])});
    jump.line = cmp.line;
    jump.col = cmp.col;
    jump.site = cmp.site;
    for (int j : slot) jump.ops.push_back(Opnd::block(entry[size_t(j)]));
    head.insts.erase(head.insts.begin() + ptrdiff_t(tests[h]->at), head.insts.end());
    head.insts.push_back(std::move(jump));
    head.succs.clear();
    for (int e : entry)
      if (e >= 0) head.succs.push_back(e);
    std::sort(head.succs.begin(), head.succs.end());
    head.succs.erase(std::unique(head.succs.begin(), head.succs.end()), head.succs.end());
    // Nothing reaches the other tests now: tidyBlockLayout drops them.
    for (size_t k = 1; k < n; k++) {
      MBlock& blk = f.blocks[size_t(chain[k])];
      blk.insts = {MInst(MOp::Jmp, {Opnd::block(entry[n])})};
      blk.succs = {entry[n]};
    }
    made++;
  }
  if (!touched.empty()) removeDeadCopies(f, touched);
  if (f.blocks.size() > nb) {
    std::vector<int> order;
    order.reserve(f.blocks.size());
    for (size_t b = 0; b < nb; b++) {
      order.push_back(int(b));
      order.insert(order.end(), placedAfter[b].begin(), placedAfter[b].end());
    }
    reorderBlocks(f, order);
  }
  return made;
}

}  // namespace simplec
