// Tests for cmd/explorer/json_writer.h: commas and nesting, and strings
// escaped so that the text is JSON, UTF-8, and harmless inside <script>.
#include <catch2/catch.hpp>

#include "cmd/explorer/json_writer.h"

using namespace simplec;

TEST_CASE("explorer/json: objects and arrays get their commas", "[explorer][json]") {
  JsonWriter w;
  w.beginObject();
  w.key("a").value(int64_t(1));
  w.key("b").beginArray().value("x").value(true).null().beginArray().endArray().endArray();
  w.key("c").beginObject().endObject();
  w.key("d").value(int64_t(-7));
  w.endObject();
  CHECK(w.text() == R"({"a":1,"b":["x",true,null,[]],"c":{},"d":-7})");
}

TEST_CASE("explorer/json: strings are escaped for JSON inside HTML", "[explorer][json]") {
  CHECK(jsonEscape("plain") == "plain");
  CHECK(jsonEscape("a\"b\\c") == "a\\\"b\\\\c");
  CHECK(jsonEscape("line\nnext\ttab\r") == "line\\nnext\\ttab\\r");
  CHECK(jsonEscape(std::string("nul\0x", 5)) == "nul\\u0000x");
  CHECK(jsonEscape("\x1f\x7f") == "\\u001f\\u007f");
  // No "</script>" and no "<!--" can end or confuse the data element.
  CHECK(jsonEscape("</script><!--") == "\\u003c/script\\u003e\\u003c!--");
  CHECK(jsonEscape("a && b") == "a \\u0026\\u0026 b");
}

TEST_CASE("explorer/json: UTF-8 passes, other bytes become U+FFFD", "[explorer][json]") {
  CHECK(jsonEscape("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") == "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
  CHECK(jsonEscape("\xff") == "\\ufffd");
  CHECK(jsonEscape("a\xc3") == "a\\ufffd");            // cut short
  CHECK(jsonEscape("\xc0\xaf") == "\\ufffd\\ufffd");   // overlong '/'
  CHECK(jsonEscape("\xed\xa0\x80") == "\\ufffd\\ufffd\\ufffd");  // a surrogate
  // JavaScript once took these for line ends.
  CHECK(jsonEscape("\xe2\x80\xa8\xe2\x80\xa9") == "\\u2028\\u2029");
}
