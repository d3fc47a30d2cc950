// The embedded sys library as a SourceFile (parser/sys_prelude.h).
#include "parser/sys_prelude.h"

namespace simplec {

const SourceFile& sysPreludeFile() {
  static const SourceFile* file = new SourceFile("sys.smp", kSysPreludeText);
  return *file;
}

}  // namespace simplec
