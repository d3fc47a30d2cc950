// @FILE arguments (response_file.h).
#include "cmd/response_file.h"

#include <sys/stat.h>

#include <fstream>
#include <sstream>

namespace simplec {

std::vector<std::string> splitResponseFile(std::string_view text) {
  std::vector<std::string> args;
  size_t i = 0;
  auto isSpace = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
  while (true) {
    while (i < text.size() && isSpace(text[i])) i++;
    if (i == text.size()) return args;
    std::string arg;
    char quote = 0;  // the open quote, if any
    for (; i < text.size(); i++) {
      char c = text[i];
      if (c == '\\' && i + 1 < text.size()) {
        arg += text[++i];
      } else if (quote) {
        if (c == quote) quote = 0; else arg += c;
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (isSpace(c)) {
        break;
      } else {
        arg += c;
      }
    }
    args.push_back(std::move(arg));
  }
}

namespace {
bool readFile(const std::string& path, std::string* text) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  *text = ss.str();
  return !in.bad();
}
}  // namespace

bool expandResponseFiles(std::vector<std::string>& args, std::string* err) {
  // gcc gives up after 2000 expansions; so do we, so that a file naming
  // itself is an error rather than a hang.
  int expansions = 0;
  for (size_t i = 0; i < args.size();) {
    std::string text;
    if (args[i].size() < 2 || args[i][0] != '@' || !readFile(args[i].substr(1), &text)) {
      i++;
      continue;
    }
    if (++expansions > 2000) {
      *err = "too many response files (does '" + args[i] + "' include itself?)";
      return false;
    }
    std::vector<std::string> inner = splitResponseFile(text);
    args.erase(args.begin() + long(i));
    args.insert(args.begin() + long(i), inner.begin(), inner.end());  // expanded again in place
  }
  return true;
}

}  // namespace simplec
