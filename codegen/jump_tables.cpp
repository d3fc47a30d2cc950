#include "codegen/jump_tables.h"

#include <algorithm>
#include <climits>
#include <optional>

#include "codegen/liveness.h"

namespace simplec {

namespace {

using mir::Cond;
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

// Can mi run earlier, on paths that did not run it before? It computes into
// a register from registers and constants only: no memory access, no
// fault, no flags read. Its register must not be the tested one.
bool hoistable(const MInst& mi, int tested) {
  switch (mi.op) {
    case MOp::Mov: case MOp::MovZX: case MOp::MovSX: case MOp::Lea:
    case MOp::Add: case MOp::Sub: case MOp::And: case MOp::Or: case MOp::Xor: case MOp::Imul:
    case MOp::Neg: case MOp::Not: case MOp::Shl: case MOp::Sar: case MOp::Shr:
      break;
    default:
      return false;
  }
  if (mi.ops.empty() || !isValueGpr(mi.ops[0]) || mi.ops[0].reg == tested) return false;
  for (size_t i = 1; i < mi.ops.size(); i++) {
    const Opnd& o = mi.ops[i];
    if (o.kind == Opnd::Imm || isValueGpr(o)) continue;
    // lea only computes the address.
    if (mi.op == MOp::Lea && o.kind == Opnd::Mem && !o.baseVirt && !o.indexVirt &&
        (o.base < 0 || isValueGpr(o.base)) && (o.index < 0 || isValueGpr(o.index)))
      continue;
    return false;
  }
  return true;
}

// Can block b follow a chain's test of `reg` (its only predecessor being
// that test)? Then its test is the chain's next one.
bool continuesChain(const MFunction& f, int b, const EqualityTest& t, int reg, int preds) {
  const MBlock& blk = f.blocks[size_t(b)];
  if (preds != 1 || blk.cold || t.reg != reg || !blk.dbgEntry.empty() || !blk.dbgAssigns.empty() ||
      blk.dbgTailAt >= 0)
    return false;
  for (size_t i = 0; i < t.at; i++)
    if (!hoistable(blk.insts[i], reg)) return false;
  return true;
}

// The longest prefix of `keys` (at least kMinJumpTableCases distinct
// values) dense enough for a table, or 0.
size_t densePrefix(const std::vector<int64_t>& keys) {
  std::vector<int64_t> seen;
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  size_t best = 0;
  for (size_t n = 0; n < keys.size(); n++) {
    int64_t k = keys[n];
    auto at = std::lower_bound(seen.begin(), seen.end(), k);
    if (at == seen.end() || *at != k) seen.insert(at, k);
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

  std::optional<Liveness> live;
  // The GPRs live into block b (only those can be overwritten by a move).
  auto gprsLiveIn = [&](int b) {
    uint32_t mask = 0;
    for (int r = 0; r < 16; r++)
      if (live->liveIn[size_t(b)].test(Liveness::pregIndex(live->numVRegs, r))) mask |= 1u << r;
    return mask;
  };
  std::vector<char> inChain(nb, 0);
  int made = 0;
  for (size_t h = 0; h < nb; h++) {
    if (!tests[h] || continues[h] || next[h] < 0) continue;
    std::vector<int> chain = {int(h)};
    inChain[h] = 1;
    for (int b = next[h]; b >= 0 && !inChain[size_t(b)]; b = next[size_t(b)]) {
      chain.push_back(b);
      inChain[size_t(b)] = 1;
    }
    auto leave = [&] {
      for (int b : chain) inChain[size_t(b)] = 0;
    };
    if (chain.size() < size_t(kMinJumpTableCases) || inChain[size_t(tests[h]->eq)]) {
      leave();
      continue;
    }
    if (!live) live = computeLiveness(f);
    // A moved instruction must not overwrite what an earlier case reads,
    // and no case may lead back into the chain.
    size_t usable = 1;
    uint32_t readByEarlierCases = gprsLiveIn(tests[h]->eq);
    for (; usable < chain.size(); usable++) {
      const EqualityTest& t = *tests[size_t(chain[usable])];
      const MBlock& blk = f.blocks[size_t(chain[usable])];
      bool ok = !inChain[size_t(t.eq)];
      for (size_t i = 0; i < t.at && ok; i++) ok = !(readByEarlierCases & (1u << blk.insts[i].ops[0].reg));
      if (!ok) break;
      readByEarlierCases |= gprsLiveIn(t.eq);
    }
    leave();
    chain.resize(usable);
    std::vector<int64_t> keys;
    for (int b : chain) keys.push_back(tests[size_t(b)]->key);
    size_t n = densePrefix(keys);
    if (n == 0) continue;
    chain.resize(n);
    keys.resize(n);

    int64_t lo = *std::min_element(keys.begin(), keys.end());
    int64_t hi = *std::max_element(keys.begin(), keys.end());
    int fallback = tests[size_t(chain.back())]->ne;
    std::vector<int> table(size_t(hi - lo + 1), -1);
    for (int b : chain) {
      int& slot = table[size_t(tests[size_t(b)]->key - lo)];
      if (slot < 0) slot = tests[size_t(b)]->eq;  // the first test of a key decides
    }
    for (int& t : table)
      if (t < 0) t = fallback;

    MBlock& head = f.blocks[h];
    const MInst& cmp = head.insts[tests[h]->at];
    MInst jump(MOp::JmpTable, {Opnd::preg(tests[h]->reg), Opnd::imm64(lo), Opnd::block(fallback)});
    jump.line = cmp.line;
    jump.col = cmp.col;
    jump.site = cmp.site;
    for (int t : table) jump.ops.push_back(Opnd::block(t));
    std::vector<MInst> insts(std::make_move_iterator(head.insts.begin()),
                             std::make_move_iterator(head.insts.begin() + ptrdiff_t(tests[h]->at)));
    for (size_t k = 1; k < chain.size(); k++) {
      MBlock& blk = f.blocks[size_t(chain[k])];
      for (size_t i = 0; i < tests[size_t(chain[k])]->at; i++) insts.push_back(std::move(blk.insts[i]));
      // Nothing reaches it now: tidyBlockLayout drops it.
      blk.insts.clear();
      blk.insts.push_back(MInst(MOp::Jmp, {Opnd::block(fallback)}));
      blk.succs = {fallback};
    }
    insts.push_back(std::move(jump));
    head.insts = std::move(insts);
    head.succs = {fallback};
    inChain[size_t(fallback)] = 1;  // here: already a successor
    for (int t : table)
      if (!inChain[size_t(t)]) {
        inChain[size_t(t)] = 1;
        head.succs.push_back(t);
      }
    for (int t : head.succs) inChain[size_t(t)] = 0;
    made++;
  }
  return made;
}

}  // namespace simplec
