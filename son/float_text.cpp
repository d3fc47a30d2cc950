// Python repr() of a double: std::to_chars finds the shortest round-trip
// digits (the nearest among equally short ones, as repr does); this lays
// them out in fixed notation for decimal exponents in [-4, 16), else as
// D.DDDe+XX with at least two exponent digits.
#include "son/float_text.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace simplec {

std::string floatRepr(double v, bool isF32) {
  if (std::isnan(v)) return "nan";
  std::string out = std::signbit(v) ? "-" : "";
  if (std::isinf(v)) return out + "inf";
  if (v == 0) return out + "0.0";
  char buf[64];
  std::to_chars_result r = isF32 ? std::to_chars(buf, buf + sizeof buf, std::fabs(float(v)), std::chars_format::scientific)
                                 : std::to_chars(buf, buf + sizeof buf, std::fabs(v), std::chars_format::scientific);
  std::string sci(buf, r.ptr);  // "D[.DDD]e[+-]XX"
  size_t epos = sci.find('e');
  std::string digits;
  for (size_t i = 0; i < epos; i++)
    if (sci[i] != '.') digits += sci[i];
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  int e = std::atoi(sci.c_str() + epos + 1);
  int n = int(digits.size());
  if (e >= -4 && e < 16) {
    if (e >= 0) {
      for (int i = 0; i <= e; i++) out += i < n ? digits[size_t(i)] : '0';
      out += '.';
      if (n > e + 1) out += digits.substr(size_t(e + 1));
      else out += '0';
    } else {
      out += "0.";
      out += std::string(size_t(-e - 1), '0');
      out += digits;
    }
    return out;
  }
  out += digits[0];
  if (n > 1) out += "." + digits.substr(1);
  out += e < 0 ? "e-" : "e+";
  int ae = e < 0 ? -e : e;
  if (ae < 10) out += '0';
  out += std::to_string(ae);
  return out;
}

}  // namespace simplec
