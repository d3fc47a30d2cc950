// The opcode table generated from ops.def, and node labels.
#include "son/node.h"

#include "son/mem_access.h"

namespace simplec {

namespace {
const OpInfo kOpInfo[] = {
#define OP(name, flags) {#name, flags},
#include "son/ops.def"
#undef OP
};
}  // namespace

const OpInfo& opInfo(Op op) { return kOpInfo[static_cast<int>(op)]; }

const char* castRelName(CastRel r) {
  static const char* const names[] = {"<", "<=", ">", ">=", "==", "!="};
  int i = int(r);
  return i >= 0 && i < 6 ? names[i] : "?";
}

std::string Node::label() const {
  switch (op) {
    case Op::Con: return "Con " + (type ? type->str() : std::string("?"));
    case Op::CProj:
    case Op::Proj: return std::string(opName(op)) + " " + std::to_string(aux);
    case Op::Parm: return aux < 0 ? "Parm mem" : "Parm " + std::to_string(aux);
    case Op::Fun: return "Fun " + name.str();
    case Op::Load:
    case Op::Store: {
      MemAccess m = MemAccess::decode(aux);
      return std::string(opName(op)) + " " + m.str() + " @" + std::to_string(m.alias);
    }
    case Op::New: {
      MemAccess m = MemAccess::decode(aux);
      return "New " + m.str() + " @" + std::to_string(m.alias);
    }
    case Op::Cast: return std::string("Cast ") + castRelName(CastRel(aux));
    default: return opName(op);
  }
}

}  // namespace simplec
