// PassTimer: wall time, live node counts and peak memory per pass, for --time-passes (in
// the manner of gcc's -ftime-report). Passes run per function add up under
// one name; the report lists names in the order first seen.
#pragma once
#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace simplec {

class PassTimer {
 public:
  using Clock = std::chrono::steady_clock;

  // Adds the time since `since` to pass `name`; returns now.
  Clock::time_point add(const std::string& name, Clock::time_point since);
  // The live node count after `name` (the last one given is reported).
  void setNodes(const std::string& name, size_t nodes);
  // The table: pass, seconds, share of the total, live nodes, and the
  // process's peak resident memory when the pass last ended (where it grew).
  std::string report(const std::string& title) const;
  double total() const;
  // How many times add() read the process's peak memory (for tests).
  size_t peakReads() const { return peakReads_; }

 private:
  struct Entry {
    std::string name;
    double seconds = 0;
    long nodes = -1;  // -1: not a graph pass
    long peakKB = 0;  // ru_maxrss at the pass's last end
  };
  Entry& entry(const std::string& name);
  std::vector<Entry> entries_;
  Clock::time_point peakReadAt_;
  bool peakRead_ = false;
  long peakKB_ = 0;
  size_t peakReads_ = 0;
};

// Times a scope as pass `name` (nothing when timer is null).
class PassScope {
 public:
  PassScope(PassTimer* timer, const char* name)
      : timer_(timer), name_(name), start_(timer ? PassTimer::Clock::now() : PassTimer::Clock::time_point()) {}
  ~PassScope() {
    if (timer_) timer_->add(name_, start_);
  }
  PassScope(const PassScope&) = delete;
  PassScope& operator=(const PassScope&) = delete;

 private:
  PassTimer* timer_;
  const char* name_;
  PassTimer::Clock::time_point start_;
};

}  // namespace simplec
