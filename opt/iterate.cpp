// The worklist driver for peepholes.
#include "opt/iterate.h"

#include "lexer/diag.h"
#include "lexer/work_counters.h"
#include "opt/endless_loops.h"
#include "opt/peephole.h"
#include "opt/peephole_worklist.h"
#include "son/verify.h"

namespace simplec {

namespace {

// A load that stopped its walk up the memory chain at store or allocation
// `u` (mem_peephole.cpp) may pass it once u's address or value changes,
// though nothing about u itself changes: queue u's readers too, so that the
// change is seen in this round instead of costing the whole function
// another one.
// Rules that read the type two levels down (!!x is x when x is 0 or 1;
// (x << c) >> c is x when x fits): a new type of x reaches them through
// the Not or the Shl between.
void pushTypeReaders(PeepholeWorklist& work, Node* u) {
  if (u->op == Op::Not || u->op == Op::Shl)
    for (Node* uu : u->out) work.push(uu);
}

void pushMemoryReaders(PeepholeWorklist& work, Node* u) {
  if (u->op != Op::Store && u->op != Op::New) return;
  for (Node* r : u->out) {
    if (r->op == Op::Proj)  // New's memory and pointer
      for (Node* rr : r->out) work.push(rr);
    else
      work.push(r);
  }
}

// Runs the worklist until it is empty: each node popped goes through its
// peephole, and a change queues what it may enable.
void drain(Graph& g, Peephole& peep, PeepholeWorklist& work, std::vector<Node*>& lost, size_t& steps,
           size_t limit) {
  std::vector<Node*> edited;  // nodes whose inputs a step changed
  struct Listen {  // restored on the way out, an internal error included
    Graph& g;
    std::vector<Node*>* outer;
    Listen(Graph& g, std::vector<Node*>* list) : g(g), outer(g.editedNodes) { g.editedNodes = list; }
    ~Listen() { g.editedNodes = outer; }
  } listen(g, &edited);
  while (!work.empty()) {
    SIMPLEC_CHECK(++steps < limit, "peephole", "peepholes did not reach a fixed point");
    workCounters().peepholeSteps++;
    Node* n = work.pop();
    if (n->dead || n->op == Op::Start || n->op == Op::Stop) continue;
    const Type* oldType = n->type;
    Node* x = peep.run(n);
    if (x != n) {
      // The users of n, not of x: only their inputs changed (value
      // numbering finds x's own users equal to them from their side). A
      // shared constant's other users have nothing new to see.
      std::vector<Node*> users;
      if (!n->dead) {
        users = n->out;
        g.subsume(n, x);
      }
      work.push(x);
      for (Node* u : users) {
        work.push(u);
        pushMemoryReaders(work, u);
        pushTypeReaders(work, u);
      }
    } else if (n->type != oldType || peep.changedInPlace()) {
      for (Node* u : n->out) {
        work.push(u);
        pushMemoryReaders(work, u);
        pushTypeReaders(work, u);
        // A changed If or CallEnd changes what its projections see.
        if (u->isMulti())
          for (Node* uu : u->out) work.push(uu);
      }
    }
    // Cut short while still changing: it goes on in this round.
    if (peep.unfinished()) work.push(x);
    for (Node* t : peep.touched()) {
      work.push(t);
      pushMemoryReaders(work, t);
    }
    // A store left with one user may now be overwritten by it.
    for (Node* d : lost)
      if (!d->dead && d->op == Op::Store && d->out.size() == 1) work.push(d->out[0]);
    lost.clear();
    // A rule run on n may edit other nodes (the users of what it
    // subsumed, a Phi of its Region): they are visited again. n itself ran
    // to its own fixed point, and its users are queued above if it changed.
    for (Node* e : edited) {
      if (e == n || e == x || e->dead) continue;
      work.push(e);
      // Rules read their inputs' inputs (x + c1 + c2): e's users may now
      // rewrite too, though e itself does not.
      for (Node* u : e->out) work.push(u);
    }
    edited.clear();
  }
}

}  // namespace

void iterPeeps(Graph& g, uint64_t seed, bool checkFixedPoint) {
  Peephole peep(g);
  PeepholeWorklist work(seed);
  std::vector<Node*> lost;  // nodes that lost a use during one step, or to a sweep
  g.lostUses = &lost;
  size_t steps = 0, limit = 50 * g.size() + 1000;
  // A round visits every live node once, and each change queues what it may
  // enable, so one round reaches the fixed point; rounds repeat only when
  // loops were tied back to the Return (their nodes were garbage, not
  // visited).
  workCounters().peepholeRuns++;
  for (bool round = true; round;) {
    round = false;
    workCounters().peepholeRounds++;
    // Loops whose exit folded away are tied back to their Return before
    // anything sweeps them; then garbage goes (nodes no longer reachable
    // from Stop), whose uses would hide what the rules that count users may
    // do (a store with one user left is overwritten by it).
    reconnectEndlessLoops(g);
    sweepUnreachable(g);
    lost.clear();
    for (Node* n : liveNodes(g)) work.push(n);
    drain(g, peep, work, lost, steps, limit);
    // Rewrites leave garbage (a load of a loop that folded away, constants
    // made and then not used): sweep it and revisit what lost users to it,
    // until a sweep finds none.
    for (;;) {
      if (reconnectEndlessLoops(g)) {
        round = true;
        break;
      }
      lost.clear();
      sweepUnreachable(g);
      if (lost.empty()) break;
      std::vector<Node*> revisit;
      revisit.swap(lost);
      for (Node* d : revisit) {
        work.push(d);
        // The rules that count users look for one or two (not the Start's
        // many constants).
        if (!d->dead && d->out.size() <= 4)
          for (Node* u : d->out) work.push(u);
      }
      drain(g, peep, work, lost, steps, limit);
    }
  }
  g.lostUses = nullptr;
  if (!checkFixedPoint) return;
  for (Node* n : liveNodes(g)) {
    if (n->op == Op::Start || n->op == Op::Stop) continue;
    const Type* t = n->type;
    std::vector<Node*> ins = n->in;
    Node* x = peep.run(n);
    SIMPLEC_CHECK(x == n && n->type == t && n->in == ins, "peephole",
                  "fixed point check failed at node " + std::to_string(n->id) + " " + n->label());
  }
}

void peepsFrom(Graph& g, const std::vector<Node*>& changed, uint64_t seed) {
  Peephole peep(g);
  // Value numbering knows only what the worklist visits: the constants
  // first, so that a fold to a value the function already has reuses it.
  for (Node* n : g.nodesOf(Op::Con)) peep.gvn().findOrInsert(n);
  PeepholeWorklist work(seed);
  std::vector<Node*> lost;
  g.lostUses = &lost;
  size_t steps = 0, limit = 50 * g.size() + 1000;
  workCounters().peepholeRuns++;
  for (Node* n : changed) {
    work.push(n);
    if (!n->dead)
      for (Node* u : n->out) work.push(u);
  }
  drain(g, peep, work, lost, steps, limit);
  g.lostUses = nullptr;
  reconnectEndlessLoops(g);
  sweepUnreachable(g);
}

}  // namespace simplec
