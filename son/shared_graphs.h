// While the optimizer runs its per-function passes on several threads
// (opt/pipeline.cpp), the tables every graph draws on -- the unit's node
// pool, the interned types, the MergeMem class lists -- are shared between
// threads and take a lock. Otherwise one thread uses them (the parser, the
// unit passes, code generation's caller thread) and pays nothing for it.
#pragma once
#include <mutex>

namespace simplec {

bool graphsShared();

// Turns the locks on for its lifetime. Make it before the threads start
// and destroy it after they are joined.
class SharedGraphs {
 public:
  SharedGraphs();
  ~SharedGraphs();
  SharedGraphs(const SharedGraphs&) = delete;
  SharedGraphs& operator=(const SharedGraphs&) = delete;
};

// Locks `m` when graphs are shared, else nothing.
class LockIfShared {
 public:
  explicit LockIfShared(std::mutex& m) : m_(graphsShared() ? &m : nullptr) {
    if (m_) m_->lock();
  }
  ~LockIfShared() {
    if (m_) m_->unlock();
  }
  LockIfShared(const LockIfShared&) = delete;
  LockIfShared& operator=(const LockIfShared&) = delete;

 private:
  std::mutex* m_;
};

}  // namespace simplec
