// JsonWriter: commas from a stack of open containers; strings escaped for
// JSON inside HTML.
#include "cmd/explorer/json_writer.h"

#include "lexer/utf8.h"

namespace simplec {

namespace {

// Length of the well-formed UTF-8 character starting at s[i], or 0 for a
// byte that starts none (lexer/utf8.h decides, as for columns).
size_t utf8Length(std::string_view s, size_t i) { return utf8Decode(s, i) < 0 ? 0 : utf8CharLen(s, i); }

}  // namespace

std::string jsonEscape(std::string_view s) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = utf8Length(s, i);
    if (n == 0) {
      out += "\\ufffd";
      i++;
      continue;
    }
    if (n > 1) {
      // U+2028 and U+2029 end lines in older JavaScript: escape them too.
      bool lineSep = n == 3 && c == 0xE2 && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
                     (static_cast<unsigned char>(s[i + 2]) & 0xFE) == 0xA8;
      if (lineSep) out += static_cast<unsigned char>(s[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029";
      else out.append(s.substr(i, n));
      i += n;
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '<': out += "\\u003c"; break;  // no "</script>" or "<!--" in the page's data
      case '>': out += "\\u003e"; break;
      case '&': out += "\\u0026"; break;
      default:
        if (c < 0x20 || c == 0x7F) {
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 0xF];
        } else {
          out += char(c);
        }
    }
    i++;
  }
  return out;
}

void JsonWriter::beforeValue() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (!nonEmpty_.empty()) {
    if (nonEmpty_.back()) out_ += ',';
    nonEmpty_.back() = true;
  }
}

JsonWriter& JsonWriter::beginObject() {
  beforeValue();
  out_ += '{';
  nonEmpty_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::endObject() {
  nonEmpty_.pop_back();
  out_ += '}';
  return *this;
}

JsonWriter& JsonWriter::beginArray() {
  beforeValue();
  out_ += '[';
  nonEmpty_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::endArray() {
  nonEmpty_.pop_back();
  out_ += ']';
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view k) {
  beforeValue();
  out_ += '"';
  out_ += jsonEscape(k);
  out_ += "\":";
  afterKey_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view s) {
  beforeValue();
  out_ += '"';
  out_ += jsonEscape(s);
  out_ += '"';
  return *this;
}

JsonWriter& JsonWriter::value(int64_t v) {
  beforeValue();
  out_ += std::to_string(v);
  return *this;
}

JsonWriter& JsonWriter::value(bool b) {
  beforeValue();
  out_ += b ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::null() {
  beforeValue();
  out_ += "null";
  return *this;
}

}  // namespace simplec
