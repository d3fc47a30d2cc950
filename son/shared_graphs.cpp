#include "son/shared_graphs.h"

#include <atomic>

#include "lexer/diag.h"

namespace simplec {

namespace {
// Set and cleared by the thread that starts and joins the workers, so that
// thread creation and joining order it against every read.
std::atomic<bool> shared{false};
}  // namespace

bool graphsShared() { return shared.load(std::memory_order_relaxed); }

SharedGraphs::SharedGraphs() {
  SIMPLEC_CHECK(!shared.load(std::memory_order_relaxed), "pipeline", "graphs are shared already");
  shared.store(true, std::memory_order_relaxed);
}

SharedGraphs::~SharedGraphs() { shared.store(false, std::memory_order_relaxed); }

}  // namespace simplec
