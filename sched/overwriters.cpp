// See overwriters.h.
#include "sched/overwriters.h"

#include <unordered_set>
#include <vector>

#include "son/mem_access.h"

namespace simplec {

void forEachOverwriter(const Node* load, const std::function<void(const Node*)>& onWriter,
                       const std::function<void(const Node*, const Node*)>& onPhi) {
  std::vector<const Node*> work{load->in[1]};
  std::unordered_set<const Node*> seen{load->in[1]};
  auto follow = [&](const Node* m) {
    if (seen.insert(m).second) work.push_back(m);
  };
  while (!work.empty()) {
    const Node* mem = work.back();
    work.pop_back();
    for (const Node* u : mem->out) {
      if (u == load || u->dead) continue;
      switch (u->op) {
        case Op::Store:
          if (u->in[1] != mem) break;  // the stored value, not the memory
          if (provablyDisjoint(load, u)) follow(u);
          else onWriter(u);
          break;
        case Op::Call: onWriter(u); break;
        case Op::MergeMem: follow(u); break;
        case Op::Phi: onPhi(u, mem); break;
        case Op::New:
          if (u->in[1] != mem) break;
          for (const Node* p : u->out)
            if (p->op == Op::Proj && p->aux == 1) follow(p);
          break;
        default: break;
      }
    }
  }
}

}  // namespace simplec
