// Tests for the explorer's C++ side: snapshots name nodes by serial across
// passes (pass_history.h), the pass list keeps only passes that changed a
// function, assembly lines carry their .loc line (asm_lines.h), and the page
// is one self-contained, deterministic HTML file (explorer_page.h).
#include <catch2/catch.hpp>

#include <algorithm>

#include "cmd/explorer/explorer_page.h"
#include "lexer/diag.h"
#include "opt/pipeline.h"
#include "parser/parser.h"

using namespace simplec;

namespace {

const char* kProgram =
    "val sq = { int x -> return x * x; };\n"
    "int s = 0;\n"
    "for (int i = 0; i < arg; i++) {\n"
    "  s = s + sq(i);\n"
    "}\n"
    "return s;\n";

// Parses and optimizes kProgram at -O2, recording every pass.
void record(Unit& u, PassHistory& h) {
  SourceFile file("t.smp", kProgram);
  DiagEngine diag;
  u.debugInfo = true;
  u.keepSerials = true;  // as --emit=html does
  REQUIRE(parseFile(file, diag, u));
  PassOptions po;
  po.observe = [&h](const Unit& unit, const std::string& pass) { h.record(unit, pass); };
  afterParse(u, po);
  runPipeline(u, po);
}

const FunctionHistory& historyOf(const PassHistory& h, const std::string& name) {
  for (const FunctionHistory& f : h.functions())
    if (f.name == name) return f;
  FAIL("no function " << name);
  return h.functions()[0];
}

const SnapshotNode* find(const GraphSnapshot& g, uint32_t serial) {
  for (const SnapshotNode& n : g.nodes)
    if (n.serial == serial) return &n;
  return nullptr;
}

}  // namespace

TEST_CASE("explorer/history: one version per pass that changed the function", "[explorer]") {
  Unit u;
  PassHistory h;
  record(u, h);
  REQUIRE(h.passes().size() >= 2);
  CHECK(h.passes()[0] == "parse");
  // Every pass listed changed some function; each version names a listed pass.
  std::vector<bool> used(h.passes().size(), false);
  for (const FunctionHistory& f : h.functions())
    for (size_t i = 0; i < f.versions.size(); i++) {
      REQUIRE(f.versions[i].pass < int(h.passes().size()));
      used[size_t(f.versions[i].pass)] = true;
      if (i) CHECK(f.versions[i].pass > f.versions[i - 1].pass);
      if (i && !f.versions[i].removed && !f.versions[i - 1].removed)
        CHECK_FALSE(f.versions[i].graph == f.versions[i - 1].graph);
    }
  CHECK(std::count(used.begin(), used.end(), false) == 0);
  // sq, called once, goes when it is inlined into main.
  const FunctionHistory& sq = historyOf(h, "sq");
  REQUIRE_FALSE(sq.versions.empty());
  CHECK(sq.versions.back().removed);
  CHECK(h.passes()[size_t(sq.versions.back().pass)] == "inline");
}

