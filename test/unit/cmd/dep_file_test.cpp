// Make dependency files (cmd/dep_file.h).
#include <catch2/catch.hpp>

#include "cmd/dep_file.h"

using namespace simplec;

TEST_CASE("names are quoted for make as gcc's -MQ quotes them") {
  CHECK(quoteForMake("prog.o") == "prog.o");
  CHECK(quoteForMake("a$b c") == "a$$b\\ c");       // what gcc -MQ 'a$b c' writes
  CHECK(quoteForMake("x#1") == "x\\#1");
  CHECK(quoteForMake("a\\ b") == "a\\\\\\ b");       // the backslash before a space doubles
  CHECK(quoteForMake("tab\tx") == "tab\\\tx");
}

TEST_CASE("the default dependency file replaces the output's suffix with .d") {
  CHECK(defaultDepFileName("x.o") == "x.d");
  CHECK(defaultDepFileName("dir/prog") == "dir/prog.d");
  CHECK(defaultDepFileName("a.b/prog") == "a.b/prog.d");
  CHECK(defaultDepFileName("out/x.tar.o") == "out/x.tar.d");
  CHECK(defaultDepFileName("-") == "-.d");           // gcc -S -o - -MD writes -.d
  CHECK(defaultDepFileName("dir/.hidden") == "dir/.hidden.d");
}

TEST_CASE("the dependency file text") {
  CHECK(depFileText({"x.o"}, {"x.smp"}, false) == "x.o: x.smp\n");
  CHECK(depFileText({"a", "b"}, {"x.smp"}, false) == "a b: x.smp\n");
  CHECK(depFileText({"prog"}, {"a.smp", "b.smp", "c.c"}, true) == "prog: a.smp b.smp c.c\nb.smp:\nc.c:\n");
  CHECK(depFileText({"x.o"}, {"x.smp"}, true) == "x.o: x.smp\n");   // -MP: no rule for the main source
  CHECK(depFileText({"-.o"}, {}, false) == "-.o:\n");               // standard input is no file
}
