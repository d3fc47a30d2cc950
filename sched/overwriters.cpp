// See overwriters.h.
#include "sched/overwriters.h"

#include <algorithm>

#include "lexer/work_counters.h"
#include "son/mem_access.h"

namespace simplec {

namespace {

// The memory inputs through which `u` uses memory (Store, Call and New take
// theirs in slot 1; a MergeMem and a memory Phi in all but slot 0).
bool takesMemoryAt(const Node* u, size_t i) {
  switch (u->op) {
    case Op::Store: case Op::Call: case Op::New: return i == 1;
    case Op::MergeMem: return i > 0;
    case Op::Phi: return i > 0 && u->type && u->type->kind() == TKind::Mem;
    default: return false;
  }
}

}  // namespace

MemoryIndex::MemoryIndex(const Graph& g, const std::vector<Node*>& nodes)
    : g_(g), users_(g.size()), runOf_(g.size(), -1), posInRun_(g.size(), -1), seen_(g.size(), 0) {
  for (const Node* u : nodes)
    for (size_t i = 0; i < u->in.size(); i++) {
      const Node* d = u->in[i];
      if (!d || !takesMemoryAt(u, i)) continue;
      std::vector<const Node*>& us = users_[d->id];
      if (us.empty() || us.back() != u) us.push_back(u);
    }
  // Runs, in the nodes' order (inputs before users): a store to a known
  // object, or an allocation (whose memory effect only touches the new
  // object), extends the run of the member before it when it is that
  // member's only memory user.
  for (const Node* x : nodes) {
    const Node* object = x->op == Op::Store ? objectOf(x->in[2]) : x->op == Op::New ? x : nullptr;
    if (!object || !x->in[1]) continue;
    const Node* prev = x->in[1];
    if (prev->op == Op::Proj && prev->aux == 1 && prev->in[0]->op == Op::New) prev = prev->in[0];
    int run = -1;
    if (g_.owns(prev) && runOf_[prev->id] >= 0 && usersOf(x->in[1]).size() == 1) run = runOf_[prev->id];
    if (run < 0) {
      run = int(runs_.size());
      runs_.emplace_back();
    }
    Run& r = runs_[size_t(run)];
    runOf_[x->id] = run;
    posInRun_[x->id] = int(r.members.size());
    // An allocation never overwrites what an earlier load reads: only the
    // stores are indexed by their object.
    if (x->op == Op::Store) r.byObject.push_back({object->id, uint32_t(r.members.size())});
    r.members.push_back(x);
  }
  for (Run& r : runs_) std::sort(r.byObject.begin(), r.byObject.end());
}

const Node* MemoryIndex::memoryAfter(const Node* x) {
  if (x->op != Op::New) return x;
  for (const Node* p : x->out)
    if (p->op == Op::Proj && p->aux == 1) return p;
  return nullptr;
}

const std::vector<const Node*>& MemoryIndex::usersOf(const Node* m) const {
  static const std::vector<const Node*> none;
  return m->id < users_.size() && g_.owns(m) ? users_[m->id] : none;
}

void MemoryIndex::forEachOverwriter(const Node* load, const std::function<void(const Node*)>& onWriter,
                                    const std::function<void(const Node*, const Node*)>& onPhi,
                                    const std::function<bool(const Node*)>& prune) const {
  const Node* object = objectOf(load->in[2]);
  int alias = MemAccess::decode(load->aux).alias;
  // seen_[id] == epoch_: visited by this walk.
  if (++epoch_ == 0) {
    std::fill(seen_.begin(), seen_.end(), 0);
    epoch_ = 1;
  }
  std::vector<const Node*> work{load->in[1]};
  if (g_.owns(load->in[1])) seen_[load->in[1]->id] = epoch_;
  auto follow = [&](const Node* m) {
    if (!g_.owns(m) || seen_[m->id] == epoch_ || prune(m)) return;
    seen_[m->id] = epoch_;
    work.push_back(m);
  };
  // A store of a run: the stores of the run from it on that touch the
  // load's object are the only ones that may overwrite it; past them all,
  // the walk goes on from the run's end.
  auto throughRun = [&](const Node* first) {
    const Run& r = runs_[size_t(runOf_[first->id])];
    uint32_t from = uint32_t(posInRun_[first->id]);
    auto it = std::lower_bound(r.byObject.begin(), r.byObject.end(), std::make_pair(object->id, from));
    for (; it != r.byObject.end() && it->first == object->id; ++it) {
      const Node* s = r.members[it->second];
      workCounters().antiDepVisits++;
      if (MemAccess::decode(s->aux).alias == alias && !provablyDisjoint(load, s)) {
        onWriter(s);
        return;
      }
    }
    if (const Node* after = memoryAfter(r.members.back())) follow(after);
  };
  while (!work.empty()) {
    const Node* mem = work.back();
    work.pop_back();
    for (const Node* u : usersOf(mem)) {
      if (u->dead) continue;
      workCounters().antiDepVisits++;
      switch (u->op) {
        case Op::Store:
          if (u->in[1] != mem) break;  // the stored value, not the memory
          if (object && runOf_[u->id] >= 0) throughRun(u);
          else if (MemAccess::decode(u->aux).alias != alias || provablyDisjoint(load, u)) follow(u);
          else onWriter(u);
          break;
        case Op::Call: onWriter(u); break;
        case Op::MergeMem: follow(u); break;
        case Op::Phi: onPhi(u, mem); break;
        case Op::New:
          if (u->in[1] != mem) break;
          if (object && runOf_[u->id] >= 0) throughRun(u);
          else if (const Node* after = memoryAfter(u)) follow(after);
          break;
        default: break;
      }
    }
  }
}

}  // namespace simplec
