// Lays out one function for the graph evaluator: control nodes are found
// forward from the Fun node (successors through use lists), data nodes
// backward from what control nodes and Phis read. All walks use explicit
// worklists, so graph size never turns into C++ recursion depth.
#include "son/eval_code.h"

#include <algorithm>
#include <array>
#include <string>
#include <unordered_map>

#include "lexer/diag.h"
#include "son/compute.h"
#include "son/mem_access.h"

namespace simplec {

namespace {

bool isArith(Op op);

bool isMemType(const Node* n) { return n->type && n->type->kind() == TKind::Mem; }

bool isArith(Op op) {
  switch (op) {
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Mod:
    case Op::And: case Op::Or: case Op::Xor: case Op::Shl: case Op::Sar: case Op::Shr:
    case Op::EQ: case Op::NE: case Op::LT: case Op::LE:
    case Op::FAdd: case Op::FSub: case Op::FMul: case Op::FDiv: case Op::FMin: case Op::FMax:
    case Op::FEQ: case Op::FNE: case Op::FLT: case Op::FLE:
    case Op::VAdd: case Op::VSub: case Op::VMul: case Op::VDiv: case Op::VMin: case Op::VMax:
      return true;
    default:
      return false;
  }
}

// A load of immutable data (an array's length): no control, no memory.
bool isPureLoad(const Node* n) { return n->op == Op::Load && n->in.size() == 4 && !n->in[0] && !n->in[1]; }

std::string ref(const Node* n) { return "node " + std::to_string(n->id) + " (" + n->label() + ")"; }

[[noreturn]] void malformed(const std::string& msg) { internalError("evaluate", msg); }

// A control successor found in the graph: the node and, for a Region, the
// index of the edge.
struct Succ {
  const Node* node = nullptr;
  int32_t pred = 0;
  bool ambiguous = false;
};

class Builder {
 public:
  explicit Builder(const Graph& g) : g_(g), funIndex_(g.funIndex()), live_(g.size(), 0), found_(g.size(), 0) {
    for (Node* n : liveNodes(g)) live_[n->id] = 1;
  }

  EvalCode build() {
    const FunInfo& info = g_.info();
    if (info.isExtern || !info.fun) malformed("function '" + info.name + "' has no body to evaluate");
    fun_ = info.fun;
    discover();
    return layout();
  }

 private:
  bool isLive(const Node* n) const { return n && !n->dead && g_.owns(n) && live_[n->id]; }

  void add(const Node* n) {
    if (!g_.owns(n)) malformed(ref(n) + " belongs to another function");
    if (found_[n->id]) return;
    found_[n->id] = 1;
    order_.push_back(n);
    work_.push_back(n);
  }

  // The one live control node that takes `c` as its control input (for a
  // Region: as one of its predecessors).
  Succ uniqueCtrlUser(const Node* c) const {
    Succ s;
    for (const Node* u : c->out) {
      if (!isLive(u) || !u->isCFG() || u->op == Op::Stop || u == s.node) continue;
      int32_t pred = -1;
      if (u->isRegion()) {
        for (size_t k = 1; k < u->in.size() && pred < 0; k++)
          if (u->in[k] == c) pred = int32_t(k);
      } else if (!u->in.empty() && u->in[0] == c) {
        pred = 0;
      }
      if (pred < 0) continue;
      if (s.node) {
        s.ambiguous = true;
        return s;
      }
      s.node = u;
      s.pred = pred;
    }
    return s;
  }

  // Users of `c` of kind `op` that take it as input 0, by their aux (0 or 1).
  void armsOf(const Node* c, Op op, Succ arms[2]) const {
    for (const Node* u : c->out) {
      if (!isLive(u) || u->op != op || u->in.empty() || u->in[0] != c) continue;
      if (u->aux < 0 || u->aux > 1) continue;
      Succ& s = arms[u->aux];
      if (s.node && s.node != u) s.ambiguous = true;
      s.node = u;
    }
  }

  void data(const Node* n) {
    if (!n) return;
    if (n->isCFG()) malformed(ref(n) + " is a control node used as a value");
    add(n);
  }

  void discover() {
    add(fun_);
    while (!work_.empty()) {
      const Node* n = work_.back();
      work_.pop_back();
      if (n->dead) malformed(ref(n) + " is dead but still used");
      if (n->isCFG()) {
        visitControl(n);
      } else {
        visitData(n);
      }
    }
  }

