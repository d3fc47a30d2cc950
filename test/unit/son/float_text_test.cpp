// Tests for floatRepr (son/float_text.h): Python's repr() of doubles (the
// expected strings are Python 3's), and the shortest f32 digits.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "son/float_text.h"

using namespace simplec;

TEST_CASE("son/float_text: doubles print as Python's repr", "[son][float]") {
  struct Case {
    double v;
    const char* text;
  };
  const Case cases[] = {
      {3.0, "3.0"},          {0.1, "0.1"},
      {1e16, "1e+16"},       {1e15, "1000000000000000.0"},
      {1e-5, "1e-05"},       {0.0001, "0.0001"},
      {-0.0, "-0.0"},        {0.0, "0.0"},
      {1.5e-7, "1.5e-07"},   {0.1 + 0.2, "0.30000000000000004"},
      {5e-324, "5e-324"},    {1.7976931348623157e308, "1.7976931348623157e+308"},
      {123456789012345.6, "123456789012345.6"}, {-1234.5, "-1234.5"},
      {1e22, "1e+22"},       {2.0 / 3.0, "0.6666666666666666"},
      {9007199254740993.0, "9007199254740992.0"}, {1e100, "1e+100"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    CHECK(floatRepr(c.v, false) == c.text);
  }
  CHECK(floatRepr(std::numeric_limits<double>::infinity(), false) == "inf");
  CHECK(floatRepr(-std::numeric_limits<double>::infinity(), false) == "-inf");
  CHECK(floatRepr(std::numeric_limits<double>::quiet_NaN(), false) == "nan");
  CHECK(floatRepr(-std::numeric_limits<double>::quiet_NaN(), false) == "nan");
}

TEST_CASE("son/float_text: f32 values print with the shortest f32 digits", "[son][float]") {
  CHECK(floatRepr(double(0.1f), true) == "0.1");
  CHECK(floatRepr(double(0.1f), false) == "0.10000000149011612");
  CHECK(floatRepr(double(1.0f / 3.0f), true) == "0.33333334");
  CHECK(floatRepr(double(16777216.0f), true) == "16777216.0");
  CHECK(floatRepr(double(1e-45f), true) == "1e-45");
  CHECK(floatRepr(double(3.4028235e38f), true) == "3.4028235e+38");
}
