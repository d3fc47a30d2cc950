// Named warnings: the table of names and defaults, and gcc's rules for the
// `-W` flags (see warnings.h).
#include "lexer/warnings.h"

namespace simplec {

namespace {

struct WarnInfo {
  const char* name;
  WarnGroup group;
};

// Indexed by Warn. Groups follow gcc where gcc has the warning, else clang.
constexpr WarnInfo kWarnings[] = {
    {"parentheses", WarnGroup::Default},
    {"unreachable-code", WarnGroup::Default},
    {"self-assign", WarnGroup::Default},
    {"unused-variable", WarnGroup::All},
    {"unused-but-set-variable", WarnGroup::All},
    {"unused-parameter", WarnGroup::Extra},
    {"unused-but-set-parameter", WarnGroup::Extra},
    {"bitwise-instead-of-logical", WarnGroup::All},
    {"int-conversion", WarnGroup::Default},
    {"constant-condition", WarnGroup::Extra},
    {"shadow", WarnGroup::NameOnly},
};
static_assert(sizeof kWarnings / sizeof kWarnings[0] == size_t(Warn::kCount));

int warnIndex(const std::string& name) {
  for (size_t i = 0; i < size_t(Warn::kCount); i++)
    if (name == kWarnings[i].name) return int(i);
  return -1;
}

bool startsWith(const std::string& s, const char* prefix, std::string* rest) {
  size_t n = std::char_traits<char>::length(prefix);
  if (s.compare(0, n, prefix) != 0) return false;
  *rest = s.substr(n);
  return true;
}

}  // namespace

const char* warnName(Warn w) { return kWarnings[size_t(w)].name; }

WarnGroup warnGroup(Warn w) { return kWarnings[size_t(w)].group; }

bool WarningOptions::apply(const std::string& flag) {
  if (flag == "all") {
    all_ = true;
    return true;
  }
  if (flag == "extra") {
    extra_ = true;
    return true;
  }
  if (flag == "error" || flag == "no-error") {
    allErrors_ = flag == "error";
    return true;
  }
  std::string name;
  int i = -1;
  if (startsWith(flag, "error=", &name) && (i = warnIndex(name)) >= 0) {
    error_[size_t(i)] = Set::On;
    enable_[size_t(i)] = Set::On;
    return true;
  }
  if (startsWith(flag, "no-error=", &name) && (i = warnIndex(name)) >= 0) {
    error_[size_t(i)] = Set::Off;
    return true;
  }
  if (startsWith(flag, "no-", &name) && (i = warnIndex(name)) >= 0) {
    enable_[size_t(i)] = Set::Off;
    return true;
  }
  if ((i = warnIndex(flag)) >= 0) {
    enable_[size_t(i)] = Set::On;
    return true;
  }
  return false;
}

bool WarningOptions::enabled(Warn w) const {
  if (silenced_) return false;
  Set s = enable_[size_t(w)];
  if (s != Set::Default) return s == Set::On;
  switch (warnGroup(w)) {
    case WarnGroup::Default: return true;
    case WarnGroup::All: return all_;
    case WarnGroup::Extra: return extra_;
    case WarnGroup::NameOnly: return false;
  }
  return false;
}

bool WarningOptions::asError(Warn w) const {
  Set s = error_[size_t(w)];
  return s != Set::Default ? s == Set::On : allErrors_;
}

}  // namespace simplec
