// Tests for codegen/parallel_move.cpp: the emitted Movs are simulated over a
// map of locations and must give every destination its source's old value,
// leave every other non-scratch location alone, and be encodable (no
// memory-to-memory move, no 64-bit immediate stored to memory).
#include <catch2/catch.hpp>

#include <map>

#include "codegen/parallel_move.h"
#include "lexer/diag.h"

using namespace simplec;
using namespace simplec::mir;

namespace {

std::string key(const Opnd& o) {
  switch (o.kind) {
    case Opnd::PReg: return "r" + std::to_string(o.reg);
    case Opnd::Slot: return "s" + std::to_string(o.reg);
    case Opnd::InArg: return "a" + std::to_string(o.reg);
    case Opnd::Mem: return "m" + std::to_string(o.base) + ":" + std::to_string(o.imm);
    default: return "?";
  }
}

bool isMem(const Opnd& o) {
  return o.kind == Opnd::Slot || o.kind == Opnd::Mem || o.kind == Opnd::InArg;
}

int64_t initialValue(const std::string& k) {
  int64_t h = 17;
  for (char c : k) h = h * 131 + c;
  return h;
}

bool isScratchKey(const std::string& k) {
  return k == key(Opnd::preg(kScratch)) || k == key(Opnd::preg(kScratch2)) ||
         k == key(Opnd::preg(kXmmScratch)) || k == key(Opnd::preg(kXmmScratch2));
}

// Runs `moves` through sequentializeMoves and checks the result; returns the
// number of Movs emitted.
size_t checkMoves(const std::vector<MoveOp>& moves) {
  std::vector<MInst> seq = sequentializeMoves(moves);
  std::map<std::string, int64_t> state;
  auto get = [&](const Opnd& o) -> int64_t {
    if (o.kind == Opnd::Imm) return o.imm;
    auto it = state.find(key(o));
    return it == state.end() ? initialValue(key(o)) : it->second;
  };
  for (const MInst& mi : seq) {
    REQUIRE(mi.op == MOp::Mov);
    REQUIRE(mi.ops.size() == 2);
    CHECK(mi.size == 8);
    const Opnd& d = mi.ops[0];
    const Opnd& s = mi.ops[1];
    CHECK_FALSE((isMem(d) && isMem(s)));
    CHECK_FALSE(d == s);
    CHECK(d.kind != Opnd::Imm);
    CHECK(d.kind != Opnd::InArg);
    if (isMem(d) && s.kind == Opnd::Imm) CHECK(s.imm == int64_t(int32_t(s.imm)));
    if (d.kind == Opnd::PReg && isXmm(d.reg)) CHECK(s.kind != Opnd::Imm);
    state[key(d)] = get(s);
  }
  std::map<std::string, int64_t> expected;
  for (const MoveOp& m : moves)
    expected[key(m.dst)] = m.src.kind == Opnd::Imm ? m.src.imm : initialValue(key(m.src));
  for (auto& [k, v] : state) {
    if (isScratchKey(k)) continue;
    auto it = expected.find(k);
    if (it == expected.end()) {
      INFO("location " << k << " changed but is not a destination");
      CHECK(v == initialValue(k));
    }
  }
  for (auto& [k, v] : expected) {
    INFO("destination " << k);
    auto it = state.find(k);
    int64_t got = it == state.end() ? initialValue(k) : it->second;
    CHECK(got == v);
  }
  return seq.size();
}

Opnd R(int r) { return Opnd::preg(r); }
Opnd S(int s) { return Opnd::slot(s); }

uint64_t rng(uint64_t& s) {
  s = s * 6364136223846793005ULL + 1442695040888963407ULL;
  return s >> 33;
}

}  // namespace

TEST_CASE("parallel move: trivial cases", "[parmove]") {
  CHECK(checkMoves({}) == 0);
  CHECK(checkMoves({{R(RAX), R(RAX)}, {S(3), S(3)}}) == 0);
  CHECK(checkMoves({{R(RAX), R(RBX)}}) == 1);
  // A chain must be emitted back to front: rcx <- rbx <- rax.
  CHECK(checkMoves({{R(RBX), R(RAX)}, {R(RCX), R(RBX)}}) == 2);
  // Fan-out: one source, several destinations.
  CHECK(checkMoves({{R(RBX), R(RAX)}, {R(RCX), R(RAX)}, {R(RAX), R(RDX)}}) == 3);
}

