// The simplec command line, spelled as gcc users type it: gcc's options
// with one dash (-o FILE or -oFILE, -lm, -O3, -g3, -MD, -Wl,...), simplec's
// own with two (--emit=KIND or --emit KIND), @FILE response files, and the
// inputs kept in order with the linker options among them. As in gcc, the
// last of a repeated option wins; -l, -L, -Wl, -Xlinker, -MT, -MQ,
// --dump-after and the -W warning flags accumulate.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "cmd/driver.h"

namespace simplec {

// Parses args (argv without argv[0]) into *o. Returns -1 when the driver
// should run; otherwise the exit status: 0 after printing --help,
// --version or -dumpversion on out, 2 after printing a "simplec: error:"
// message on err (a bad command line).
int parseCommandLine(std::vector<std::string> args, DriverOptions* o, std::ostream& out, std::ostream& err);

}  // namespace simplec
