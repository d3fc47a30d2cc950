#include "cmd/compile_to_object.h"

#include "codegen/lower.h"
#include "codegen/x86_64/emitter.h"
#include "lexer/source.h"
#include "parser/parser.h"

namespace simplec {

CompileResult compileSourceToObject(const std::string& path, std::string text, const PassOptions& po,
                                    DiagEngine& diag) {
  CompileResult r;
  SourceFile file(path, std::move(text));
  Unit g;
  if (!parseFile(file, diag, g)) {
    r.status = 1;
    return r;
  }
  afterParse(g, po);
  runPipeline(g, po);
  LowerOptions lo;
  lo.dropGraphs = true;
  mir::MModule m = lowerUnit(g, path, lo);
  if (!x86_64::writeObjectToMemory(m, &r.object, &r.message)) r.status = 1;
  return r;
}

}  // namespace simplec
