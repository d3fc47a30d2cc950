// Tests for PassTimer (lexer/pass_timer.h): times add up per name in the
// order first seen, and the peak memory is read about once a millisecond,
// not once per timed scope (a pass timed function by function ends tens of
// thousands of times).
#include <catch2/catch.hpp>

#include <string>

#include "lexer/pass_timer.h"

using namespace simplec;

TEST_CASE("lexer/pass_timer: scopes add up by name, in the order first seen", "[lexer][timer]") {
  PassTimer t;
  for (int i = 0; i < 3; i++) {
    { PassScope a(&t, "first"); }
    { PassScope b(&t, "second"); }
  }
  t.setNodes("first", 42);
  std::string r = t.report("unit");
  size_t first = r.find("first"), second = r.find("second");
  REQUIRE(first != std::string::npos);
  REQUIRE(second != std::string::npos);
  CHECK(first < second);
  CHECK(r.find("42") != std::string::npos);
  CHECK(t.total() >= 0);
}

TEST_CASE("lexer/pass_timer: many short scopes read the peak memory rarely", "[lexer][timer]") {
  PassTimer t;
  const int kScopes = 20000;
  auto start = PassTimer::Clock::now();
  for (int i = 0; i < kScopes; i++) PassScope s(&t, i % 2 ? "isel" : "gcm");
  double ms = std::chrono::duration<double, std::milli>(PassTimer::Clock::now() - start).count();
  // At most one read per millisecond of the loop (and the first).
  CHECK(t.peakReads() <= size_t(ms) + 2);
  CHECK(t.peakReads() >= 1);
  // The peak column is filled.
  CHECK(t.report("unit").find(" 0.0\n") == std::string::npos);
}