  void visitControl(const Node* c) {
    Succ arms[2];
    switch (c->op) {
      case Op::Fun:
        if (c != fun_) malformed(ref(c) + " is the entry of another function");
        arms[0] = uniqueCtrlUser(c);
        break;
      case Op::Region: case Op::Loop: case Op::CProj: case Op::ZeroCheck: case Op::BoundsCheck:
        arms[0] = uniqueCtrlUser(c);
        break;
      case Op::If: case Op::Never: armsOf(c, Op::CProj, arms); break;
      case Op::New:
      case Op::CallEnd: {
        Succ both[2];
        armsOf(c, Op::CProj, both);
        arms[0] = both[0];
        break;
      }
      case Op::Call:
        for (const Node* u : c->out)
          if (isLive(u) && u->op == Op::CallEnd && !u->in.empty() && u->in[0] == c) {
            if (arms[0].node && arms[0].node != u) arms[0].ambiguous = true;
            arms[0].node = u;
          }
        break;
      case Op::Return: break;
      default: malformed(ref(c) + " cannot appear in a function's control flow");
    }
    for (int i = 0; i < 2; i++) {
      succ_[c][i] = arms[i];
      if (arms[i].node && !arms[i].ambiguous) add(arms[i].node);
    }
    // Memory operations pinned below this control node run with it.
    for (const Node* u : c->out)
      if (isLive(u) && (u->op == Op::Load || u->op == Op::Store) && !u->in.empty() && u->in[0] == c) add(u);
    // What the control node reads.
    switch (c->op) {
      case Op::If: case Op::ZeroCheck:
        if (c->in.size() < 2 || !c->in[1]) malformed(ref(c) + " has no value to test");
        data(c->in[1]);
        break;
      case Op::BoundsCheck:
        if (c->in.size() < 3 || !c->in[1] || !c->in[2]) malformed(ref(c) + " has no index or length to test");
        data(c->in[1]);
        data(c->in[2]);
        break;
      case Op::New:
        if (c->in.size() < 3 || !c->in[2]) malformed(ref(c) + " has no length");
        data(c->in[2]);
        break;
      case Op::Call:
        if (c->in.size() < 3 || !c->in[2]) malformed(ref(c) + " has no function to call");
        for (size_t i = 2; i < c->in.size(); i++) {
          if (!c->in[i]) malformed(ref(c) + " has a missing argument");
          data(c->in[i]);
        }
        break;
      case Op::Return:
        if (c->in.size() > 2 && c->in[2]) data(c->in[2]);
        break;
      case Op::Region: case Op::Loop:
        for (const Node* u : c->out)
          if (isLive(u) && u->op == Op::Phi && !u->in.empty() && u->in[0] == c) add(u);
        break;
      default: break;
    }
  }

  void visitData(const Node* n) {
    switch (n->op) {
      case Op::Con: return;
      case Op::Parm:
        if (n->in.empty() || n->in[0] != fun_) malformed(ref(n) + " is a parameter of another function");
        return;
      case Op::Phi:
        if (n->in.empty() || !n->in[0] || !n->in[0]->isRegion()) malformed(ref(n) + " has no region");
        if (isMemType(n)) return;
        for (size_t i = 1; i < n->in.size(); i++) data(n->in[i]);
        return;
      case Op::Proj:
        if (n->in.empty() || !n->in[0] || (n->in[0]->op != Op::CallEnd && n->in[0]->op != Op::New))
          malformed(ref(n) + " does not project a call's or an allocation's result");
        add(n->in[0]);
        return;
      case Op::Load:
      case Op::Store:
        if (isPureLoad(n)) {  // an array length: computed on demand
          data(n->in[2]);
          data(n->in[3]);
          return;
        }
        // The memory input orders, it carries no value; control runs these.
        if (n->in.size() < 4 || !n->in[0] || !n->in[0]->isCFG()) malformed(ref(n) + " is not pinned to control");
        add(n->in[0]);
        for (size_t i = 2; i < n->in.size(); i++) data(n->in[i]);
        return;
      case Op::MergeMem: return;
      case Op::Select:
        if (n->in.size() != 4 || !n->in[1] || !n->in[2] || !n->in[3]) malformed(ref(n) + " has a missing operand");
        for (size_t i = 1; i < 4; i++) data(n->in[i]);
        return;
      case Op::Neg: case Op::Not: case Op::Cast: case Op::FNeg: case Op::IToF: case Op::FToI: case Op::FToF32:
      case Op::FSqrt: case Op::FAbs: case Op::FFloor: case Op::FCeil: case Op::VSplat:
      case Op::VNeg: case Op::VAbs: case Op::VSqrt:
        if (n->in.size() < 2 || !n->in[1]) malformed(ref(n) + " has a missing operand");
        data(n->in[1]);
        return;
      default:
        if (!isArith(n->op)) malformed(ref(n) + " cannot be evaluated");
        if (n->in.size() < 3 || !n->in[1] || !n->in[2]) malformed(ref(n) + " has a missing operand");
        data(n->in[1]);
        data(n->in[2]);
        return;
    }
  }

