// The graph evaluator's machine: a stack of frames (one per active call) with
// storage in three arenas, a control loop moving each frame's program counter
// between control nodes, and on-demand data evaluation on an explicit stack.
// Invariant: a Computed slot holds a value exactly when its stamp equals its
// frame's generation; every change to a Phi or a call result clears the
// stamps of the slots computed from it (or bumps the generation).
#include "son/evaluator.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>

#include "lexer/diag.h"
#include "son/call_chain.h"
#include "son/compute.h"
#include "son/eval_code.h"
#include "son/mem_access.h"
#include "son/float_fold.h"
#include "son/float_text.h"

namespace simplec {

namespace {

constexpr int kRuntimeErrorStatus = 101;
// Bytes of arena per stored slot: value, stamp, kind.
constexpr uint64_t kBytesPerSlot = sizeof(int64_t) + sizeof(uint32_t) + sizeof(EvalKind);

struct Val {
  int64_t v = 0;
  EvalKind k = EvalKind::None;
  int64_t hi = 0;  // Vec: lane 1's bits (lane 0's are v)
};

// Ends the run early; the result already says why.
struct StopRun {};

// Up to 40 bytes of `s` from `at`, quoted, with control bytes escaped.
std::string excerpt(const std::string& s, size_t at) {
  std::string r = "\"";
  for (size_t i = at; i < s.size() && i < at + 40; i++) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\n') {
      r += "\\n";
    } else if (c == '"' || c == '\\') {
      r += '\\';
      r += char(c);
    } else if (c < 32 || c >= 127) {
      const char* hex = "0123456789abcdef";
      r += "\\x";
      r += hex[c >> 4];
      r += hex[c & 15];
    } else {
      r += char(c);
    }
  }
  return r + (s.size() > at + 40 ? "...\"" : "\"");
}

std::string ref(const Node* n) { return "node " + std::to_string(n->id) + " (" + n->label() + ")"; }

class Evaluator {
 public:
  Evaluator(const Unit& u, const EvalOptions& o) : g_(u), o_(o) { codes_.resize(u.funs.size()); }

  EvalResult run(int funIndex, const std::vector<Val>& args) {
    try {
      pushFrame(funIndex, args);
      loop();
    } catch (StopRun&) {
    }
    res_.steps = steps_;
    return std::move(res_);
  }

 private:
  struct Frame {
    const EvalCode* code;
    size_t base;   // first slot of this frame in the arenas
    uint32_t gen;  // Computed slots are valid when their stamp equals this
    int32_t pc;    // the control node to execute next
  };

  // ------------------------------------------------------------ errors

  [[noreturn]] void fail(const Frame& f, const EvalNode& n, const std::string& msg) const {
    internalError("evaluate", "function '" + g_.funs[size_t(f.code->funIndex)].name + "': " + ref(n.node) + " " + msg);
  }

  // As native code reports it: sys library code at the user's call into it,
  // then the call chain (son/call_chain.h, runtime/rt_trace.c).
  [[noreturn]] void runtimeError(SrcPos pos, const std::string& what) {
    std::vector<SourceFrame> chain;
    if (!frames_.empty()) {
      const Frame& top = frames_.back();
      chain = expandChain(g_, top.code->funIndex, pos);
      callersChain(frames_.size() - 1, &chain);
      if (pos.file == kSysLibraryFile) {
        SrcPos at = reportedPosition(g_, top.code->funIndex, pos);
        if (at.valid()) pos = at;
        else if (!chain.empty()) pos = chain.front().pos;
      }
    }
    report(pos, what, chain);
  }

  // Appends the call sites of frames [0, below), innermost first.
  void callersChain(size_t below, std::vector<SourceFrame>* chain) const {
    for (size_t k = below; k-- > 0;) {
      const Frame& f = frames_[k];
      std::vector<SourceFrame> more = expandChain(g_, f.code->funIndex, f.code->nodes[size_t(f.pc)].node->pos);
      chain->insert(chain->end(), more.begin(), more.end());
    }
  }

