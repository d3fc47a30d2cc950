// Type::releaseInternedSince: what an in-process driver (the libFuzzer
// targets) uses so that interned types do not pile up across compiles.
#include <catch2/catch.hpp>

#include "son/type.h"

using namespace simplec;

TEST_CASE("releasing interned types keeps the older ones and forgets the newer", "[son][type]") {
  const Type* kept = Type::intConst(12345);
  size_t mark = Type::internedCount();
  const Type* fresh = Type::intRange(-987654321, 987654321);
  const Type* tup = Type::tuple({Type::ctrl(), Type::intRange(-987654321, 987654321)});
  CHECK(Type::internedCount() >= mark + 2);
  CHECK(fresh->str() == Type::intRange(-987654321, 987654321)->str());
  (void)tup;
  Type::releaseInternedSince(mark);
  CHECK(Type::internedCount() == mark);
  // Older types are the same objects; newer ones are made again on demand.
  CHECK(Type::intConst(12345) == kept);
  const Type* again = Type::intRange(-987654321, 987654321);
  CHECK(again->str() == "[-987654321,987654321]");
  CHECK(Type::internedCount() == mark + 1);
  Type::releaseInternedSince(mark);
}
