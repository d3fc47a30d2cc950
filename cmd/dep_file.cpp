// Make dependency files (dep_file.h).
#include "cmd/dep_file.h"

namespace simplec {

std::string quoteForMake(const std::string& name) {
  std::string q;
  for (size_t i = 0; i < name.size(); i++) {
    char c = name[i];
    if (c == ' ' || c == '\t') {
      // The backslashes just before a space are themselves escaped.
      for (size_t j = i; j > 0 && name[j - 1] == '\\'; j--) q += '\\';
      q += '\\';
    } else if (c == '$') {
      q += '$';
    } else if (c == '#') {
      q += '\\';
    }
    q += c;
  }
  return q;
}

std::string defaultDepFileName(const std::string& output) {
  size_t dot = output.find_last_of('.');
  size_t slash = output.find_last_of('/');
  bool hasSuffix = dot != std::string::npos && dot != 0 && (slash == std::string::npos || dot > slash + 1);
  return (hasSuffix ? output.substr(0, dot) : output) + ".d";
}

std::string depFileText(const std::vector<std::string>& targets, const std::vector<std::string>& prerequisites,
                        bool phony) {
  std::string text;
  for (size_t i = 0; i < targets.size(); i++) text += (i ? " " : "") + targets[i];
  text += ":";
  for (const std::string& p : prerequisites) text += " " + p;
  text += "\n";
  if (phony)
    for (size_t i = 1; i < prerequisites.size(); i++) text += prerequisites[i] + ":\n";
  return text;
}

}  // namespace simplec