  [[noreturn]] void report(SrcPos pos, const std::string& what, const std::vector<SourceFrame>& chain) {
    auto fileOf = [&](SrcPos p) { return p.file == kSysLibraryFile ? std::string(kSysLibraryPath) : o_.fileName; };
    res_.error = fileOf(pos) + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.col) +
                 ": runtime error: " + what;
    for (size_t i = 0; i < chain.size() && i < kTraceHead; i++)
      res_.trace.push_back(traceLine(g_.funs[size_t(chain[i].fun)].name, fileOf(chain[i].pos), chain[i].pos));
    if (chain.size() > kTraceHead)
      res_.trace.push_back("  ... " + std::to_string(chain.size() - kTraceHead) + " more frames");
    res_.exitStatus = kRuntimeErrorStatus;
    throw StopRun{};
  }

  // Reported at the function whose frame did not fit, as native code does,
  // with the chain from the call of it (every frame is at a call).
  [[noreturn]] void stackOverflow(int funIndex) {
    std::vector<SourceFrame> chain;
    callersChain(frames_.size(), &chain);
    report(g_.funs[size_t(funIndex)].pos, "stack overflow", chain);
  }

  void tick() {
    if (++steps_ > o_.maxSteps) {
      res_.stepLimitExceeded = true;
      throw StopRun{};
    }
  }

  void emit(const std::string& text) {
    if (res_.out.size() + text.size() > o_.maxOutputBytes) {
      res_.outputLimitExceeded = true;
      throw StopRun{};
    }
    res_.out += text;
  }

  // ------------------------------------------------------------ frames

  const EvalCode& codeOf(int funIndex) {
    std::unique_ptr<EvalCode>& c = codes_[size_t(funIndex)];
    if (!c) {
      const Graph* g = g_.graph(funIndex);
      if (!g) internalError("evaluate", "function '" + g_.funs[size_t(funIndex)].name + "' has no body");
      c = std::make_unique<EvalCode>(buildEvalCode(*g));
    }
    return *c;
  }

  void pushFrame(int funIndex, const std::vector<Val>& args) {
    const EvalCode& code = codeOf(funIndex);
    if (code.entry < 0) internalError("evaluate", "function '" + g_.funs[size_t(funIndex)].name + "' has no entry");
    size_t base = val_.size();
    if ((base + size_t(code.numStored)) * kBytesPerSlot > o_.maxStackBytes) stackOverflow(funIndex);
    val_.resize(base + size_t(code.numStored));
    stamp_.resize(val_.size());
    kind_.resize(val_.size());
    frames_.push_back(Frame{&code, base, 1, code.entry});
    Frame& f = frames_.back();
    for (int32_t s : code.parms) {
      const EvalNode& p = code.nodes[size_t(s)];
      if (p.memory) {
        set(f, s, Val{});
        continue;
      }
      if (p.imm < 0 || uint64_t(p.imm) >= args.size()) fail(f, p, "gets no argument");
      set(f, s, args[size_t(p.imm)]);
    }
  }

  void popFrame() {
    val_.resize(frames_.back().base);
    if (hi_.size() > val_.size()) hi_.resize(val_.size());
    stamp_.resize(val_.size());
    kind_.resize(val_.size());
    frames_.pop_back();
  }

  // ------------------------------------------------------------ slots

  bool ready(const Frame& f, int32_t s) const {
    const EvalNode& n = f.code->nodes[size_t(s)];
    switch (n.cls) {
      case SlotClass::Const: return true;
      case SlotClass::Assigned: return stamp_[f.base + size_t(s)] != 0;
      case SlotClass::Computed: return stamp_[f.base + size_t(s)] == f.gen;
      default: return false;
    }
  }

  Val read(const Frame& f, int32_t s) const {
    const EvalNode& n = f.code->nodes[size_t(s)];
    if (n.cls == SlotClass::Const) return Val{n.imm, n.kind};
    size_t i = f.base + size_t(s);
    return Val{val_[i], kind_[i], kind_[i] == EvalKind::Vec ? hi_[i] : 0};
  }

  // Stores a value; Assigned slots stay valid until overwritten, Computed
  // ones until invalidated.
  void set(const Frame& f, int32_t s, Val v) {
    size_t i = f.base + size_t(s);
    val_[i] = v.v;
    kind_[i] = v.k;
    if (v.k == EvalKind::Vec) {
      if (hi_.size() <= i) hi_.resize(val_.size());
      hi_[i] = v.hi;
    }
    stamp_[i] = f.code->nodes[size_t(s)].cls == SlotClass::Assigned ? 1 : f.gen;
  }

  // The values computed from what `n` (a Region's Phis, a CallEnd) assigns
  // are stale now.
  void invalidate(Frame& f, const EvalNode& n) {
    if (n.staleAll) {
      if (++f.gen == 0) {
        // Wrapped around: old stamps could match again, so clear them all.
        for (int32_t s = 0; s < f.code->numStored; s++)
          if (f.code->nodes[size_t(s)].cls == SlotClass::Computed) stamp_[f.base + size_t(s)] = 0;
        f.gen = 1;
      }
      return;
    }
    for (int32_t s : n.stale) stamp_[f.base + size_t(s)] = 0;
  }

  // ------------------------------------------------------------ data

  bool truthy(const Frame& f, const EvalNode& user, Val v) const {
    switch (v.k) {
      case EvalKind::Int: return v.v != 0;
      case EvalKind::Fun: case EvalKind::Str: return true;  // never null
      case EvalKind::Ptr: return v.v != 0;
      default: fail(f, user, "tests a value that is not an integer");
    }
  }

  int64_t intOf(const Frame& f, const EvalNode& user, Val v) const {
    // An array converted to `int` (an address for C): a stand-in address.
    if (v.k == EvalKind::Ptr) return v.v << 32;
    if (v.k == EvalKind::Str) return (v.v << 32) | (int64_t(1) << 62);
    if (v.k != EvalKind::Int) fail(f, user, "does arithmetic on a value that is not an integer");
    return v.v;
  }

  [[noreturn]] void undefined(const Frame& f, const EvalNode& user, int32_t s) const {
    if (s < 0) fail(f, user, "reads a value that is not in the function");
    const EvalNode& d = f.code->nodes[size_t(s)];
    if (d.cls == SlotClass::Control) fail(f, user, "reads control " + ref(d.node) + " as a value");
    fail(f, user, "reads " + ref(d.node) + " where it has no value (its region or call was not reached)");
  }

  Val compute(const Frame& f, const EvalNode& n) const {
    if (n.memory) return Val{};
    Val a = read(f, n.a);
    if (n.op == Op::Proj || n.op == Op::Cast) return a;
    if (n.op == Op::Load) return lengthOf(f, n, a, read(f, n.b));
    if (n.op == Op::Neg) return Val{int64_t(0 - uint64_t(intOf(f, n, a))), EvalKind::Int};
    if (n.op == Op::Not) return Val{truthy(f, n, a) ? 0 : 1, EvalKind::Int};
    if (n.op == Op::Select) return truthy(f, n, a) ? read(f, n.b) : read(f, n.c);
    if (isFloatOp(n.op)) return computeFloat(f, n, a);
    if (isVecOp(n.op)) return computeVec(f, n, a);
    Val b = read(f, n.b);
    if ((n.op == Op::EQ || n.op == Op::NE) && (a.k != EvalKind::Int || b.k != EvalKind::Int)) {
      bool same = a.k == b.k && a.v == b.v;
      return Val{(n.op == Op::EQ) == same ? 1 : 0, EvalKind::Int};
    }
    int64_t x = intOf(f, n, a), y = intOf(f, n, b);
    if ((n.op == Op::Div || n.op == Op::Mod) && y == 0) fail(f, n, "divides by zero without a ZeroCheck");
    return Val{foldBinary(n.op, x, y), EvalKind::Int};
  }

  double fltOf(const Frame& f, const EvalNode& user, Val v) const {
    if (v.k != EvalKind::Flt) fail(f, user, "does float arithmetic on a value that is not a float");
    return bitsToDouble(v.v);
  }

  Val computeFloat(const Frame& f, const EvalNode& n, Val a) const {
    auto flt = [](double d) { return Val{doubleToBits(d), EvalKind::Flt}; };
    switch (n.op) {
      case Op::IToF: return flt(intToFloat(intOf(f, n, a)));
      case Op::FToI: return Val{floatToInt(fltOf(f, n, a)), EvalKind::Int};
      case Op::FEQ: case Op::FNE: case Op::FLT: case Op::FLE:
        return Val{foldFloatCompare(n.op, fltOf(f, n, a), fltOf(f, n, read(f, n.b))) ? 1 : 0, EvalKind::Int};
      case Op::FAdd: case Op::FSub: case Op::FMul: case Op::FDiv: case Op::FMin: case Op::FMax:
        return flt(foldFloatBinary(n.op, fltOf(f, n, a), fltOf(f, n, read(f, n.b))));
      default: return flt(foldFloatUnary(n.op, fltOf(f, n, a)));
    }
  }

  // Two lanes, each as the scalar kind computes it.
  Val computeVec(const Frame& f, const EvalNode& n, Val a) const {
    if (n.op == Op::VSplat) return Val{doubleToBits(fltOf(f, n, a)), EvalKind::Vec, doubleToBits(fltOf(f, n, a))};
    Op op = laneOp(n.op);
    if (isUnaryVecOp(n.op)) {
      if (a.k != EvalKind::Vec) fail(f, n, "does vector arithmetic on a value that is not a vector");
      return Val{doubleToBits(foldFloatUnary(op, bitsToDouble(a.v))), EvalKind::Vec,
                 doubleToBits(foldFloatUnary(op, bitsToDouble(a.hi)))};
    }
    Val b = read(f, n.b);
    if (a.k != EvalKind::Vec || b.k != EvalKind::Vec) fail(f, n, "does vector arithmetic on a value that is not a vector");
    return Val{doubleToBits(foldFloatBinary(op, bitsToDouble(a.v), bitsToDouble(b.v))), EvalKind::Vec,
               doubleToBits(foldFloatBinary(op, bitsToDouble(a.hi), bitsToDouble(b.hi)))};
  }

  // The value of slot `slot`, evaluating what it needs first.
  Val eval(Frame& f, const EvalNode& user, int32_t slot) {
    if (slot >= 0 && ready(f, slot)) return read(f, slot);
    if (slot < 0 || f.code->nodes[size_t(slot)].cls != SlotClass::Computed) undefined(f, user, slot);
    const std::vector<EvalNode>& nodes = f.code->nodes;
    work_.clear();
    work_.push_back(slot);
    while (!work_.empty()) {
      int32_t s = work_.back();
      if (ready(f, s)) {
        work_.pop_back();
        continue;
      }
      const EvalNode& n = nodes[size_t(s)];
      int32_t missing = -1;
      if (!n.memory) {
        int32_t operands[3] = {n.a, n.b, n.c};
        int count = n.unary ? 1 : n.op == Op::Select ? 3 : 2;
        for (int i = 0; i < count && missing < 0; i++) {
          int32_t d = operands[i];
          if (d >= 0 && ready(f, d)) continue;
          if (d < 0 || nodes[size_t(d)].cls != SlotClass::Computed) undefined(f, n, d);
          missing = d;
        }
      }
      if (missing >= 0) {
        // Without cycles the stack is a path of distinct slots.
        if (work_.size() > nodes.size()) fail(f, n, "depends on itself through data edges alone");
        work_.push_back(missing);
        continue;
      }
      tick();
      set(f, s, compute(f, n));
      work_.pop_back();
    }
    return read(f, slot);
  }

  // ------------------------------------------------------------ control

  // Control leaves `c` by way `arm`; entering a Region assigns its Phis.
  void jump(Frame& f, const EvalNode& c, int arm) {
    int32_t t = c.next[arm];
    if (t == EvalNode::kAmbiguous) fail(f, c, "has several successors");
    if (t < 0) fail(f, c, arm == 1 ? "has no false/second successor" : "has no successor");
    const EvalNode& r = f.code->nodes[size_t(t)];
    if (r.op == Op::Region || r.op == Op::Loop) enterRegion(f, r, c.nextPred[arm]);
    f.pc = t;
  }

  // All Phis of `r` take their input `k` at once: read every input first.
  void enterRegion(Frame& f, const EvalNode& r, int32_t k) {
    std::vector<Val>& vals = phiVals_;
    vals.clear();
    for (int32_t p : r.phis) {
      const EvalNode& phi = f.code->nodes[size_t(p)];
      if (phi.memory) {
        vals.push_back(Val{});
        continue;
      }
      if (k <= 0 || size_t(k) >= phi.ins.size() || phi.ins[size_t(k)] < 0)
        fail(f, phi, "has no value for the region's input " + std::to_string(k));
      vals.push_back(eval(f, phi, phi.ins[size_t(k)]));
    }
    for (size_t i = 0; i < r.phis.size(); i++) set(f, r.phis[i], vals[i]);
    invalidate(f, r);
  }

  Val callExtern(const Frame& f, const EvalNode& c, const FunInfo& fi, const std::vector<Val>& args) {
    auto arg = [&](size_t i, EvalKind k) {
      if (i >= args.size() || args[i].k != k) fail(f, c, "passes a wrong argument to '" + fi.symbol + "'");
      return args[i].v;
    };
    if (fi.symbol == "__simplec_print_i64") {
      emit(std::to_string(arg(0, EvalKind::Int)));
    } else if (fi.symbol == "__simplec_print_bool") {
      emit(arg(0, EvalKind::Int) != 0 ? "true" : "false");
    } else if (fi.symbol == "__simplec_print_ary") {
      if (args.empty()) fail(f, c, "passes no argument to '" + fi.symbol + "'");
      Val a = args[0];
      if (a.k == EvalKind::Str) {
        if (a.v < 0 || size_t(a.v) >= g_.strings.size()) fail(f, c, "prints a string that does not exist");
        emit(g_.strings[size_t(a.v)]);
      } else if (a.k == EvalKind::Ptr && a.v == 0) {
        emit("null");
      } else if (a.k == EvalKind::Ptr) {
        const Obj& o = object(f, c, a);
        std::string s;
        for (int64_t i = 0; i < o.len; i++) s += char(o.cells[size_t(i)]);
        emit(s);
      } else {
        fail(f, c, "prints a value that is not an array");
      }
    } else if (fi.symbol == "__simplec_print_f64" || fi.symbol == "__simplec_print_f32d") {
      emit(floatRepr(bitsToDouble(arg(0, EvalKind::Flt)), fi.symbol == "__simplec_print_f32d"));
    } else if (fi.symbol == "__simplec_print_str") {
      int64_t idx = arg(0, EvalKind::Str), len = arg(1, EvalKind::Int);
      if (idx < 0 || size_t(idx) >= g_.strings.size()) fail(f, c, "prints a string that does not exist");
      const std::string& s = g_.strings[size_t(idx)];
      if (len > 0 && uint64_t(len) > s.size()) fail(f, c, "prints past the end of a string");
      if (len > 0) emit(s.substr(0, size_t(len)));
    } else if (fi.symbol == "__simplec_write_ary") {
      return writeAry(f, c, fi, args);
    } else if (fi.symbol == "__simplec_copy_bytes") {
      return copyBytes(f, c, fi, args);
    } else if (fi.symbol == "__simplec_stdin") {
      if (!o_.callExterns) unsupported("the program reads standard input");
      std::string in;
      char buf[1 << 16];
      for (size_t n; (n = std::fread(buf, 1, sizeof buf, stdin)) > 0;) in.append(buf, n);
      return newBytes(in);
    } else if (fi.symbol == "__simplec_args") {
      if (o_.args.empty()) unsupported("the program uses sys.args");
      if (argsAry_.k == EvalKind::Ptr) return argsAry_;
      std::vector<Val> elems;
      for (const std::string& a : o_.args) elems.push_back(newBytes(a));
      argsAry_ = newArray(int64_t(elems.size()));
      Obj& o = heap_[size_t(argsAry_.v - 1)];
      for (size_t i = 0; i < elems.size(); i++) {
        o.cells[i] = elems[i].v;
        o.kinds[i] = EvalKind::Ptr;
      }
      return argsAry_;
    } else if (fi.symbol == "__simplec_flush") {
      // Output is captured; callC writes it out before a C function runs.
    } else {
      return callC(f, c, fi, args);
    }
    return Val{0, EvalKind::Int};
  }

  [[noreturn]] void unsupported(const std::string& what) {
    res_.unsupported = what;
    throw StopRun{};
  }

  // A zero-filled array of n cells on the heap.
  Val newArray(int64_t n) {
    heapCells_ += uint64_t(n) + 1;
    if (heapCells_ > kMaxHeapCells) {
      res_.outputLimitExceeded = true;
      throw StopRun{};
    }
    Obj o;
    o.len = n;
    o.cells.assign(size_t(n), 0);
    o.kinds.assign(size_t(n), EvalKind::None);
    heap_.push_back(std::move(o));
    return Val{int64_t(heap_.size()), EvalKind::Ptr};
  }

  Val newBytes(const std::string& bytes) {
    Val a = newArray(int64_t(bytes.size()));
    Obj& o = heap_[size_t(a.v - 1)];
    for (size_t i = 0; i < bytes.size(); i++) {
      o.cells[i] = uint8_t(bytes[i]);
      o.kinds[i] = EvalKind::Int;
    }
    return a;
  }

  // sys.aryu8.write: fd 1 is the captured output; fd 2 is written directly.
  Val writeAry(const Frame& f, const EvalNode& c, const FunInfo& fi, const std::vector<Val>& args) {
    if (args.size() != 3 || args[0].k != EvalKind::Int || args[2].k != EvalKind::Int)
      fail(f, c, "passes a wrong argument to '" + fi.symbol + "'");
    int64_t fd = args[0].v, len = args[2].v;
    std::string bytes;
    if (args[1].k == EvalKind::Str) {
      if (args[1].v < 0 || size_t(args[1].v) >= g_.strings.size()) fail(f, c, "writes a string that does not exist");
      bytes = g_.strings[size_t(args[1].v)];
    } else if (args[1].k == EvalKind::Ptr && args[1].v != 0) {
      const Obj& o = object(f, c, args[1]);
      for (int64_t i = 0; i < o.len && i < len; i++) bytes += char(o.cells[size_t(i)]);
    }
    if (len < 0) len = 0;
    if (size_t(len) < bytes.size()) bytes.resize(size_t(len));
    if (fd == 1) {
      emit(bytes);
    } else if (fd == 2 && o_.callExterns) {
      std::fwrite(res_.out.data() + res_.outWritten, 1, res_.out.size() - res_.outWritten, stdout);
      std::fflush(stdout);
      res_.outWritten = res_.out.size();
      std::fwrite(bytes.data(), 1, bytes.size(), stderr);
      std::fflush(stderr);
    } else {
      unsupported("the program writes to file descriptor " + std::to_string(fd));
    }
    return Val{int64_t(bytes.size()), EvalKind::Int};
  }

  // sys.ary.copy's in-bounds case (the runtime's memmove): the library
  // checked the bounds, so a range outside an array is an evaluator failure.
  Val copyBytes(const Frame& f, const EvalNode& c, const FunInfo& fi, const std::vector<Val>& args) {
    if (args.size() != 5 || args[1].k != EvalKind::Int || args[3].k != EvalKind::Int || args[4].k != EvalKind::Int)
      fail(f, c, "passes a wrong argument to '" + fi.symbol + "'");
    int64_t doff = args[1].v, soff = args[3].v, len = args[4].v;
    std::vector<int64_t> cells;
    std::vector<EvalKind> kinds;
    if (args[2].k == EvalKind::Str) {
      if (args[2].v < 0 || size_t(args[2].v) >= g_.strings.size()) fail(f, c, "copies a string that does not exist");
      const std::string& str = g_.strings[size_t(args[2].v)];
      if (len < 0 || soff < 0 || soff > int64_t(str.size()) - len) fail(f, c, "copies past the end of a string");
      for (int64_t i = 0; i < len; i++) cells.push_back(uint8_t(str[size_t(soff + i)]));
      kinds.assign(size_t(len), EvalKind::Int);
    } else {
      const Obj& src = object(f, c, args[2]);
      if (len < 0 || soff < 0 || soff > src.len - len) fail(f, c, "copies past the end of an array");
      cells.assign(src.cells.begin() + soff, src.cells.begin() + soff + len);
      kinds.assign(src.kinds.begin() + soff, src.kinds.begin() + soff + len);
    }
    object(f, c, args[0]);  // fails unless an array
    Obj& dst = heap_[size_t(args[0].v - 1)];
    if (doff < 0 || doff > dst.len - len) fail(f, c, "copies past the end of an array");
    std::copy(cells.begin(), cells.end(), dst.cells.begin() + doff);
    std::copy(kinds.begin(), kinds.end(), dst.kinds.begin() + doff);
    return Val{0, EvalKind::Int};
  }

  // A C function of this process, called with up to six integer and eight
  // float arguments in registers (System V: the callee ignores registers it
  // has no parameter for, and an f32 reads the low half of its xmm register).
  Val callC(const Frame& f, const EvalNode& c, const FunInfo& fi, const std::vector<Val>& args) {
    void* sym = o_.callExterns ? dlsym(RTLD_DEFAULT, fi.symbol.c_str()) : nullptr;
    bool fits = fi.retType == nullptr || fi.retType->isInt() || fi.retType->isFlt();
    int64_t a[6] = {};
    double d[8] = {};
    size_t ints = 0, floats = 0;
    for (size_t i = 0; i < args.size() && fits; i++) {
      const Val& v = args[i];
      bool single = i < fi.f32Params.size() && fi.f32Params[i];
      if (v.k == EvalKind::Int && ints < 6) {
        a[ints++] = v.v;
      } else if (v.k == EvalKind::Flt && floats < 8) {
        int64_t bits = v.v;
        if (single) {
          float x = float(bitsToDouble(v.v));
          uint32_t b;
          std::memcpy(&b, &x, sizeof b);
          bits = int64_t(b);
        }
        d[floats++] = bitsToDouble(bits);
      } else {
        fits = false;
      }
    }
    if (!sym || !fits) {
      res_.unsupported = "the program calls the external function '" + fi.name + "'";
      throw StopRun{};
    }
    std::fwrite(res_.out.data() + res_.outWritten, 1, res_.out.size() - res_.outWritten, stdout);
    std::fflush(stdout);
    res_.outWritten = res_.out.size();
    if (fi.retType && fi.retType->isFlt()) {
      using FFun = double (*)(int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, double, double, double,
                              double, double, double, double, double);
      double r = reinterpret_cast<FFun>(sym)(a[0], a[1], a[2], a[3], a[4], a[5], d[0], d[1], d[2], d[3], d[4],
                                             d[5], d[6], d[7]);
      if (fi.f32Result) {  // a float in the low half of xmm0
        uint64_t bits = uint64_t(doubleToBits(r));
        uint32_t low = uint32_t(bits);
        float x;
        std::memcpy(&x, &low, sizeof x);
        r = double(x);
      }
      return Val{doubleToBits(r), EvalKind::Flt};
    }
    using CFun = int64_t (*)(int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, double, double, double,
                             double, double, double, double, double);
    int64_t r = reinterpret_cast<CFun>(sym)(a[0], a[1], a[2], a[3], a[4], a[5], d[0], d[1], d[2], d[3], d[4], d[5],
                                            d[6], d[7]);
    return Val{r, EvalKind::Int};
  }

  void call(Frame& f, const EvalNode& c) {
    Val fp = eval(f, c, c.ins[2]);
    if (fp.k != EvalKind::Fun || fp.v < 0 || uint64_t(fp.v) >= g_.funs.size())
      fail(f, c, "calls a value that is not a function");
    std::vector<Val> args;
    for (size_t i = 3; i < c.ins.size(); i++) args.push_back(eval(f, c, c.ins[i]));
    int32_t end = c.next[0];
    if (end < 0) fail(f, c, "has no CallEnd");
    const FunInfo& fi = g_.funs[size_t(fp.v)];
    if (fi.isExtern) {
      returnTo(f, end, callExtern(f, c, fi, args));
      return;
    }
    if (frames_.size() >= o_.maxCallDepth) stackOverflow(int(fp.v));
    pushFrame(int(fp.v), args);  // `f` is not to be used after this
  }

  // The call whose CallEnd is `end` gave `v`.
  void returnTo(Frame& f, int32_t end, Val v) {
    set(f, end, v);
    invalidate(f, f.code->nodes[size_t(end)]);
    f.pc = end;
  }

  // ------------------------------------------------------------ memory

  Val argsAry_;  // sys.args, made once

  struct Obj {
    int64_t len = 0;
    std::vector<int64_t> cells;
    std::vector<EvalKind> kinds;
    // A struct object: len is its size in bytes, and cells are its 8-byte
    // words, little-endian, with narrow fields packed into them (an array's
    // cells are its elements).
    bool packed = false;
  };

  const Obj& object(const Frame& f, const EvalNode& user, Val p) const {
    if (p.k != EvalKind::Ptr || p.v <= 0 || uint64_t(p.v) > heap_.size())
      fail(f, user, "accesses memory through a value that is not an array");
    return heap_[size_t(p.v - 1)];
  }

  // A pure load: the length word of an array or string.
  Val lengthOf(const Frame& f, const EvalNode& n, Val p, Val off) const {
    if (MemAccess::decode(n.node->aux).alias != 0 || off.k != EvalKind::Int || off.v != 0)
      fail(f, n, "loads mutable memory without control");
    if (p.k == EvalKind::Str) {
      if (p.v < 0 || size_t(p.v) >= g_.strings.size()) fail(f, n, "reads a string that does not exist");
      return Val{int64_t(g_.strings[size_t(p.v)].size()), EvalKind::Int};
    }
    return Val{object(f, n, p).len, EvalKind::Int};
  }

  // Array classes are named `[]T`; any other class of a New is a struct's.
  bool isStructClass(int alias) const {
    return alias > 0 && size_t(alias) < g_.aliases.size() && g_.aliases[size_t(alias)].rfind("[]", 0) != 0;
  }

  void allocate(Frame& f, const EvalNode& c) {
    int64_t n = intOf(f, c, eval(f, c, c.ins[2]));
    if (n < 0) runtimeError(c.node->pos, "negative array size " + std::to_string(n));
    MemAccess m = MemAccess::decode(c.node->aux);
    bool packed = isStructClass(m.alias);
    if (packed && m.size != 1) fail(f, c, "allocates a struct object in units other than bytes");
    int64_t cells = packed ? (n + 7) / 8 : n;
    heapCells_ += uint64_t(cells) + 1;
    if (n > (int64_t(1) << 40) || heapCells_ > kMaxHeapCells) runtimeError(c.node->pos, "out of memory");
    Obj o;
    o.len = n;
    o.packed = packed;
    o.cells.assign(size_t(cells), 0);
    o.kinds.assign(size_t(cells), EvalKind::None);  // zero of whatever the elements are
    heap_.push_back(std::move(o));
    set(f, int32_t(&c - f.code->nodes.data()), Val{int64_t(heap_.size()), EvalKind::Ptr});
    invalidate(f, c);
    runMemOps(f, c);
    jump(f, c, 0);
  }

  // The element a Load or Store at byte offset `off` of `p` touches: its
  // index, or -1 for the length word.
  // A 16-byte access (two doubles) touches that element and the next.
  int64_t cellOf(const Frame& f, const EvalNode& n, int64_t len, int64_t off, int size) const {
    if (off == 0 && size == 8) return -1;
    int64_t at = off - kArrayHeader;
    int elem = size == 16 ? 8 : size;
    int64_t cells = size == 16 ? 2 : 1;
    if (at < 0 || at % elem != 0 || at / elem > len - cells)
      fail(f, n, "accesses memory out of bounds without a BoundsCheck");
    return at / elem;
  }

  // The byte a Load or Store at byte offset `off` of struct object o
  // starts at (from the first field): inside o, aligned to its width.
  int64_t byteOf(const Frame& f, const EvalNode& n, const Obj& o, int64_t off, int size) const {
    int64_t at = off - kArrayHeader;
    if (size > 8 || at < 0 || at % size != 0 || at > o.len - size)
      fail(f, n, "accesses a struct object outside its fields");
    return at;
  }

  // A narrow field of a struct object: its bits within their word, as the
  // load extends them (an f32 widened to a double).
  Val loadPacked(const Frame& f, const EvalNode& n, const Obj& o, int64_t at, const MemAccess& m) const {
    size_t w = size_t(at / 8);
    EvalKind k = o.kinds[w];
    if (m.size == 8) {
      if (k == EvalKind::None)
        k = m.value == MemValue::Float ? EvalKind::Flt : m.value == MemValue::Int ? EvalKind::Int : EvalKind::Ptr;
      return Val{o.cells[w], k};
    }
    if (k != EvalKind::None && k != EvalKind::Int) fail(f, n, "reads part of a word that holds a wider value");
    uint64_t bits = (uint64_t(o.cells[w]) >> (8 * (at % 8))) & ((uint64_t(1) << (8 * m.size)) - 1);
    if (m.value == MemValue::Float) {
      if (m.size != 4) fail(f, n, "reads a float of " + std::to_string(m.size) + " bytes");
      float fl;
      uint32_t b = uint32_t(bits);
      std::memcpy(&fl, &b, 4);
      return Val{doubleToBits(double(fl)), EvalKind::Flt};
    }
    return Val{m.extend(int64_t(bits)), EvalKind::Int};
  }

  void storePacked(const Frame& f, const EvalNode& n, Obj& o, int64_t at, const MemAccess& m, Val v) {
    size_t w = size_t(at / 8);
    if (m.size == 8) {
      o.cells[w] = v.v;
      o.kinds[w] = v.k;
      return;
    }
    if (o.kinds[w] != EvalKind::None && o.kinds[w] != EvalKind::Int)
      fail(f, n, "writes part of a word that holds a wider value");
    uint64_t bits = uint64_t(v.v);
    if (m.value == MemValue::Float) {
      if (m.size != 4 || v.k != EvalKind::Flt) fail(f, n, "stores a float of " + std::to_string(m.size) + " bytes");
      float fl = float(bitsToDouble(v.v));
      uint32_t b;
      std::memcpy(&b, &fl, 4);
      bits = b;
    }
    int shift = int(8 * (at % 8));
    uint64_t mask = ((uint64_t(1) << (8 * m.size)) - 1) << shift;
    o.cells[w] = int64_t((uint64_t(o.cells[w]) & ~mask) | ((bits << shift) & mask));
    o.kinds[w] = EvalKind::Int;  // raw bits: narrow loads extend them
  }

  bool isExternMemory(const MemAccess& m) const {
    return size_t(m.alias) < g_.aliases.size() && g_.aliases[size_t(m.alias)] == "extern";
  }

  // A load or store of an external C variable: real memory of this process,
  // at the address of the variable's symbol (dlsym) or at an address a C
  // function returned (errno is `*__errno_location()`).
  void externMemory(Frame& f, const EvalNode& c, const EvalNode& n, const MemAccess& m, Val p, int64_t off, int32_t s) {
    char* addr = nullptr;
    if (p.k == EvalKind::Fun && p.v >= 0 && size_t(p.v) < g_.funs.size() && g_.funs[size_t(p.v)].isData) {
      const FunInfo& fi = g_.funs[size_t(p.v)];
      addr = o_.callExterns ? static_cast<char*>(dlsym(RTLD_DEFAULT, fi.symbol.c_str())) : nullptr;
      if (!addr) {
        res_.unsupported = "the program uses the external variable '" + fi.name + "'";
        throw StopRun{};
      }
    } else if (p.k == EvalKind::Int && o_.callExterns) {
      addr = reinterpret_cast<char*>(p.v);
    } else {
      res_.unsupported = "the program uses an external variable";
      throw StopRun{};
    }
    addr += off;
    if (n.op == Op::Load) {
      int64_t x = 0;
      double d = 0;
      Val v;
      if (m.value == MemValue::Float) {
        if (m.size == 4) {
          float fl;
          std::memcpy(&fl, addr, 4);
          d = fl;
        } else {
          std::memcpy(&d, addr, 8);
        }
        v = Val{doubleToBits(d), EvalKind::Flt};
      } else {
        std::memcpy(&x, addr, size_t(m.size));
        v = Val{m.extend(x), EvalKind::Int};
      }
      set(f, s, v);
      invalidate(f, c);
      return;
    }
    Val v = eval(f, n, n.ins[4]);
    if (m.value == MemValue::Float) {
      double d = bitsToDouble(v.v);
      if (m.size == 4) {
        float fl = float(d);
        std::memcpy(addr, &fl, 4);
      } else {
        std::memcpy(addr, &d, 8);
      }
    } else {
      std::memcpy(addr, &v.v, size_t(m.size));
    }
    set(f, s, Val{});
  }

  void runMemOps(Frame& f, const EvalNode& c) {
    if (c.memOps.empty()) return;
    // Values computed from these loads last time are stale now; each one is
    // computed again on demand, after the loads it reads (the order).
    invalidate(f, c);
    for (int32_t s : c.memOps) {
      const EvalNode& n = f.code->nodes[size_t(s)];
      MemAccess m = MemAccess::decode(n.node->aux);
      Val p = eval(f, n, n.ins[2]);
      int64_t off = intOf(f, n, eval(f, n, n.ins[3]));
      tick();
      if (isExternMemory(m)) {
        if (m.size == 16) fail(f, n, "accesses an external variable 16 bytes at a time");
        externMemory(f, c, n, m, p, off, s);
        continue;
      }
      if (n.op == Op::Load) {
        Val v;
        if (p.k == EvalKind::Str) {
          if (p.v < 0 || size_t(p.v) >= g_.strings.size()) fail(f, n, "reads a string that does not exist");
          const std::string& str = g_.strings[size_t(p.v)];
          int64_t cell = cellOf(f, n, int64_t(str.size()), off, m.size);
          v = Val{cell < 0 ? int64_t(str.size()) : m.extend(uint8_t(str[size_t(cell)])), EvalKind::Int};
        } else {
          const Obj& o = object(f, n, p);
          if (o.packed) {
            set(f, s, loadPacked(f, n, o, byteOf(f, n, o, off, m.size), m));
            invalidate(f, c);
            continue;
          }
          int64_t cell = cellOf(f, n, o.len, off, m.size);
          if (cell < 0) {
            v = Val{o.len, EvalKind::Int};
          } else if (m.size == 16) {
            // Two doubles' bits (a never-stored element's 0 is 0.0).
            v = Val{o.cells[size_t(cell)], EvalKind::Vec, o.cells[size_t(cell) + 1]};
          } else {
            EvalKind k = o.kinds[size_t(cell)];
            int64_t x = o.cells[size_t(cell)];
            // Never stored: zero-filled, so a function slot holds null.
            if (k == EvalKind::None)
              k = m.value == MemValue::Fun   ? EvalKind::Ptr
                  : m.value == MemValue::Ptr   ? EvalKind::Ptr
                  : m.value == MemValue::Float ? EvalKind::Flt
                                               : EvalKind::Int;
            v = Val{k == EvalKind::Int ? m.extend(x) : x, k};
          }
        }
        set(f, s, v);
        // Values computed from this load's previous value (cached from the
        // last time through) are stale for the stores that follow.
        invalidate(f, c);
      } else {
        Val v = eval(f, n, n.ins[4]);
        if (p.k != EvalKind::Ptr) fail(f, n, "stores into read-only data");
        object(f, n, p);  // checks p
        Obj& o = heap_[size_t(p.v - 1)];
        if (o.packed) {
          storePacked(f, n, o, byteOf(f, n, o, off, m.size), m, v);
          set(f, s, Val{});
          continue;
        }
        int64_t cell = cellOf(f, n, o.len, off, m.size);
        if (cell < 0) fail(f, n, "overwrites an array's length");
        if (m.size == 16) {
          if (v.k != EvalKind::Vec) fail(f, n, "stores 16 bytes of a value that is not a vector");
          o.cells[size_t(cell)] = v.v;
          o.kinds[size_t(cell)] = EvalKind::Flt;
          o.cells[size_t(cell) + 1] = v.hi;
          o.kinds[size_t(cell) + 1] = EvalKind::Flt;
          set(f, s, Val{});
          continue;
        }
        o.cells[size_t(cell)] = v.v;
        o.kinds[size_t(cell)] = v.k;
        set(f, s, Val{});
      }
    }
  }

  void loop() {
    for (;;) {
      Frame& f = frames_.back();
      const EvalNode& c = f.code->nodes[size_t(f.pc)];
      tick();
      switch (c.op) {
        case Op::Fun: case Op::Region: case Op::Loop: case Op::CProj: case Op::CallEnd:
          runMemOps(f, c);
          jump(f, c, 0);
          break;
        case Op::BoundsCheck: {
          int64_t i = intOf(f, c, eval(f, c, c.ins[1]));
          int64_t n = intOf(f, c, eval(f, c, c.ins[2]));
          if (i < 0 || i >= n)
            runtimeError(c.node->pos, "index " + std::to_string(i) + " out of bounds for length " + std::to_string(n));
          runMemOps(f, c);
          jump(f, c, 0);
          break;
        }
        case Op::New: allocate(f, c); break;
        case Op::If: jump(f, c, truthy(f, c, eval(f, c, c.a)) ? 0 : 1); break;
        case Op::Never: jump(f, c, 1); break;
        case Op::ZeroCheck:
          if (!truthy(f, c, eval(f, c, c.a)))
            runtimeError(c.node->pos, c.node->aux == 1 ? "a C function declared to return a non-null reference returned null"
                                                       : "division by zero");
          runMemOps(f, c);
          jump(f, c, 0);
          break;
        case Op::Call: call(f, c); break;
        case Op::Return: {
          const FunInfo& fi = g_.funs[size_t(f.code->funIndex)];
          Val v{0, EvalKind::Int};
          if (c.ins.size() > 2 && c.node->in[2]) v = eval(f, c, c.ins[2]);
          if (!fi.retType) v = Val{0, EvalKind::Int};  // a void function leaves 0, as compiled code does
          popFrame();
          if (frames_.empty()) {
            res_.returnValue = v.k == EvalKind::Int ? v.v : 0;
            res_.exitStatus = int(uint64_t(res_.returnValue) & 255);
            return;
          }
          Frame& caller = frames_.back();
          returnTo(caller, caller.code->nodes[size_t(caller.pc)].next[0], v);
          break;
        }
        default: fail(f, c, "is not a control node the evaluator can execute");
      }
    }
  }

  const Unit& g_;
  const EvalOptions& o_;
  std::vector<std::unique_ptr<EvalCode>> codes_;
  std::vector<Frame> frames_;
  std::vector<int64_t> val_;
  // Vec values' lane 1, by slot like val_; grown only once a vector is set
  // (programs without vectors pay nothing).
  std::vector<int64_t> hi_;
  std::vector<uint32_t> stamp_;
  std::vector<EvalKind> kind_;
  std::vector<int32_t> work_;
  std::vector<Val> phiVals_;
  std::vector<Obj> heap_;
  uint64_t heapCells_ = 0;
  static constexpr uint64_t kMaxHeapCells = uint64_t(1) << 26;  // about 600 MB
  uint64_t steps_ = 0;
  EvalResult res_;
};

}  // namespace

