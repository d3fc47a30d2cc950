// snapshotGraph: one walk over the live nodes.
#include "cmd/explorer/graph_snapshot.h"

#include "son/unit.h"

namespace simplec {

namespace {

bool isMemory(const Node* n) { return n->type && n->type->kind() == TKind::Mem; }

// How an input reaches its user: the control edge of a control node (or
// the pinning slot 0), a memory state, or a value. A Proj reads a call's
// result or memory out of its tuple: the edge is what the Proj carries.
EdgeKind edgeKind(const Node* user, size_t slot, const Node* def) {
  if (user->op == Op::Proj) return isMemory(user) ? EdgeKind::Memory : EdgeKind::Data;
  if (def->isCFG() && (slot == 0 || user->isCFG())) return EdgeKind::Control;
  if (isMemory(def)) return EdgeKind::Memory;
  return EdgeKind::Data;
}

std::vector<std::string> variableNames(const Graph& g, const Node* n) {
  std::vector<std::string> names;
  auto add = [&](const std::string& s) {
    if (s.empty()) return;
    for (const std::string& have : names)
      if (have == s) return;
    names.push_back(s);
  };
  if (n->op == Op::Phi) add(n->name.str());
  const std::vector<DebugVar>& vars = g.info().debugVars;
  for (uint32_t link = n->dbg; link != 0 && link < g.debugNames.size(); link = g.debugNames[link].next) {
    int var = g.debugNames[link].var;
    if (var >= 0 && size_t(var) < vars.size()) add(vars[size_t(var)].name);
  }
  return names;
}

}  // namespace

GraphSnapshot snapshotGraph(const Graph& g) {
  GraphSnapshot s;
  for (const Node* n : liveNodes(g)) {
    if (n == g.start() || n == g.stop()) continue;
    SnapshotNode sn;
    sn.serial = g.serial(n);
    sn.op = opName(n->op);
    sn.label = n->label();
    if (n->op != Op::Con) sn.type = n->type ? n->type->str() : "?";
    if (n->pos.valid() && n->pos.file == kMainFile) {
      sn.line = n->pos.line;
      sn.col = n->pos.col;
    }
    sn.control = n->isCFG();
    sn.names = variableNames(g, n);
    for (size_t i = 0; i < n->in.size(); i++) {
      const Node* d = n->in[i];
      // Start is left out; so are the edges to it.
      if (!d || d == g.start()) {
        sn.inputs.push_back(-1);
        sn.edgeKinds += char(EdgeKind::Data);
        continue;
      }
      sn.inputs.push_back(g.serial(d));
      sn.edgeKinds += char(edgeKind(n, i, d));
    }
    s.nodes.push_back(std::move(sn));
  }
  return s;
}

}  // namespace simplec
