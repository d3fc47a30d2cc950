// Test helpers for the son and opt stages: SonBuilder makes one function of a
// Unit by hand, in its own Graph (Fun, memory Parm, int Parms, a Return
// hooked to Stop) with every node typed by compute(), so a freshly built
// graph verifies. Also a few views used by many tests: verify() errors as
// one string, the live nodes of a kind, and a per-function pass run over
// every function of a unit.
// Invariant: nodes are only built through Graph::make, so use lists stay exact.
#pragma once
#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "son/compute.h"
#include "son/unit.h"
#include "son/printer.h"
#include "son/verify.h"

namespace simplec::sontest {

// A function of int parameters and result, with an empty graph.
inline int addFunction(Unit& u, const std::string& name, int nParams) {
  int index = int(u.funs.size());
  FunInfo f;
  f.name = name;
  f.symbol = name;
  for (int i = 0; i < nParams; i++) f.paramTypes.push_back(Type::intBot());
  f.retType = Type::intBot();
  u.funs.push_back(std::move(f));
  u.newGraph(index);
  return index;
}

class SonBuilder {
 public:
  SonBuilder(Unit& u, const std::string& name, int nParams)
      : u(u), index(addFunction(u, name, nParams)), g(*u.funs[size_t(index)].graph) {
    fun = g.make(Op::Fun, {g.start()}, Type::ctrl(), index);
    fun->name = name;
    mem = g.make(Op::Parm, {fun}, Type::mem(), -1);
    for (int i = 0; i < nParams; i++) parms.push_back(g.make(Op::Parm, {fun}, Type::intBot(), i));
    u.funs[size_t(index)].fun = fun;
  }

  Node* parm(int i) const { return parms[size_t(i)]; }
  // A constant (not value-numbered: two calls give two nodes).
  Node* con(int64_t v) { return g.con(Type::intConst(v)); }
  Node* dead() { return g.con(Type::xctrl()); }
  // A data node typed by its transfer function.
  Node* op(Op o, Node* a, Node* b = nullptr) {
    Node* n = b ? g.make(o, {nullptr, a, b}) : g.make(o, {nullptr, a});
    n->type = compute(n);
    return n;
  }
  Node* add(Node* a, Node* b) { return op(Op::Add, a, b); }
  Node* zeroCheck(Node* ctrl, Node* v) { return typed(g.make(Op::ZeroCheck, {ctrl, v})); }
  // A Div/Mod pinned below `ctrl` (null: floating).
  Node* div(Op o, Node* ctrl, Node* a, Node* b) { return typed(g.make(o, {ctrl, a, b})); }

  struct Branch {
    Node* iff;
    Node* t;  // CProj 0
    Node* f;  // CProj 1
  };
  Branch branch(Node* ctrl, Node* pred) {
    Node* iff = typed(g.make(Op::If, {ctrl, pred}));
    return {iff, typed(g.make(Op::CProj, {iff}, nullptr, 0)), typed(g.make(Op::CProj, {iff}, nullptr, 1))};
  }
  Node* region(std::vector<Node*> preds) {
    preds.insert(preds.begin(), nullptr);
    return typed(g.make(Op::Region, preds));
  }
  // A Phi typed by meeting its values (or `t` when given).
  Node* phi(Node* r, std::vector<Node*> vals, const Type* t = nullptr) {
    vals.insert(vals.begin(), r);
    Node* p = g.make(Op::Phi, vals, t);
    if (!t) p->type = compute(p);
    return p;
  }
  // A Loop whose back edge is set later with closeLoop; its Phis are int
  // until then (as the parser types a Phi of an open loop).
  Node* loop(Node* entry) { return g.make(Op::Loop, {nullptr, entry, nullptr}, Type::ctrl()); }
  Node* loopPhi(Node* loop, Node* init) { return g.make(Op::Phi, {loop, init, nullptr}, Type::intBot()); }
  void closeLoop(Node* loop, Node* back) { g.setDef(loop, 2, back); }

  struct CallResult {
    Node* call;
    Node* end;
    Node* ctrl;
    Node* mem;
    Node* value;
  };
  CallResult call(Node* ctrl, Node* memIn, int callee, std::vector<Node*> args) {
    std::vector<Node*> ins{ctrl, memIn, g.con(Type::funPtr(callee))};
    ins.insert(ins.end(), args.begin(), args.end());
    Node* c = typed(g.make(Op::Call, ins));
    Node* e = g.make(Op::CallEnd, {c}, Type::tuple({Type::ctrl(), Type::mem(), Type::intBot()}));
    e->type = compute(e);
    return {c, e, typed(g.make(Op::CProj, {e}, nullptr, 0)), typed(g.make(Op::Proj, {e}, nullptr, 1)),
            typed(g.make(Op::Proj, {e}, nullptr, 2))};
  }