TEST_CASE("parallel move: cycles", "[parmove]") {
  SECTION("swap") {
    std::vector<MInst> seq = sequentializeMoves({{R(RAX), R(RBX)}, {R(RBX), R(RAX)}});
    CHECK(seq.size() == 3);
    CHECK(checkMoves({{R(RAX), R(RBX)}, {R(RBX), R(RAX)}}) == 3);
  }
  SECTION("three-cycle") {
    CHECK(checkMoves({{R(RAX), R(RBX)}, {R(RBX), R(RCX)}, {R(RCX), R(RAX)}}) == 4);
  }
  SECTION("two disjoint cycles with a tail") {
    checkMoves({{R(RAX), R(RBX)}, {R(RBX), R(RAX)}, {R(RCX), R(RDX)}, {R(RDX), R(RCX)},
                {R(RSI), R(RAX)}});
  }
  SECTION("cycle through slots") {
    checkMoves({{S(0), S(1)}, {S(1), S(0)}});
    checkMoves({{S(0), R(RAX)}, {R(RAX), S(0)}});
    checkMoves({{S(0), R(RAX)}, {R(RAX), S(1)}, {S(1), S(0)}});
    checkMoves({{S(0), S(1)}, {S(1), S(2)}, {S(2), R(R12)}, {R(R12), S(0)}});
  }
  SECTION("xmm cycle uses the xmm scratch") {
    std::vector<MInst> seq =
        sequentializeMoves({{R(XMM0), R(XMM0 + 1)}, {R(XMM0 + 1), R(XMM0)}});
    REQUIRE(seq.size() == 3);
    CHECK(seq[0].ops[0] == R(kXmmScratch));
    checkMoves({{R(XMM0), R(XMM0 + 1)}, {R(XMM0 + 1), R(XMM0)}});
  }
}

TEST_CASE("parallel move: immediates, incoming arguments and memory", "[parmove]") {
  checkMoves({{R(RAX), Opnd::imm64(5)}, {R(RBX), R(RAX)}});
  checkMoves({{S(0), Opnd::imm64(-7)}, {S(1), Opnd::imm64(int64_t(1) << 40)}});
  checkMoves({{R(XMM0), Opnd::imm64(3)}});
  checkMoves({{S(2), Opnd::inArg(0)}, {R(RAX), Opnd::inArg(1)}, {R(RBX), R(RAX)}});
  checkMoves({{Opnd::memP(RBP, -8), Opnd::memP(RBP, -16)}, {Opnd::memP(RBP, -16), R(RAX)},
              {R(RAX), Opnd::memP(RBP, -8)}});
  // The wide immediate goes through r10 while r11 holds a cycle value.
  checkMoves({{R(RAX), R(RBX)}, {R(RBX), R(RAX)}, {S(4), Opnd::imm64(INT64_MIN)}});
}

TEST_CASE("parallel move: contract violations are internal errors", "[parmove]") {
  CHECK_THROWS_AS(sequentializeMoves({{R(RAX), R(RBX)}, {R(RAX), R(RCX)}}), InternalError);
  CHECK_THROWS_AS(sequentializeMoves({{Opnd::imm64(1), R(RAX)}}), InternalError);
  CHECK_THROWS_AS(sequentializeMoves({{R(RAX), Opnd::vreg(1)}}), InternalError);
  CHECK_THROWS_AS(sequentializeMoves({{R(kScratch), R(RAX)}}), InternalError);
  CHECK_THROWS_AS(sequentializeMoves({{R(RAX), Opnd::memP(RBX, 0)}, {R(RBX), R(RCX)}}),
                  InternalError);
}

TEST_CASE("parallel move: random permutations and fan-outs", "[parmove]") {
  // Locations: 10 registers and 4 slots. Each trial picks distinct
  // destinations and arbitrary sources (often other destinations, which
  // makes cycles), sometimes immediates.
  std::vector<Opnd> locs;
  for (int r : {RAX, RCX, RDX, RBX, RSI, RDI, R8, R9, R12, R13}) locs.push_back(R(r));
  for (int s = 0; s < 4; ++s) locs.push_back(S(s));
  uint64_t seed = 12345;
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<Opnd> pool = locs;
    // Fisher-Yates with our own generator for portability.
    for (size_t i = pool.size() - 1; i > 0; --i) std::swap(pool[i], pool[rng(seed) % (i + 1)]);
    size_t n = 1 + rng(seed) % pool.size();
    std::vector<MoveOp> moves;
    for (size_t i = 0; i < n; ++i) {
      Opnd src;
      uint64_t kind = rng(seed) % 10;
      if (kind == 0) src = Opnd::imm64(int64_t(rng(seed)) - (int64_t(1) << 30));
      else if (kind == 1) src = Opnd::imm64(int64_t(rng(seed)) << 20);
      else if (kind < 7) src = pool[rng(seed) % n];  // another destination
      else src = locs[rng(seed) % locs.size()];
      moves.push_back({pool[i], src});
    }
    INFO("trial " << trial);
    checkMoves(moves);
  }
}