EvalResult evaluate(const Unit& g, int funIndex, std::vector<int64_t> args, const EvalOptions& opts) {
  if (funIndex < 0 || size_t(funIndex) >= g.funs.size())
    internalError("evaluate", "no function #" + std::to_string(funIndex));
  std::vector<Val> vals;
  for (int64_t a : args) vals.push_back(Val{a, EvalKind::Int});
  return Evaluator(g, opts).run(funIndex, vals);
}

int entryFunction(const Unit& g) {
  for (size_t i = 0; i < g.funs.size(); i++)
    if (g.funs[i].isEntry && g.funs[i].hasBody()) return int(i);
  return -1;
}

std::string evalDifference(const EvalResult& a, const EvalResult& b) {
  if (!a.unsupported.empty() || !b.unsupported.empty()) return "";
  size_t n = std::min(a.out.size(), b.out.size());
  size_t i = size_t(std::mismatch(a.out.begin(), a.out.begin() + ptrdiff_t(n), b.out.begin()).first - a.out.begin());
  bool both = a.complete() && b.complete();
  if (i < n || (both && a.out.size() != b.out.size()))
    return "stdout differs at byte " + std::to_string(i) + ": before " + excerpt(a.out, i) + ", after " +
           excerpt(b.out, i);
  if (!both) return "";
  auto err = [](const std::string& e) { return e.empty() ? std::string("none") : "'" + e + "'"; };
  if (a.error != b.error) return "runtime error before " + err(a.error) + ", after " + err(b.error);
  if (a.exitStatus != b.exitStatus)
    return "exit status before " + std::to_string(a.exitStatus) + ", after " + std::to_string(b.exitStatus);
  return "";
}

EvalResult evaluateProgram(const Unit& g, int64_t argc, const EvalOptions& opts) {
  int main = entryFunction(g);
  if (main < 0) {
    EvalResult r;
    r.unsupported = "the program has no main function";
    return r;
  }
  // Compiled main is called by the C runtime as main(argc, argv).
  std::vector<int64_t> args;
  if (!g.funs[size_t(main)].paramTypes.empty()) args.push_back(argc);
  while (args.size() < g.funs[size_t(main)].paramTypes.size()) args.push_back(0);
  return evaluate(g, main, std::move(args), opts);
}

}  // namespace simplec
