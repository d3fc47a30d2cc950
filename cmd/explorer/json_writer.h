// A small streaming JSON writer for the explorer page's data. Keys and
// values are written in the order given (the page's bytes depend only on the
// input), commas are placed by the writer, and every string is escaped so
// that the text is valid JSON, valid UTF-8 (a byte that is not UTF-8 becomes
// U+FFFD) and safe inside an HTML <script> element ("</" and "<!--" never
// appear: '<' is written as \u003c).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace simplec {

// s as the body of a JSON string literal (without the quotes).
std::string jsonEscape(std::string_view s);

class JsonWriter {
 public:
  JsonWriter& beginObject();
  JsonWriter& endObject();
  JsonWriter& beginArray();
  JsonWriter& endArray();
  // In an object: the next value's key.
  JsonWriter& key(std::string_view k);
  JsonWriter& value(std::string_view s);
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(int64_t v);
  JsonWriter& value(bool b);
  JsonWriter& null();

  const std::string& text() const { return out_; }

 private:
  void beforeValue();
  std::string out_;
  // One entry per open object or array: has it a member yet?
  std::vector<bool> nonEmpty_;
  bool afterKey_ = false;
};

}  // namespace simplec
