// Test helpers for the parser: parse a program held in a string, with the
// diagnostics captured (open_memstream), and views of the result: the printed
// IR, verify()'s findings, the "LINE:COL: message" of each error.
// Parsing runs on a thread with a large stack, as the driver gives the parser
// one: deep-nesting inputs test the parser's limit, not the test runner's.
#pragma once
#include <catch2/catch.hpp>

#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "lexer/diag.h"
#include "lexer/source.h"
#include "opt/pipeline.h"
#include "parser/parser.h"
#include "son/printer.h"
#include "son/verify.h"

namespace simplec::parsetest {

struct Parsed {
  std::unique_ptr<Unit> g = std::make_unique<Unit>();
  bool ok = false;
  int errors = 0;
  std::string diags;  // everything the DiagEngine printed
  std::string ir() const { return printGraph(*g); }
  std::string verifyErrors() const {
    std::string s;
    for (const std::string& e : verify(*g)) s += e + "\n";
    return s;
  }
  // "LINE:COL: message" of every error, in order.
  std::vector<std::string> errorLines() const {
    std::vector<std::string> out;
    size_t p = 0;
    while (p < diags.size()) {
      size_t e = diags.find('\n', p);
      if (e == std::string::npos) e = diags.size();
      std::string line = diags.substr(p, e - p);
      const std::string file = "t.smp:";
      size_t err = line.find(": error: ");
      if (line.rfind(file, 0) == 0 && err != std::string::npos)
        out.push_back(line.substr(file.size(), err - file.size()) + ": " + line.substr(err + 9));
      p = e + 1;
    }
    return out;
  }
};

// Runs fn on a thread with a 512 MiB stack (reserved, not committed) and
// rethrows what it throws. No Catch2 assertion may run inside fn.
inline void onBigStack(const std::function<void()>& fn) {
  struct Ctx {
    const std::function<void()>* fn;
    std::exception_ptr err;
  } ctx{&fn, nullptr};
  auto body = [](void* p) -> void* {
    auto* c = static_cast<Ctx*>(p);
    try {
      (*c->fn)();
    } catch (...) {
      c->err = std::current_exception();
    }
    return nullptr;
  };
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t(512) << 20);
  pthread_t t;
  bool started = pthread_create(&t, &attr, body, &ctx) == 0;
  pthread_attr_destroy(&attr);
  if (started)
    pthread_join(t, nullptr);
  else
    body(&ctx);
  if (ctx.err) std::rethrow_exception(ctx.err);
}

inline Parsed parseText(const std::string& src, const WarningOptions& warnings = {}) {
  Parsed r;
  char* buf = nullptr;
  size_t len = 0;
  FILE* out = open_memstream(&buf, &len);
  onBigStack([&] {
    SourceFile file("t.smp", src);
    DiagEngine diag(out);
    diag.setErrorLimit(0);
    diag.setWarnings(warnings);
    r.ok = parseFile(file, diag, *r.g);
    r.errors = diag.errorCount();
  });
  std::fclose(out);
  r.diags.assign(buf, len);
  std::free(buf);
  return r;
}

// Parses a program that must be valid; its graph must verify. Returns the IR.
inline std::string parseIR(const std::string& src) {
  Parsed p = parseText(src);
  INFO(src << "\n" << p.diags);
  REQUIRE(p.ok);
  CHECK(p.diags.empty());
  CHECK(p.verifyErrors() == "");
  return p.ir();
}

// Parses a valid program and runs the whole pipeline at -O2 with
// --verify-each and the peephole fixed-point check, once per seed; no
// verifier or internal error may come up, and the IR must not depend on the
// seed. Returns the optimized IR.
inline std::string optimizedIR(const std::string& src, int seeds = 4) {
  std::string first;
  for (int seed = 0; seed < seeds; seed++) {
    Parsed p = parseText(src);
    INFO(src << "\n" << p.diags << "seed " << seed);
    REQUIRE(p.ok);
    PassOptions o;
    o.optLevel = 2;
    o.verifyEach = true;
    o.checkFixedPoint = true;
    o.seed = uint64_t(seed);
    try {
      afterParse(*p.g, o);
      runPipeline(*p.g, o);
    } catch (InternalError& e) {
      FAIL("internal error in '" << e.pass << "': " << e.what());
    }
    std::string ir = p.ir();
    if (seed == 0) first = ir;
    CHECK(ir == first);
  }
  return first;
}

// Direct calls to the function with object symbol `symbol` in the unit.
inline int callsTo(const Unit& u, const std::string& symbol) {
  int n = 0;
  for (const FunInfo& f : u.funs) {
    if (!f.hasBody()) continue;
    for (const auto& up : f.graph->nodes())
      if (Node* x = up; x && !x->dead && x->op == Op::Call && x->in[2]->type->kind() == TKind::FunPtr &&
                              u.funs[size_t(x->in[2]->type->fun())].symbol == symbol)
        n++;
  }
  return n;
}

}  // namespace simplec::parsetest