  static SlotClass classOf(const Node* n) {
    switch (n->op) {
      case Op::Load:
        return isPureLoad(n) ? SlotClass::Computed : SlotClass::Assigned;
      case Op::Parm: case Op::Phi: case Op::CallEnd: case Op::New: case Op::Store:
        return SlotClass::Assigned;
      case Op::MergeMem: return SlotClass::Const;
      case Op::Con: return SlotClass::Const;
      default: return n->isCFG() ? SlotClass::Control : SlotClass::Computed;
    }
  }

  void setConst(EvalNode& e) const {
    const Type* t = e.node->type;
    if (t && t->isInt() && t->isConst()) {
      e.kind = EvalKind::Int;
      e.imm = t->value();
    } else if (t && t->isFltConst()) {
      e.kind = EvalKind::Flt;
      e.imm = t->lo();  // the double's bits
    } else if (t && t->kind() == TKind::FunPtr && t->isConst() && t->fun() >= 0) {
      e.kind = EvalKind::Fun;
      e.imm = t->fun();
    } else if (t && t->isPtr() && t->fun() >= 0) {
      e.kind = EvalKind::Str;
      e.imm = t->fun();
    } else if (t && t->isNullPtr()) {
      e.kind = EvalKind::Ptr;
      e.imm = 0;
    } else if (t && (t->kind() == TKind::Mem || t->isCtrlLike())) {
      e.kind = EvalKind::None;
    } else {
      malformed(ref(e.node) + " is not a constant value");
    }
  }

  EvalCode layout() {
    EvalCode code;
    code.funIndex = funIndex_;
    // Stored slots first, in discovery order, then the rest.
    std::vector<const Node*> bySlot;
    for (const Node* n : order_)
      if (classOf(n) == SlotClass::Assigned || classOf(n) == SlotClass::Computed) bySlot.push_back(n);
    code.numStored = int32_t(bySlot.size());
    for (const Node* n : order_)
      if (classOf(n) == SlotClass::Const || classOf(n) == SlotClass::Control) bySlot.push_back(n);
    std::unordered_map<const Node*, int32_t> slot;
    for (size_t i = 0; i < bySlot.size(); i++) slot.emplace(bySlot[i], int32_t(i));
    auto slotOf = [&](const Node* n) -> int32_t {
      auto it = n ? slot.find(n) : slot.end();
      return it == slot.end() ? -1 : it->second;
    };
    code.nodes.resize(bySlot.size());
    for (size_t i = 0; i < bySlot.size(); i++) {
      const Node* n = bySlot[i];
      EvalNode& e = code.nodes[i];
      e.node = n;
      e.op = n->op;
      e.cls = classOf(n);
      e.memory = (n->op == Op::Phi || n->op == Op::Parm || n->op == Op::Proj) && isMemType(n);
      if (n->op == Op::Parm && n->aux < 0) e.memory = true;
      if (n->op == Op::Proj && n->aux != 2) e.memory = true;
      if (n->op == Op::Store || n->op == Op::MergeMem) e.memory = true;
      e.imm = n->aux;
      e.ins.reserve(n->in.size());
      for (const Node* d : n->in) e.ins.push_back(slotOf(d));
      if (e.cls == SlotClass::Const) setConst(e);
      if (n->op == Op::Proj) e.a = e.ins[0];
      e.unary = n->op == Op::Proj || n->op == Op::Cast || isUnary(n->op);
      if (isUnary(n->op) || n->op == Op::Cast || n->op == Op::If || n->op == Op::ZeroCheck) e.a = e.ins[1];
      if (isArith(n->op) || n->op == Op::Select) {
        e.a = e.ins[1];
        e.b = e.ins[2];
      }
      if (n->op == Op::Select) e.c = e.ins[3];
      if (isPureLoad(n)) {
        e.a = e.ins[2];
        e.b = e.ins[3];
      }
      if (n->op == Op::Parm) code.parms.push_back(int32_t(i));
      if (n == fun_) code.entry = int32_t(i);
      auto s = succ_.find(n);
      if (s != succ_.end())
        for (int k = 0; k < 2; k++) {
          const Succ& sc = s->second[k];
          e.next[k] = sc.ambiguous ? EvalNode::kAmbiguous : sc.node ? slotOf(sc.node) : EvalNode::kNoSucc;
          e.nextPred[k] = sc.pred;
        }
    }
    for (size_t i = 0; i < bySlot.size(); i++) {
      const Node* n = bySlot[i];
      if (n->op == Op::Phi && n->in[0]) {
        int32_t r = slotOf(n->in[0]);
        if (r >= 0) code.nodes[size_t(r)].phis.push_back(int32_t(i));
      }
    }
    orderMemOps(code, slotOf);
    computeStale(code);
    return code;
  }

