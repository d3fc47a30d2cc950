// Input kinds by -x, suffix and content (cmd/input_kind.h).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <fstream>

#include "cmd/input_kind.h"

using namespace simplec;

TEST_CASE("the suffix decides without -x") {
  CHECK(classifyInput("a.smp", "") == InputKind::Simple);
  CHECK(classifyInput("-", "") == InputKind::Simple);
  CHECK(classifyInput("dir/a.c", "") == InputKind::Foreign);
  CHECK(classifyInput("a.s", "") == InputKind::Foreign);
  CHECK(classifyInput("a.S", "") == InputKind::Foreign);
  CHECK(classifyInput("a.o", "") == InputKind::Object);
  CHECK(classifyInput("libx.a", "") == InputKind::Object);
  CHECK(classifyInput("libx.so", "") == InputKind::Object);
  CHECK(classifyInput("libx.so.1.2", "") == InputKind::Object);
  CHECK(classifyInput("/no/such/file.txt", "") == InputKind::Unknown);
  CHECK(classifyInput("/no/such/libx.so.1x", "") == InputKind::Unknown);
}

TEST_CASE("-x overrides the suffix") {
  CHECK(classifyInput("a.txt", "smp") == InputKind::Simple);
  CHECK(classifyInput("a.c", "smp") == InputKind::Simple);
  CHECK(classifyInput("-", "c") == InputKind::Foreign);
  CHECK(classifyInput("a.smp", "assembler") == InputKind::Foreign);
  CHECK(isKnownLanguage("smp"));
  CHECK(isKnownLanguage("assembler-with-cpp"));
  CHECK(isKnownLanguage("none"));
  CHECK_FALSE(isKnownLanguage("c++"));
  CHECK_FALSE(isKnownLanguage(""));
}

TEST_CASE("ELF objects and ar archives are recognised by their first bytes") {
  char dir[] = "/tmp/simplec-kind-XXXXXX";
  REQUIRE(mkdtemp(dir));
  std::string d = dir;
  std::ofstream(d + "/obj.bin") << "\x7f" "ELF\x02\x01\x01";
  std::ofstream(d + "/lib.bin") << "!<arch>\nmore";
  std::ofstream(d + "/text.bin") << "return 0;\n";
  std::ofstream(d + "/short.bin") << "!<ar";
  CHECK(classifyInput(d + "/obj.bin", "") == InputKind::Object);
  CHECK(classifyInput(d + "/lib.bin", "") == InputKind::Object);
  CHECK(classifyInput(d + "/text.bin", "") == InputKind::Unknown);
  CHECK(classifyInput(d + "/short.bin", "") == InputKind::Unknown);
  CHECK(classifyInput(d + "/text.bin", "smp") == InputKind::Simple);
  for (const char* f : {"/obj.bin", "/lib.bin", "/text.bin", "/short.bin"}) unlink((d + f).c_str());
  rmdir(dir);
}
