// The random MIR generator (see random_mir.h). Values are a fixed pool of
// vregs defined in the entry block; statements only read and write pool
// values and fresh temporaries, loop counters are private to their loop, so
// every run terminates and never reads an undefined register.
#include "test/unit/codegen/random_mir.h"

#include <string>

#include "test/unit/codegen/mir_builder.h"

namespace simplec::test {

using namespace mir;

namespace {

class Gen {
 public:
  Gen(uint64_t seed, const RandomMirOptions& o) : s_(seed * 2654435761ULL + 1), o_(o) {}
  MFunction run();

 private:
  uint64_t next() {
    s_ ^= s_ << 13;
    s_ ^= s_ >> 7;
    s_ ^= s_ << 17;
    return s_;
  }
  int pick(int n) { return int(next() % uint64_t(n)); }
  int var() { return pool_[size_t(pick(int(pool_.size())))]; }
  Opnd srcOpnd() { return pick(4) == 0 ? I(pick(200) - 100) : V(var()); }
  Cond cond() { return Cond(pick(10)); }
  void statements(int n, int depth);
  void statement(int depth);
  void parMove();

  uint64_t s_;
  RandomMirOptions o_;
  FnBuilder b_{"random"};
  std::vector<int> pool_;
  int heap_ = -1;
};

void Gen::parMove() {
  // A random partial permutation of a few pool values, plus an immediate:
  // cycles and fan-outs both occur.
  int n = 1 + pick(4);
  std::vector<std::pair<Opnd, Opnd>> moves;
  std::vector<int> dsts;
  for (int i = 0; i < n; ++i) {
    int d = var();
    bool dup = false;
    for (int x : dsts) dup |= x == d;
    if (dup) continue;
    dsts.push_back(d);
  }
  for (int d : dsts) moves.push_back({V(d), pick(6) == 0 ? I(pick(1000)) : V(var())});
  b_.parmove(moves);
}

void Gen::statement(int depth) {
  int k = pick(depth < o_.maxDepth ? 24 : 17);
  static const MOp kAlu[] = {MOp::Add, MOp::Sub, MOp::And, MOp::Or, MOp::Xor, MOp::Imul};
  switch (k) {
    case 0: case 1: case 2:
      b_.op(kAlu[pick(6)], V(var()), srcOpnd());
      break;
    case 3: {  // through a temporary
      int t = b_.vreg();
      b_.mov(V(t), V(var()));
      b_.op(kAlu[pick(6)], V(t), srcOpnd());
      b_.mov(V(var()), V(t));
      break;
    }
    case 4:
      b_.emit(pick(2) ? MOp::Neg : MOp::Not, {V(var())});
      break;
    case 5: {  // shift by rcx or by an immediate
      MOp op = pick(3) == 0 ? MOp::Shl : pick(2) ? MOp::Sar : MOp::Shr;
      if (pick(2)) {
        b_.mov(P(RCX), V(var()));
        b_.op(op, V(var()), P(RCX));
      } else {
        b_.op(op, V(var()), I(pick(64)));
      }
      break;
    }
    case 6: {  // quotient and remainder; the divisor is made odd, so non-zero
      int t = b_.vreg();
      b_.mov(V(t), V(var()));
      b_.op(MOp::Or, V(t), I(1));
      b_.mov(P(RAX), V(var()));
      b_.emit(MOp::SDivRem, {V(t)});
      b_.mov(V(var()), P(RAX));
      b_.mov(V(var()), P(RDX));
      break;
    }
    case 7: {
      b_.cmp(V(var()), srcOpnd());
      if (pick(2)) b_.setcc(cond(), V(var()));
      else b_.cmov(cond(), V(var()), V(var()));
      break;
    }
    case 8: {  // call with 0..8 arguments
      if (!o_.calls) break;
      int n = pick(9);
      std::vector<Opnd> args;
      for (int i = 0; i < n; ++i) args.push_back(srcOpnd());
      b_.call("f" + std::to_string(n), args, pick(4) ? var() : -1);
      break;
    }
    case 9: {  // store to heap[(x & 63)]
      int t = b_.vreg();
      b_.mov(V(t), V(var()));
      b_.op(MOp::And, V(t), I(63));
      Opnd m = Opnd::memV(heap_, 8 * pick(4));
      m.index = t;
      m.indexVirt = true;
      m.scale = 8;
      b_.mov(m, srcOpnd());
      break;
    }
    case 10: {  // load from the heap, maybe narrow
      int t = b_.vreg();
      b_.mov(V(t), V(var()));
      b_.op(MOp::And, V(t), I(63));
      Opnd m = Opnd::memV(heap_, 8 * pick(4));
      m.index = t;
      m.indexVirt = true;
      m.scale = 8;
      int w = pick(4);
      if (w == 0) b_.mov(V(var()), m);
      else b_.emit(pick(2) ? MOp::MovZX : MOp::MovSX, {V(var()), m}).size = uint8_t(1 << (w - 1));
      break;
    }
    case 11: {  // frame slots (locals of the instruction selector)
      if (pick(2)) b_.mov(Opnd::slot(pick(3)), V(var()));
      else b_.mov(V(var()), Opnd::slot(pick(3)));
      break;
    }
    case 12: {
      Opnd m = Opnd::memV(var(), pick(100));
      m.index = var();
      m.indexVirt = true;
      m.scale = uint8_t(1 << pick(4));
      b_.emit(MOp::Lea, {V(var()), m});
      break;
    }
    case 13:
      b_.op(kAlu[pick(5)], V(var()), Opnd::memV(heap_, 8 * pick(64)));
      break;
    case 14:
      b_.mov(V(var()), Opnd::inArg(pick(2)));
      break;
    case 15:
      parMove();
      break;
    case 16:
      b_.mov(V(var()), V(var()));
      break;
    case 17: case 18: {  // if/else, each arm ending in a ParMove
      int thenB = b_.block(depth), elseB = b_.block(depth), join = b_.block(depth);
      b_.cmp(V(var()), srcOpnd());
      b_.jcc(cond(), elseB);
      b_.jmp(thenB);
      b_.at(thenB);
      statements(1 + pick(4), depth + 1);
      parMove();
      b_.jmp(join);
      b_.at(elseB);
      statements(pick(4), depth + 1);
      if (pick(2)) parMove();
      b_.jmp(join);
      b_.at(join);
      break;
    }
    default: {  // counted loop: 0..5 iterations
      int c = b_.vreg();
      int header = b_.block(depth + 1), body = b_.block(depth + 1), exit = b_.block(depth);
      b_.mov(V(c), I(pick(6)));
      b_.jmp(header);
      b_.at(header);
      b_.cmp(V(c), I(0));
      b_.jcc(Cond::LE, exit);
      b_.jmp(body);
      b_.at(body);
      statements(1 + pick(5), depth + 1);
      b_.op(MOp::Sub, V(c), I(1));
      if (pick(2)) parMove();
      b_.jmp(header);
      b_.at(exit);
      break;
    }
  }
}

void Gen::statements(int n, int depth) {
  for (int i = 0; i < n; ++i) statement(depth);
}

MFunction Gen::run() {
  b_.at(b_.block());
  std::vector<int> params = b_.params(8);
  heap_ = params[2];
  for (int i = 0; i < 3; ++i) b_.mov(Opnd::slot(i), I(i * 11));
  b_.f.numSlots = 3;
  for (int i = 0; i < o_.numValues; ++i) {
    int v = b_.vreg();
    int p = params[size_t(pick(8))];
    if (p == heap_) p = params[0];
    switch (pick(3)) {
      case 0: b_.mov(V(v), I(pick(1000) - 500)); break;
      case 1: b_.mov(V(v), V(p)); break;
      default:
        b_.mov(V(v), V(p));
        b_.op(MOp::Add, V(v), I(i));
        break;
    }
    pool_.push_back(v);
  }
  statements(o_.numStatements, 0);
  // Fold every value into the result so that all stay live to here.
  int acc = b_.vreg();
  b_.mov(V(acc), I(0));
  for (int v : pool_) {
    b_.op(MOp::Imul, V(acc), I(31));
    b_.op(MOp::Add, V(acc), V(v));
  }
  for (int i = 0; i < 3; ++i) b_.op(MOp::Xor, V(acc), Opnd::slot(i));
  b_.ret(V(acc));
  return b_.finish();
}

}  // namespace

MFunction randomMir(uint64_t seed, const RandomMirOptions& opts) {
  Gen g(seed, opts);
  return g.run();
}

std::vector<InterpConfig> randomMirInputs(uint64_t seed, int count) {
  std::vector<InterpConfig> out;
  uint64_t s = seed * 0x9e3779b97f4a7c15ULL + 7;
  auto next = [&] {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  };
  for (int i = 0; i < count; ++i) {
    InterpConfig c;
    c.seed = seed * 100 + uint64_t(i);
    for (int k = 0; k < 8; ++k) c.args.push_back(int64_t(next() % 2001) - 1000);
    c.args[2] = kHeapAddr;
    for (int k = 0; k < 80; ++k) c.heap.push_back(int64_t(next()));
    for (int n = 0; n <= 8; ++n) c.callees["f" + std::to_string(n)].stackArgs = n > 6 ? n - 6 : 0;
    out.push_back(c);
  }
  return out;
}

}  // namespace simplec::test
