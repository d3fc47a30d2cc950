// parallelFor (lexer/worker_threads.h): every item once, on threads named
// below jobs; the error of the smallest failing item whatever the threads
// did first; the workers' work counts kept.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "lexer/work_counters.h"
#include "lexer/worker_threads.h"

using namespace simplec;

TEST_CASE("parallelFor runs each item once, on threads below jobs", "[lexer][threads]") {
  for (int jobs : {1, 2, 4}) {
    INFO(jobs << " jobs");
    std::vector<std::atomic<int>> runs(500);
    std::atomic<int> badThread{0};
    parallelFor(runs.size(), jobs, [&](size_t k, int t) {
      runs[k]++;
      if (t < 0 || t >= jobs) badThread++;
    });
    for (const std::atomic<int>& r : runs) CHECK(r.load() == 1);
    CHECK(badThread.load() == 0);
  }
  // No items, no work; one item, no worker needed.
  int calls = 0;
  parallelFor(0, 4, [&](size_t, int) { calls++; });
  parallelFor(1, 4, [&](size_t, int t) { calls += 1 + t; });
  CHECK(calls == 1);
}

TEST_CASE("parallelFor raises the error of the smallest failing item", "[lexer][threads]") {
  for (int jobs : {1, 3}) {
    INFO(jobs << " jobs");
    // Item 7 fails late, item 90 at once: 7 is reported all the same, and
    // every other item still ran.
    std::atomic<int> ran{0};
    try {
      parallelFor(100, jobs, [&](size_t k, int) {
        ran++;
        if (k == 7) {
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
          throw std::runtime_error("item 7");
        }
        if (k == 90) throw std::runtime_error("item 90");
      });
      FAIL("no error");
    } catch (std::runtime_error& e) {
      CHECK(std::string(e.what()) == "item 7");
    }
    CHECK(ran.load() == 100);
  }
}

TEST_CASE("parallelFor adds the workers' work counts to the caller's", "[lexer][threads]") {
  uint64_t before = workCounters().nodesMade;
  parallelFor(64, 3, [](size_t, int) { workCounters().nodesMade += 10; });
  CHECK(workCounters().nodesMade - before == 640);
}
