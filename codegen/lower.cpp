// Whole-unit lowering: graph -> MIR module, whole or function by function.
#include "codegen/lower.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>

#include "codegen/branch_duplication.h"
#include "codegen/early_return.h"
#include "codegen/frame.h"
#include "codegen/inlined_calls.h"
#include "codegen/isel.h"
#include "codegen/jump_tables.h"
#include "codegen/mir_peephole.h"
#include "codegen/regalloc.h"
#include "codegen/table_base.h"
#include "lexer/worker_threads.h"
#include "lexer/diag.h"
#include "lexer/work_counters.h"
#include "son/unit.h"
#include "sched/gcm.h"

namespace simplec {

UnitLowering::UnitLowering(Unit& u, const std::string& sourcePath, const LowerOptions& opts)
    : u_(u), opts_(opts) {
  mir::MModule& m = m_;
  m.sourceName = sourcePath;
  m.debugTypes = u.debugTypes;  // -g (empty otherwise)
  if (u.debugInfo) addInlinedCalls(u, m);
  const std::string names[kNumSrcFiles] = {sourcePath, kSysLibraryPath};
  for (int f = 0; f < kNumSrcFiles; f++) {
    cx_.fileLabels[f] = m.fileLabels[f] = ".Lsrc.file" + (f ? std::to_string(f) : std::string());
    m.rodata.push_back({cx_.fileLabels[f], names[f] + std::string(1, '\0'), 1});
  }
  // A string constant is a read-only u8 array: its length, then its bytes.
  for (size_t i = 0; i < u.strings.size(); i++) {
    std::string bytes(8, '\0');
    uint64_t len = u.strings[i].size();
    for (int b = 0; b < 8; b++) bytes[size_t(b)] = char((len >> (8 * b)) & 0xFF);
    m.rodata.push_back({IselContext::stringLabel(int(i)), bytes + u.strings[i], 8});
  }
  for (const FunInfo& f : u.funs)
    if (f.isExtern) m.externs.push_back(f.symbol);
  m.externs.push_back("__simplec_rt_error");
  m.externs.push_back("__simplec_new_array");
  m.externs.push_back("__simplec_floor");
  m.externs.push_back("__simplec_ceil");
}

std::vector<std::string> UnitLowering::functionNames() const {
  std::vector<std::string> names;
  for (const FunInfo& f : u_.funs)
    if (f.hasBody()) names.push_back(f.symbol);
  return names;
}

bool UnitLowering::lowerFunctions(const std::function<bool(mir::MFunction&&)>& sink) {
  Unit& g = u_;
  // Graphs go one by one below: the pool without the optimizer's holes, and
  // spread graphs packed, so that each one's memory goes with it.
  if (opts_.dropGraphs) {
    g.defragmentNodes();
    g.packSpreadGraphs();
  }
  std::vector<size_t> funs;
  for (size_t i = 0; i < g.funs.size(); i++)
    if (g.funs[i].hasBody()) funs.push_back(i);
  if (opts_.jobs > 1 && !opts_.timer && funs.size() > 1) return lowerInParallel(funs, sink);
  for (size_t i : funs)
    if (!sink(lowerOne(i, cx_, opts_.dropGraphs))) return false;
  return true;
}

mir::MFunction UnitLowering::lowerOne(size_t i, IselContext& cx, bool dropEarly) {
  Unit& g = u_;
  const LowerOptions& opts = opts_;
  mir::MFunction mf;
  try {
    {
      // The schedule goes with the graph, before register allocation.
      Schedule s;
      {
        PassScope t(opts.timer, "gcm");
        s = gcm(*g.funs[i].graph);
      }
      PassScope t(opts.timer, "isel");
      mf = selectInstructions(*g.funs[i].graph, s, cx);
    }
    mf.line = g.funs[i].pos.line;
    mf.col = g.funs[i].pos.col;
    mf.file = g.funs[i].pos.file;
    // The graph is done with: its memory goes before the next function's.
    if (dropEarly) g.dropGraph(int(i));
    if (opts.allocate) {
      {
        PassScope t(opts.timer, "regalloc");
        allocateRegisters(mf, opts.splitSpilled);
      }
      PassScope t(opts.timer, "machine");
      lowerFrame(mf);
      if (opts.jumpTables && formJumpTables(mf) > 0) hoistTableBases(mf);
      peepholeMachineCode(mf);
      tidyBlockLayout(mf);
      // On the final layout (a jump to the next block costs nothing), then
      // once more to turn `jcc NEXT; jmp B` into one branch.
      if (duplicateBranchBlocks(mf) > 0) tidyBlockLayout(mf);
      if (opts.wrapEarlyReturns) wrapEarlyReturn(mf);
    }
  } catch (InternalError& e) {
    // Name the function, as the pass already named itself.
    std::string what = e.what();
    if (what.find("function '") == std::string::npos) what = "function '" + g.funs[i].name + "': " + what;
    throw InternalError(e.pass, what);
  }
  return mf;
}

// Workers take the next function while they are less than a window ahead
// of the sink (so that finished functions do not pile up in memory). The
// caller's thread hands the functions to the sink in order, and while the
// next one is not ready it lowers one that nobody took. Only the caller's
// thread drops graphs (the node pool is not thread-safe); lowering reads
// its function's graph and the unit's function table, which dropping
// another graph leaves alone. A function's error is raised when its turn
// comes, so the first failing function in order is the one reported.
bool UnitLowering::lowerInParallel(const std::vector<size_t>& funs,
                                   const std::function<bool(mir::MFunction&&)>& sink) {
  struct Slot {
    mir::MFunction mf;
    std::exception_ptr error;
    bool done = false;
  };
  const size_t n = funs.size();
  // No more workers than functions for them (each reserves a large stack).
  const int workers = int(std::min(size_t(opts_.jobs - 1), n - 1));
  const size_t window = 4 * size_t(opts_.jobs);
  std::vector<Slot> slots(n);
  std::mutex mu;
  std::condition_variable cv;
  size_t taken = 0, handedOn = 0;
  bool stop = false;
  std::vector<IselContext> contexts(size_t(workers), cx_);
  std::vector<WorkCounters> counts(static_cast<size_t>(workers));
  auto lowerSlot = [&](size_t k, IselContext& cx) {
    try {
      slots[k].mf = lowerOne(funs[k], cx, false);
    } catch (...) {
      slots[k].error = std::current_exception();
    }
  };
  WorkerThreads threads(workers, [&](int w) {
    std::unique_lock<std::mutex> lock(mu);
    for (;;) {
      cv.wait(lock, [&] { return stop || taken >= n || taken < handedOn + window; });
      if (stop || taken >= n) break;
      size_t k = taken++;
      lock.unlock();
      lowerSlot(k, contexts[size_t(w)]);
      lock.lock();
      slots[k].done = true;
      cv.notify_all();
    }
    counts[size_t(w)] = workCounters();
  });
  // However this function is left, the workers stop before they are joined.
  struct StopWorkers {
    std::mutex& mu;
    std::condition_variable& cv;
    bool& stop;
    WorkerThreads& threads;
    bool stopped = false;
    void now() {
      if (stopped) return;
      stopped = true;
      {
        std::lock_guard<std::mutex> lock(mu);
        stop = true;
        cv.notify_all();
      }
      threads.join();
    }
    ~StopWorkers() { now(); }
  } stopper{mu, cv, stop, threads};
  bool ok = true;
  std::exception_ptr error;
  for (size_t k = 0; k < n && ok && !error; k++) {
    {
      // Until function k is ready, help: lower the next one nobody took.
      std::unique_lock<std::mutex> lock(mu);
      while (!slots[k].done) {
        if (taken < n && (taken == k || taken < handedOn + window)) {
          size_t j = taken++;
          lock.unlock();
          lowerSlot(j, cx_);
          lock.lock();
          slots[j].done = true;
          cv.notify_all();
        } else {
          cv.wait(lock);
        }
      }
    }
    if (slots[k].error) {
      error = slots[k].error;
      break;
    }
    try {
      if (opts_.dropGraphs) u_.dropGraph(int(funs[k]));
      // Out of its slot: the sink may only read it, and it goes after.
      mir::MFunction mf = std::move(slots[k].mf);
      ok = sink(std::move(mf));
    } catch (...) {
      error = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(mu);
    handedOn = k + 1;
    cv.notify_all();
  }
  stopper.now();
  for (const IselContext& cx : contexts) cx_.merge(cx);
  for (const WorkCounters& c : counts) workCounters().add(c);
  if (error) std::rethrow_exception(error);
  return ok;
}

void UnitLowering::finishData() {
  mir::MModule& m = m_;
  // The float constants the code loads, little-endian as x86 reads them.
  auto bytesOf = [](uint64_t bits, int n) {
    std::string b;
    for (int i = 0; i < n; i++) b += char((bits >> (8 * (i % 8))) & 0xff);
    return b;
  };
  for (uint64_t bits : cx_.floatConsts) m.rodata.push_back({IselContext::floatLabel(bits), bytesOf(bits, 8), 8});
  if (cx_.usesSignMask) m.rodata.push_back({IselContext::kSignMaskLabel, bytesOf(uint64_t(1) << 63, 16), 16});
  if (cx_.usesAbsMask) m.rodata.push_back({IselContext::kAbsMaskLabel, bytesOf(~(uint64_t(1) << 63), 16), 16});
}

mir::MModule lowerUnit(Unit& u, const std::string& sourcePath, const LowerOptions& opts) {
  UnitLowering l(u, sourcePath, opts);
  mir::MModule& m = l.module();
  l.lowerFunctions([&](mir::MFunction&& f) {
    // Functions wait for the object writer together: hold them at their size.
    for (mir::MBlock& b : f.blocks) b.insts.shrink_to_fit();
    m.funcs.push_back(std::move(f));
    return true;
  });
  l.finishData();
  return std::move(m);
}

std::string printSchedules(const Unit& u) {
  std::string out;
  for (const FunInfo& f : u.funs) {
    if (!f.hasBody()) continue;
    out += "fun " + f.name + ":\n";
    out += printSchedule(*f.graph, gcm(*f.graph));
  }
  return out;
}

}  // namespace simplec