  // new T[len] with `size`-byte elements: the New and its projections.
  struct NewResult {
    Node* nw;
    Node* ctrl;
    Node* mem;
    Node* ptr;
  };
  NewResult newArray(Node* ctrl, Node* memIn, Node* len, int size) {
    Node* n = typed(g.make(Op::New, {ctrl, memIn, len}, nullptr, int64_t(size) << 24));  // MemAccess: size, alias 0
    return {n, typed(g.make(Op::CProj, {n}, nullptr, 0)), typed(g.make(Op::Proj, {n}, nullptr, 1)),
            typed(g.make(Op::Proj, {n}, nullptr, 2))};
  }
  Node* load(Node* ctrl, Node* memIn, Node* ptr, Node* off, int64_t access) {
    return typed(g.make(Op::Load, {ctrl, memIn, ptr, off}, nullptr, access));
  }
  Node* store(Node* ctrl, Node* memIn, Node* ptr, Node* off, Node* v, int64_t access) {
    return typed(g.make(Op::Store, {ctrl, memIn, ptr, off, v}, nullptr, access));
  }

  Node* ret(Node* ctrl, Node* memV, Node* value) {
    Node* r = typed(g.make(Op::Return, {ctrl, memV, value}));
    u.funs[size_t(index)].ret = r;
    g.addDef(g.stop(), r);
    return r;
  }
  // Return value with the entry memory.
  Node* ret(Node* ctrl, Node* value) { return ret(ctrl, mem, value); }
  Node* retNode() const { return u.funs[size_t(index)].ret; }

  Unit& u;
  int index;
  Graph& g;  // this function's graph
  Node* fun;
  Node* mem;
  std::vector<Node*> parms;

 private:
  Node* typed(Node* n) {
    n->type = compute(n);
    return n;
  }
};

// verify()'s findings, one per line ("" for a sound graph).
inline std::string verifyText(const Graph& g) {
  std::string s;
  for (const std::string& e : verify(g)) s += e + "\n";
  return s;
}
inline std::string verifyText(const Unit& u) {
  std::string s;
  for (const std::string& e : verify(u)) s += e + "\n";
  return s;
}

// Live nodes (reachable from Stop) of kind `op`.
inline std::vector<Node*> liveOfKind(const Graph& g, Op op) {
  std::vector<Node*> r;
  for (Node* n : liveNodes(g))
    if (n->op == op) r.push_back(n);
  return r;
}
// ... in every function of the unit.
inline std::vector<Node*> liveOfKind(const Unit& u, Op op) {
  std::vector<Node*> r;
  for (const FunInfo& f : u.funs)
    if (f.hasBody())
      for (Node* n : liveOfKind(*f.graph, op)) r.push_back(n);
  return r;
}
inline int countLive(const Unit& u, Op op) { return int(liveOfKind(u, op).size()); }

// Live nodes of every function, function after function.
inline std::vector<Node*> liveNodes(const Unit& u) {
  std::vector<Node*> r;
  for (const FunInfo& f : u.funs)
    if (f.hasBody())
      for (Node* n : simplec::liveNodes(*f.graph)) r.push_back(n);
  return r;
}
// Every node of every graph, dead ones included.
inline std::vector<Node*> allNodes(const Unit& u) {
  std::vector<Node*> r;
  for (const FunInfo& f : u.funs)
    if (f.graph)
      for (Node* n : f.graph->nodes()) r.push_back(n);
  return r;
}

// Runs a pass of one function on every function with a body; the sum of
// what it returns.
template <class Pass>
int onEachFunction(Unit& u, Pass pass) {
  int sum = 0;
  for (FunInfo& f : u.funs) {
    if (!f.hasBody()) continue;
    if constexpr (std::is_void_v<decltype(pass(*f.graph))>)
      pass(*f.graph);
    else
      sum += int(pass(*f.graph));
  }
  return sum;
}

// The function named `name` (its source name), or -1.
inline int functionNamed(const Unit& u, const std::string& name) {
  for (size_t i = 0; i < u.funs.size(); i++)
    if (u.funs[i].name == name) return int(i);
  return -1;
}

// True when every edge agrees with the use lists, counting multiplicity,
// over every node that is not dead (an independent check of verify's first rule).
inline bool useListsExact(const Graph& g) {
  for (const auto& up : g.nodes()) {
    const Node* n = up;
    if (n->dead) {
      if (!n->in.empty() || !n->out.empty()) return false;
      continue;
    }
    for (const Node* d : n->in) {
      if (!d) continue;
      if (d->dead) return false;
      if (std::count(n->in.begin(), n->in.end(), d) != std::count(d->out.begin(), d->out.end(), n))
        return false;
    }
    for (const Node* u : n->out)
      if (std::count(n->out.begin(), n->out.end(), u) != std::count(u->in.begin(), u->in.end(), n))
        return false;
  }
  return true;
}

}  // namespace simplec::sontest
