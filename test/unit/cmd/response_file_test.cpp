// Response files (cmd/response_file.h): gcc's quoting and recursive @FILE.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "cmd/response_file.h"

using namespace simplec;

using Args = std::vector<std::string>;

TEST_CASE("response files split at white space, with gcc's quotes and backslashes") {
  CHECK(splitResponseFile("") == Args{});
  CHECK(splitResponseFile(" \n\t ") == Args{});
  CHECK(splitResponseFile("-c  a.smp\n-o\tb.o\n") == Args{"-c", "a.smp", "-o", "b.o"});
  CHECK(splitResponseFile("'a b' \"c d\"") == Args{"a b", "c d"});
  CHECK(splitResponseFile("x'y z'w") == Args{"xy zw"});            // quotes inside a word
  CHECK(splitResponseFile("\"it's\" 'say \"hi\"'") == Args{"it's", "say \"hi\""});
  CHECK(splitResponseFile("a\\ b c\\\\d") == Args{"a b", "c\\d"});
  CHECK(splitResponseFile("'a\\'b'") == Args{"a'b"});              // backslash inside quotes too
  CHECK(splitResponseFile("'' x") == Args{"", "x"});                 // an empty argument
  CHECK(splitResponseFile("\"unterminated arg") == Args{"unterminated arg"});
  CHECK(splitResponseFile("end\\") == Args{"end\\"});
}

namespace {
struct TempDir {
  std::string path;
  TempDir() {
    char templ[] = "/tmp/simplec-rsp-XXXXXX";
    path = mkdtemp(templ);
  }
  ~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(path + "/" + name) << text;
    return path + "/" + name;
  }
};
}  // namespace

TEST_CASE("@FILE is replaced by its arguments, recursively") {
  TempDir d;
  std::string inner = d.write("inner.rsp", "-lm 'x y.smp'");
  std::string outer = d.write("outer.rsp", "-O1 @" + inner + " -c");
  Args args{"-g", "@" + outer, "last.smp"};
  std::string err;
  REQUIRE(expandResponseFiles(args, &err));
  CHECK(args == Args{"-g", "-O1", "-lm", "x y.smp", "-c", "last.smp"});
}

TEST_CASE("an @FILE that cannot be read stays as it is, as in gcc") {
  TempDir d;
  Args args{"@" + d.path + "/missing.rsp", "@" + d.path, "@"};
  Args before = args;
  std::string err;
  REQUIRE(expandResponseFiles(args, &err));
  CHECK(args == before);
}

TEST_CASE("a response file that names itself is an error, not a hang") {
  TempDir d;
  std::string self = d.path + "/self.rsp";
  d.write("self.rsp", "-c @" + self);
  Args args{"@" + self};
  std::string err;
  CHECK_FALSE(expandResponseFiles(args, &err));
  CHECK(err.find("too many response files") != std::string::npos);
}
