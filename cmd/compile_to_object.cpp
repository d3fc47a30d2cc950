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
  lo.wrapEarlyReturns = po.optLevel > 0;
  lo.jumpTables = po.optLevel > 0;
  lo.splitSpilled = po.optLevel > 0;
  UnitLowering lowering(g, path, lo);
  lowering.module().longJumps = po.optLevel == 0;
  x86_64::ModuleWriter writer(lowering.module(), x86_64::ModuleWriter::Form::Object);
  if (x86_64::writeUnit(lowering, writer, nullptr, &r.message))
    r.object = writer.takeObject();
  else
    r.status = 1;
  return r;
}

}  // namespace simplec