TEST_CASE("explorer/history: a node keeps its serial, and its source line, across passes", "[explorer]") {
  Unit u;
  PassHistory h;
  record(u, h);
  const FunctionHistory& main = historyOf(h, "main");
  REQUIRE(main.versions.size() >= 2);
  // The loop's Phi of s and the Loop (line 3, the for) live from parsing to the end.
  const GraphSnapshot& first = main.versions.front().graph;
  const SnapshotNode *phi = nullptr, *loop = nullptr;
  for (const SnapshotNode& n : first.nodes) {
    if (n.op == "Phi" && std::find(n.names.begin(), n.names.end(), "s") != n.names.end()) phi = &n;
    if (n.op == "Loop") loop = &n;
  }
  REQUIRE(phi);
  REQUIRE(loop);
  CHECK(loop->line == 3);
  const SnapshotNode* laterPhi = find(main.versions.back().graph, phi->serial);
  REQUIRE(laterPhi);
  CHECK(laterPhi->op == "Phi");
  CHECK(laterPhi->inputs[0] == loop->serial);
  const SnapshotNode* laterLoop = find(main.versions.back().graph, loop->serial);
  REQUIRE(laterLoop);
  CHECK(laterLoop->line == 3);
  // Inputs name serials of nodes of the same snapshot.
  for (const FunctionVersion& v : main.versions)
    for (const SnapshotNode& n : v.graph.nodes) {
      REQUIRE(n.inputs.size() == n.edgeKinds.size());
      for (int64_t in : n.inputs)
        if (in >= 0) CHECK(find(v.graph, uint32_t(in)) != nullptr);
    }
  // The multiply inlined from sq keeps sq's line.
  bool mulOnLine1 = false;
  for (const SnapshotNode& n : main.versions.back().graph.nodes) mulOnLine1 |= n.op == "Mul" && n.line == 1;
  CHECK(mulOnLine1);
}

TEST_CASE("explorer/snapshot: control, memory and data edges", "[explorer]") {
  Unit u;
  PassHistory h;
  record(u, h);
  const GraphSnapshot& g = historyOf(h, "main").versions.front().graph;
  bool control = false, memory = false, data = false;
  for (const SnapshotNode& n : g.nodes) {
    if (n.op == "Return") {
      CHECK(n.edgeKinds.substr(0, 2) == "cm");  // control, memory, then the value
    }
    control |= n.edgeKinds.find('c') != std::string::npos;
    memory |= n.edgeKinds.find('m') != std::string::npos;
    data |= n.edgeKinds.find('d') != std::string::npos;
  }
  CHECK(control);
  CHECK(memory);
  CHECK(data);
}

TEST_CASE("explorer/asm: each line takes the last .loc of the main file", "[explorer]") {
  std::vector<AsmLine> lines = asmLines(
      "\t.text\n\t.file\t1 \"t.smp\"\n\t.type\tmain,@function\nmain:\n\t.cfi_startproc\n"
      "\t.loc\t1 3 5\n\tmovq\t%rdi, %rax\n\t.loc\t2 10 1\n\tcallq\tf\n\t.loc\t1 4 1 prologue_end\n\tretq\n");
  REQUIRE(lines.size() == 6);
  CHECK(lines[0].text == "\t.text");
  CHECK(lines[0].line == 0);
  CHECK(lines[2].text == "main:");
  CHECK(lines[3].text == "\tmovq\t%rdi, %rax");
  CHECK(lines[3].line == 3);
  CHECK(lines[4].line == 0);  // the system library's file
  CHECK(lines[5].line == 4);
}

TEST_CASE("explorer/page: self-contained and deterministic", "[explorer]") {
  std::string pages[2];
  for (std::string& page : pages) {
    Unit u;
    PassHistory h;
    record(u, h);
    ExplorerInput in;
    in.fileName = "t<1>.smp";
    in.source = std::string(kProgram) + "// </script>\n";
    in.history = &h;
    in.schedules = scheduleSnapshots(u);
    page = explorerPage(in);
  }
  CHECK(pages[0] == pages[1]);
  const std::string& p = pages[0];
  CHECK(p.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(p.find("<title>t&lt;1&gt;.smp - simplec explorer</title>") != std::string::npos);
  CHECK(p.find("{{") == std::string::npos);  // every marker filled
  // One data element, which the source's "</script>" does not end early.
  CHECK(p.find("</script>") == p.find("</script>", p.find("id=\"explorer-data\"")));
  CHECK(p.find("\\u003c/script\\u003e") != std::string::npos);
  // Nothing is loaded from elsewhere.
  CHECK(p.find("src=") == std::string::npos);
  CHECK(p.find("http://") == p.find("http://www.w3.org/2000/svg"));
  CHECK(p.find("https://") == std::string::npos);
}
