#include "parser/storage.h"

namespace simplec {

MemAccess storageOf(const SType& t) {
  MemAccess m;
  switch (t.kind) {
    case SType::Int:
      m.size = t.bits / 8;
      m.isSigned = !t.isUnsigned;
      break;
    case SType::Bool:
      m.size = 1;
      m.isSigned = false;
      break;
    case SType::Float:
      m.size = t.bits / 8;
      m.value = MemValue::Float;
      break;
    case SType::Fun:
      m.value = MemValue::Fun;
      break;
    default:
      m.value = MemValue::Ptr;
      break;
  }
  return m;
}

}  // namespace simplec