  // The memory operations of each control node, dependences first: direct
  // and computed data inputs (through pure nodes and loads without control),
  // the memory chain, and loads of a memory before the stores that overwrite
  // it (anti-dependences). Node ids break ties.
  template <class SlotOf>
  void orderMemOps(EvalCode& code, const SlotOf& slotOf) {
    std::unordered_map<const Node*, std::vector<const Node*>> byCtrl;
    for (const Node* n : order_)
      if ((n->op == Op::Load || n->op == Op::Store) && slotOf(n->in[0]) >= 0) byCtrl[n->in[0]].push_back(n);
    for (auto& entry : byCtrl) {
      // Named, not a structured binding: the lambda below captures it
      // (clang before 16 cannot capture structured bindings).
      const Node* c = entry.first;
      std::vector<const Node*>& ops = entry.second;
      std::sort(ops.begin(), ops.end(), [](const Node* a, const Node* b) { return a->id < b->id; });
      std::unordered_map<const Node*, char> state;  // 0 new, 1 on stack, 2 done
      std::unordered_map<const Node*, char> isOp;
      for (const Node* o : ops) isOp[o] = 1;
      std::vector<int32_t>& out = code.nodes[size_t(slotOf(c))].memOps;
      // Depth-first over dependences, with an explicit stack.
      for (const Node* root : ops) {
        if (state[root]) continue;
        std::vector<std::pair<const Node*, std::vector<const Node*>>> stack;
        auto deps = [&](const Node* n) {
          std::vector<const Node*> d;
          for (size_t i = 1; i < n->in.size(); i++)
            if (n->in[i] && !n->in[i]->isCFG() && n->in[i]->op != Op::Phi && n->in[i]->op != Op::Con) d.push_back(n->in[i]);
          if (n->op == Op::Store) {
            // A store runs after every load of this group that reads a memory
            // state it overwrites: its own memory input, or one before it
            // along the chain of this group's stores (a load may skip a
            // disjoint store, and a later store then overwrites its slot).
            std::vector<const Node*> states, work{n->in[1]};
            while (!work.empty() && states.size() < 64) {
              const Node* m = work.back();
              work.pop_back();
              if (!m || std::find(states.begin(), states.end(), m) != states.end()) continue;
              states.push_back(m);
              if (m->op == Op::Store && isOp.count(m)) work.push_back(m->in[1]);
              if (m->op == Op::MergeMem)
                for (size_t i = 1; i < m->in.size(); i++) work.push_back(m->in[i]);
            }
            // A store of another alias class cannot change what o reads (the
            // classes share a memory state until one of them is stored to).
            int alias = MemAccess::decode(n->aux).alias;
            for (const Node* o : ops)
              if (o->op == Op::Load && o != n && std::find(states.begin(), states.end(), o->in[1]) != states.end() &&
                  MemAccess::decode(o->aux).alias == alias && !provablyDisjoint(o, n))
                d.push_back(o);
          }
          std::reverse(d.begin(), d.end());
          return d;
        };
        state[root] = 1;
        stack.push_back({root, deps(root)});
        while (!stack.empty()) {
          auto& [n, todo] = stack.back();
          if (!todo.empty()) {
            const Node* d = todo.back();
            todo.pop_back();
            if (state[d]) continue;  // done, or on the stack (a data cycle: not ours)
            // A MergeMem is walked through: the stores it merges come first.
            // So is a load without control (an array length): it is computed
            // where it is used, so what it reads (say, a field load of this
            // group) must come first.
            if (d->op == Op::Parm || d->op == Op::Proj) continue;
            bool pinnedElsewhere = d->op == Op::Store || d->op == Op::New || (d->op == Op::Load && d->in[0]);
            if (!isOp.count(d) && pinnedElsewhere) continue;
            state[d] = 1;
            stack.push_back({d, deps(d)});
            continue;
          }
          state[n] = 2;
          if (isOp.count(n)) out.push_back(slotOf(n));
          stack.pop_back();
        }
      }
    }
  }

