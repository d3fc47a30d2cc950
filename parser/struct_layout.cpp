#include "parser/struct_layout.h"

#include "parser/storage.h"
#include "parser/struct_info.h"

namespace simplec {

StructLayout layoutOf(const StructInfo& s) {
  StructLayout l;
  l.offset.assign(s.fields.size(), -1);
  int64_t at = 0;
  // Widest first: sizes are powers of two, so each group starts aligned.
  for (int size : {8, 4, 2, 1})
    for (size_t i = 0; i < s.fields.size(); i++) {
      if (s.fields[i].isConst() || storageOf(s.fields[i].type).size != size) continue;
      l.offset[i] = kArrayHeader + at;
      at += size;
    }
  l.bytes = (at + 7) & ~int64_t(7);
  return l;
}

const StructLayout& layoutFor(StructInfo& s) {
  if (!s.laidOut) {
    s.layout = layoutOf(s);
    s.laidOut = s.fieldsParsed;  // fields still to come: computed again at the next use
  }
  return s.layout;
}

}  // namespace simplec
