// Tests for lexer/warnings: which flags turn each warning on, off or into
// an error (gcc's rules: groups, last flag wins, -w over everything).
#include "lexer/warnings.h"

#include <catch2/catch.hpp>

using simplec::Warn;
using simplec::WarnGroup;
using simplec::WarningOptions;

namespace {
WarningOptions with(std::initializer_list<const char*> flags) {
  WarningOptions w;
  for (const char* f : flags) REQUIRE(w.apply(f));
  return w;
}
}  // namespace

TEST_CASE("warning names are gcc's and clang's", "[lexer][warnings]") {
  CHECK(std::string(simplec::warnName(Warn::UnusedVariable)) == "unused-variable");
  CHECK(std::string(simplec::warnName(Warn::UnusedButSetParameter)) == "unused-but-set-parameter");
  CHECK(std::string(simplec::warnName(Warn::SelfAssign)) == "self-assign");
  CHECK(std::string(simplec::warnName(Warn::Shadow)) == "shadow");
  WarningOptions w;
  CHECK_FALSE(w.apply("no-such-warning"));
  CHECK_FALSE(w.apply("error=no-such-warning"));
}

TEST_CASE("default, -Wall and -Wextra groups", "[lexer][warnings]") {
  WarningOptions none;
  CHECK(none.enabled(Warn::Parentheses));
  CHECK(none.enabled(Warn::SelfAssign));
  CHECK(none.enabled(Warn::IntConversion));
  CHECK_FALSE(none.enabled(Warn::UnusedVariable));
  CHECK_FALSE(none.enabled(Warn::UnusedParameter));
  CHECK_FALSE(none.enabled(Warn::Shadow));

  WarningOptions all = with({"all"});
  CHECK(all.enabled(Warn::UnusedVariable));
  CHECK(all.enabled(Warn::UnusedButSetVariable));
  CHECK(all.enabled(Warn::BitwiseInsteadOfLogical));
  CHECK_FALSE(all.enabled(Warn::UnusedParameter));  // -Wall does not imply -Wextra
  CHECK_FALSE(all.enabled(Warn::ConstantCondition));
  CHECK_FALSE(all.enabled(Warn::Shadow));

  WarningOptions extra = with({"extra"});
  CHECK(extra.enabled(Warn::UnusedParameter));
  CHECK(extra.enabled(Warn::ConstantCondition));
  CHECK_FALSE(extra.enabled(Warn::UnusedVariable));  // nor -Wextra -Wall

  WarningOptions both = with({"all", "extra"});
  for (size_t i = 0; i < size_t(Warn::kCount); i++) {
    Warn w = Warn(i);
    CHECK(both.enabled(w) == (simplec::warnGroup(w) != WarnGroup::NameOnly));
  }
  CHECK(with({"shadow"}).enabled(Warn::Shadow));
}

TEST_CASE("a name beats its group, the last flag wins, -w beats all", "[lexer][warnings]") {
  CHECK_FALSE(with({"all", "no-unused-variable"}).enabled(Warn::UnusedVariable));
  CHECK_FALSE(with({"no-unused-variable", "all"}).enabled(Warn::UnusedVariable));  // as gcc
  CHECK(with({"no-shadow", "shadow"}).enabled(Warn::Shadow));
  CHECK(with({"unused-parameter"}).enabled(Warn::UnusedParameter));
  CHECK_FALSE(with({"no-self-assign"}).enabled(Warn::SelfAssign));
  WarningOptions w = with({"all", "extra", "shadow"});
  w.silenceAll(true);
  for (size_t i = 0; i < size_t(Warn::kCount); i++) CHECK_FALSE(w.enabled(Warn(i)));
}

TEST_CASE("-Werror and -Werror=NAME", "[lexer][warnings]") {
  WarningOptions all = with({"error"});
  CHECK(all.asError(Warn::SelfAssign));
  CHECK(all.asError(Warn::UnusedVariable));  // if it is enabled at all
  CHECK_FALSE(all.enabled(Warn::UnusedVariable));
  WarningOptions one = with({"error=shadow"});
  CHECK(one.enabled(Warn::Shadow));  // -Werror=NAME enables NAME
  CHECK(one.asError(Warn::Shadow));
  CHECK_FALSE(one.asError(Warn::SelfAssign));
  WarningOptions but = with({"error", "no-error=unused-variable", "all"});
  CHECK(but.enabled(Warn::UnusedVariable));
  CHECK_FALSE(but.asError(Warn::UnusedVariable));
  CHECK(but.asError(Warn::Parentheses));
}
