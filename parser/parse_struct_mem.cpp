// Memory operations on struct objects: allocation, field loads and stores.
// Waiting for the memory nodes (New/Load/Store with alias classes); until
// they exist, every object operation is reported as not supported.
#include "parser/parser_impl.h"

namespace simplec {

Node* Parser::nullCon() { return peep(mk(Op::Con, {g_.start()}, Type::dataPtr(Type::kFunAny))); }

Node* Parser::emitNew(StructInfo& s, const std::vector<Node*>& fieldValues, SrcPos pos) {
  error(pos, "'new' is not supported yet");
  return nullCon();
}

Val Parser::emitLoad(Val obj, StructInfo& s, int field, SrcPos pos) {
  error(pos, "field access is not supported yet");
  return {con(0), s.fields[size_t(field)].type};
}

void Parser::emitStore(Val obj, StructInfo& s, int field, Val v, SrcPos pos) {
  error(pos, "field assignment is not supported yet");
}

}  // namespace simplec
