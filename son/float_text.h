// Float to text as sys.io.p prints it: Python's repr(), the shortest digits
// that read back as the same value ("3.0", "0.1", "1e+16", "1e-05", "inf",
// "-0.0", "nan"); for an f32 the shortest that reads back as the same f32.
// Must agree with the runtime's __simplec_format_f64/f32 (runtime/rt_float.c);
// the graph evaluator prints with this.
#pragma once
#include <string>

namespace simplec {

std::string floatRepr(double v, bool isF32);

}  // namespace simplec
