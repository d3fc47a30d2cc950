// PassTimer: accumulation and the --time-passes table.
#include "lexer/pass_timer.h"

#include <cstdio>

#include <sys/resource.h>

namespace simplec {

PassTimer::Entry& PassTimer::entry(const std::string& name) {
  for (Entry& e : entries_)
    if (e.name == name) return e;
  entries_.push_back({name, 0, -1});
  return entries_.back();
}

PassTimer::Clock::time_point PassTimer::add(const std::string& name, Clock::time_point since) {
  Clock::time_point now = Clock::now();
  Entry& e = entry(name);
  e.seconds += std::chrono::duration<double>(now - since).count();
  // The peak so far, read at most once a millisecond: passes timed function
  // by function end tens of thousands of times, and each read is a system
  // call (a few percent of a big compile). The peak only grows, so a value
  // that old differs by what a millisecond adds.
  if (!peakRead_ || now - peakReadAt_ >= std::chrono::milliseconds(1)) {
    rusage ru{};
    if (getrusage(RUSAGE_SELF, &ru) == 0) peakKB_ = ru.ru_maxrss;
    peakReadAt_ = now;
    peakRead_ = true;
    peakReads_++;
  }
  e.peakKB = peakKB_;
  return now;
}

void PassTimer::setNodes(const std::string& name, size_t nodes) { entry(name).nodes = long(nodes); }

double PassTimer::total() const {
  double t = 0;
  for (const Entry& e : entries_) t += e.seconds;
  return t;
}

std::string PassTimer::report(const std::string& title) const {
  double all = total();
  std::string s = "time in each pass: " + title + "\n";
  char line[160];
  std::snprintf(line, sizeof line, "  %-16s %10s %8s %12s %9s\n", "pass", "wall (s)", "share", "live nodes",
                "peak MB");
  s += line;
  for (const Entry& e : entries_) {
    std::string nodes = e.nodes < 0 ? "" : std::to_string(e.nodes);
    std::snprintf(line, sizeof line, "  %-16s %10.4f %7.1f%% %12s %9.1f\n", e.name.c_str(), e.seconds,
                  all > 0 ? 100.0 * e.seconds / all : 0.0, nodes.c_str(), double(e.peakKB) / 1024);
    s += line;
  }
  std::snprintf(line, sizeof line, "  %-16s %10.4f %7.1f%%\n", "total", all, all > 0 ? 100.0 : 0.0);
  return s + line;
}

}  // namespace simplec
