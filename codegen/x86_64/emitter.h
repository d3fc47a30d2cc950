// Emitter: writes an allocated MModule (physical registers, immediates,
// memory, blocks, symbols) as an ELF64 relocatable object or AT&T assembly
// through LLVM's MC layer; the same module always gives identical bytes.
// Environment failures (no LLVM target, unwritable file, MC errors, clashing
// symbol names) return false with *err set; malformed MIR (a virtual
// register, a frame slot, an unencodable operand) throws InternalError.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "codegen/lower.h"
#include "codegen/mir.h"
#include "lexer/pass_timer.h"

namespace simplec::x86_64 {

// Streams a module to an object or assembly text one function at a time, so
// that each function's MIR can be freed as soon as it is written:
//   ModuleWriter w(header, Form::Object);
//   w.begin(names, &err); w.addFunction(f, &err)...; w.finish(&err);
// `header` must outlive the writer. Its funcs are not read; its rodata items
// present at begin() are defined then, the rest at finish() (a reference to
// a local label is resolved there). The bytes are those of writeObject for
// a module holding the same functions.
class ModuleWriter {
 public:
  enum class Form { Object, Assembly };
  ModuleWriter(const mir::MModule& header, Form form);
  ~ModuleWriter();
  ModuleWriter(const ModuleWriter&) = delete;
  ModuleWriter& operator=(const ModuleWriter&) = delete;

  // `functionNames`: every function that will be added, so that calls
  // between them stay inside the object. False (with *err): no LLVM target,
  // a name defined twice.
  bool begin(const std::vector<std::string>& functionNames, std::string* err);
  // Lowers `f` into the output now; `f` is not needed afterwards.
  bool addFunction(const mir::MFunction& f, std::string* err);
  // The data, the tables and the debug information, then the output.
  bool finish(std::string* err);
  std::vector<uint8_t> takeObject();
  std::string takeAssembly();

 private:
  struct State;
  const mir::MModule& header_;
  Form form_;
  std::unique_ptr<State> s_;
};

// Lowers every function of `lowering` into `w`, each written as soon as it
// is made, then the data and tables (begin .. finish). `timer`, when given,
// counts the writing as "encode".
bool writeUnit(UnitLowering& lowering, ModuleWriter& w, PassTimer* timer, std::string* err);

// An ELF64 x86-64 relocatable object (PIE-compatible: calls to symbols
// outside the module go through the PLT, their addresses through the GOT).
bool writeObject(const mir::MModule& m, const std::string& path, std::string* err);
bool writeObjectToMemory(const mir::MModule& m, std::vector<uint8_t>* out, std::string* err);
// Writes an object's bytes to `path`, all or nothing.
bool writeObjectBytes(const std::vector<uint8_t>& bytes, const std::string& path, std::string* err);

// AT&T syntax assembly that `cc -c` assembles.
bool writeAssembly(const mir::MModule& m, std::string* out, std::string* err);

// For tests: the .text bytes of a module holding only `f` (a global
// function). Relocated fields read as zero. Throws InternalError on failure.
std::vector<uint8_t> encodeFunctionForTest(const mir::MFunction& f);

}  // namespace simplec::x86_64
