// The per-thread work counters.
#include "lexer/work_counters.h"

namespace simplec {

WorkCounters& workCounters() {
  thread_local WorkCounters counters;
  return counters;
}

}  // namespace simplec
