// The sys library (LANGUAGE.md section 10) is Simple source, runtime/sys.smp,
// embedded into the compiler at build time. The parser appends its tokens
// after the program's when the program names something of it (anything
// under `sys.` besides the built-in sys.io.p, sys.io.stdin, sys.args and
// sys.math.*); its methods are parsed only when used.
#pragma once
#include "lexer/source.h"

namespace simplec {

extern const char kSysPreludeText[];

// The library as a source file named "sys.smp" (made once, never freed).
const SourceFile& sysPreludeFile();

}  // namespace simplec
