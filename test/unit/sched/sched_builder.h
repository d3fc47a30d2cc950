// Test helpers for the sched stage: a small builder that makes a function of
// a Unit by hand in its own graph (typed nodes, a FunInfo, the Return on Stop), and
// `checkedGcm`, which schedules a function and runs both the graph verifier
// and the independent schedule checker on the result.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "sched/gcm.h"
#include "sched/schedule_verify.h"
#include "son/unit.h"
#include "son/verify.h"

namespace simplec::test {

class FunBuilder {
 public:
  FunBuilder(Unit& u, const std::string& name, int nParams) : index(int(u.funs.size())), g(newGraph(u, name)), g_(g) {
    fun = g.make(Op::Fun, {g.start()}, Type::ctrl(), index);
    fun->name = name;
    mem = g.make(Op::Parm, {fun}, Type::mem(), -1);
    for (int i = 0; i < nParams; i++) parms.push_back(g.make(Op::Parm, {fun}, Type::intBot(), i));
    u.funs[size_t(index)].fun = fun;
  }

  Node* parm(int i) const { return parms[size_t(i)]; }
  Node* con(int64_t v) { return g_.con(Type::intConst(v)); }
  Node* op(Op o, Node* a, Node* b) { return g_.make(o, {nullptr, a, b}, Type::intBot()); }
  Node* cmp(Op o, Node* a, Node* b) { return g_.make(o, {nullptr, a, b}, Type::boolType()); }
  Node* add(Node* a, Node* b) { return op(Op::Add, a, b); }
  // A Div pinned below `ctrl` (e.g. a ZeroCheck).
  Node* div(Node* ctrl, Node* a, Node* b) { return g_.make(Op::Div, {ctrl, a, b}, Type::intBot()); }
  Node* zeroCheck(Node* ctrl, Node* v) { return g_.make(Op::ZeroCheck, {ctrl, v}, Type::ctrl()); }

  // An If and its two arms.
  struct Branch {
    Node* iff;
    Node* t;
    Node* f;
  };
  Branch branch(Node* ctrl, Node* pred) {
    Node* iff = g_.make(Op::If, {ctrl, pred}, Type::tuple({Type::ctrl(), Type::ctrl()}));
    return {iff, g_.make(Op::CProj, {iff}, Type::ctrl(), 0), g_.make(Op::CProj, {iff}, Type::ctrl(), 1)};
  }
  // The never-taken exit of an endless loop: arm 0 leaves, arm 1 stays.
  Branch never(Node* ctrl) {
    Node* nv = g_.make(Op::Never, {ctrl}, Type::tuple({Type::ctrl(), Type::ctrl()}));
    return {nv, g_.make(Op::CProj, {nv}, Type::ctrl(), 0), g_.make(Op::CProj, {nv}, Type::ctrl(), 1)};
  }
  Node* region(std::vector<Node*> preds) {
    preds.insert(preds.begin(), nullptr);
    return g_.make(Op::Region, preds, Type::ctrl());
  }
  Node* phi(Node* r, std::vector<Node*> vals) {
    vals.insert(vals.begin(), r);
    return g_.make(Op::Phi, vals, Type::intBot());
  }
  // A Loop whose back edge is set later with closeLoop.
  Node* loop(Node* entry) { return g_.make(Op::Loop, {nullptr, entry, nullptr}, Type::ctrl()); }
  Node* loopPhi(Node* loop, Node* init) { return g_.make(Op::Phi, {loop, init, nullptr}, Type::intBot()); }
  void closeLoop(Node* loop, Node* back) { g_.setDef(loop, 2, back); }
  void setBack(Node* phi, Node* v) { g_.setDef(phi, 2, v); }

  // A call of function `callee` with int arguments: {CProj ctrl, Proj mem, Proj result}.
  struct CallResult {
    Node* call;
    Node* end;
    Node* ctrl;
    Node* mem;
    Node* value;
  };
  CallResult call(Node* ctrl, Node* memIn, int callee, std::vector<Node*> args) {
    std::vector<Node*> ins{ctrl, memIn, g_.con(Type::funPtr(callee))};
    ins.insert(ins.end(), args.begin(), args.end());
    Node* c = g_.make(Op::Call, ins, Type::ctrl());
    Node* e = g_.make(Op::CallEnd, {c}, Type::tuple({Type::ctrl(), Type::mem(), Type::intBot()}));
    return {c, e, g_.make(Op::CProj, {e}, Type::ctrl(), 0), g_.make(Op::Proj, {e}, Type::mem(), 1),
            g_.make(Op::Proj, {e}, Type::intBot(), 2)};
  }

  Node* ret(Node* ctrl, Node* memV, Node* value) {
    Node* r = g_.make(Op::Return, {ctrl, memV, value}, Type::ctrl());
    g_.info().ret = r;
    g_.addDef(g_.stop(), r);
    return r;
  }

  int index;
  Graph& g;  // this function's graph
  Node* fun;
  Node* mem;
  std::vector<Node*> parms;

 private:
  static Graph& newGraph(Unit& u, const std::string& name) {
    FunInfo f;
    f.name = name;
    f.symbol = name;
    u.funs.push_back(std::move(f));
    return u.newGraph(int(u.funs.size()) - 1);
  }
  Graph& g_;
};

// The graph must verify, gcm must succeed, and the schedule must check.
// verifyGraph = false skips son's verify(), which is quadratic in a node's
// fan-out (it counts each input in its use list): too slow for the stress
// tests' parameters with 100k uses.
inline Schedule checkedGcm(const Graph& g, bool verifyGraph = true) {
  if (verifyGraph) {
    std::vector<std::string> gerrs = verify(g);
    INFO("graph: " << (gerrs.empty() ? std::string() : gerrs[0]));
    REQUIRE(gerrs.empty());
  }
  Schedule s = gcm(g);
  std::vector<std::string> serrs = verifySchedule(g, s);
  std::string all;
  for (const std::string& e : serrs) all += e + "\n";
  INFO("schedule:\n" << all << printSchedule(g, s));
  REQUIRE(serrs.empty());
  return s;
}

// Index of n inside its block's node list.
inline int posInBlock(const Schedule& s, const Node* n) {
  const std::vector<Node*>& ns = s.blocks[size_t(s.blockIndexOf(n))].nodes;
  return int(std::find(ns.begin(), ns.end(), n) - ns.begin());
}

// The block headed by `head`.
inline int blockOfHead(const Schedule& s, const Node* head) {
  for (size_t b = 0; b < s.blocks.size(); b++)
    if (s.blocks[b].head == head) return int(b);
  return -1;
}

}  // namespace simplec::test
