// What an input file is, and so what the driver does with it: a Simple
// source is compiled by simplec, a C or assembly source by `cc`, and an
// object, archive or shared library goes to the link as it is.
#pragma once
#include <string>

namespace simplec {

enum class InputKind {
  Simple,   // compiled here
  Foreign,  // C or assembly: compiled by cc
  Object,   // .o, .a, .so (or ELF/archive content): linked as it is
  Unknown,  // none of these: an error
};

// The kind of `path` given the language of the last `-x` before it ("" for
// none or `-x none`): -x smp means Simple, -x c / assembler /
// assembler-with-cpp foreign; without -x the suffix decides (.smp; .c, .s,
// .S; .o, .a, .so, .so.N), then the first bytes (ELF or ar archive).
// "-" (standard input) is Simple unless -x says otherwise.
InputKind classifyInput(const std::string& path, const std::string& language);

// True for a language name that -x accepts.
bool isKnownLanguage(const std::string& language);

}  // namespace simplec
