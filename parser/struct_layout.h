// Where a struct's fields live in its objects. An object is a header word
// (8 bytes, the object's size in bytes after it) followed by its stored
// fields, each in its own width (parser/storage.h): 8-byte fields first,
// then 4-, 2- and 1-byte ones, each group in declaration order. So every
// field is naturally aligned with no padding between fields, and the end is
// rounded up to 8 bytes. Per-type constants take no storage. The language
// leaves layout to the compiler; the debug info (parser/debug_vars.cpp)
// tells gdb these offsets.
#pragma once
#include <cstdint>
#include <vector>


namespace simplec {

struct StructInfo;

struct StructLayout {
  std::vector<int64_t> offset;  // per field index: byte offset from the reference; -1 for a constant
  int64_t bytes = 0;            // the size after the header word, a multiple of 8
};

StructLayout layoutOf(const StructInfo& s);
// s's layout, kept in s once its fields are all parsed.
const StructLayout& layoutFor(StructInfo& s);

}  // namespace simplec