  // For each Region and CallEnd: the Computed slots reachable forward from
  // the values it assigns, not going through other assigned slots. The work
  // (and memory) for all lists together stays linear in the function's size:
  // once a budget is spent, the remaining ones are all staleAll.
  static void computeStale(EvalCode& code) {
    size_t n = size_t(code.numStored);
    std::vector<int32_t> start(n + 1, 0), users;
    for (size_t s = 0; s < n; s++) {
      const EvalNode& e = code.nodes[s];
      if (e.cls != SlotClass::Computed || e.memory) continue;
      for (int32_t d : {e.a, e.b, e.c})
        if (d >= 0 && size_t(d) < n) start[size_t(d) + 1]++;
    }
    for (size_t i = 0; i < n; i++) start[i + 1] += start[i];
    users.resize(size_t(start[n]));
    std::vector<int32_t> fill(start.begin(), start.end() - 1);
    for (size_t s = 0; s < n; s++) {
      const EvalNode& e = code.nodes[s];
      if (e.cls != SlotClass::Computed || e.memory) continue;
      for (int32_t d : {e.a, e.b, e.c})
        if (d >= 0 && size_t(d) < n) users[size_t(fill[size_t(d)]++)] = int32_t(s);
    }
    std::vector<uint32_t> seen(n, 0);
    uint32_t mark = 0;
    std::vector<int32_t> work;
    size_t budget = 16 * n + 4 * kMaxStaleList;
    for (EvalNode& e : code.nodes) {
      std::vector<int32_t> sources;
      if (e.op == Op::Region || e.op == Op::Loop) {
        for (int32_t p : e.phis)
          if (!code.nodes[size_t(p)].memory) sources.push_back(p);
      } else if ((e.op == Op::CallEnd || e.op == Op::New) && size_t(&e - code.nodes.data()) < n) {
        sources.push_back(int32_t(&e - code.nodes.data()));
      }
      for (int32_t s : e.memOps)
        if (code.nodes[size_t(s)].op == Op::Load) sources.push_back(s);
      if (sources.empty()) continue;
      mark++;
      work = sources;
      for (int32_t s : sources) seen[size_t(s)] = mark;
      // Each edge looked at costs one unit of budget; the walk stops when
      // the list is too long or the budget is gone.
      while (!work.empty() && !e.staleAll) {
        int32_t s = work.back();
        work.pop_back();
        for (int32_t i = start[size_t(s)]; i < start[size_t(s) + 1]; i++) {
          if (budget == 0 || e.stale.size() > kMaxStaleList) {
            e.staleAll = true;
            break;
          }
          budget--;
          int32_t u = users[size_t(i)];
          if (seen[size_t(u)] == mark) continue;
          seen[size_t(u)] = mark;
          e.stale.push_back(u);
          work.push_back(u);
        }
        if (e.stale.size() > kMaxStaleList) e.staleAll = true;
      }
      if (e.staleAll) {
        e.stale.clear();
        e.stale.shrink_to_fit();
      }
    }
  }

  const Graph& g_;
  int funIndex_;
  std::vector<char> live_;   // by node id: reachable from Stop
  const Node* fun_ = nullptr;
  std::vector<char> found_;  // by node id
  std::vector<const Node*> order_;
  std::vector<const Node*> work_;
  std::unordered_map<const Node*, std::array<Succ, 2>> succ_;
};

}  // namespace

bool isUnary(Op op) {
  return op == Op::Neg || op == Op::Not || op == Op::VSplat || isUnaryVecOp(op) || (isFloatOp(op) && !isArith(op));
}

EvalCode buildEvalCode(const Graph& g) { return Builder(g).build(); }

}  // namespace simplec
