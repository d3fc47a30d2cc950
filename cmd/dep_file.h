// Make dependency files (-MD, -MMD, -MF, -MT, -MQ, -MP), written as gcc
// writes them: "TARGET...: PREREQUISITE...", names quoted for make.
#pragma once
#include <string>
#include <vector>

namespace simplec {

// Make's quoting of a file name (gcc's -MQ): '$' becomes '$$', and a
// space, tab or '#' gets a backslash (as do the backslashes before it).
std::string quoteForMake(const std::string& name);

// The dependency file of `output` when -MF does not name one: the output
// with its suffix replaced by .d (prog -> prog.d, dir/x.o -> dir/x.d).
std::string defaultDepFileName(const std::string& output);

// The file's text. targets and prerequisites are already quoted; with
// phony (-MP) every prerequisite but the first also gets an empty rule, so
// that make does not fail once it is deleted.
std::string depFileText(const std::vector<std::string>& targets, const std::vector<std::string>& prerequisites,
                        bool phony);

}  // namespace simplec
