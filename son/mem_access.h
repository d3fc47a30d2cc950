// How a Load or Store touches memory, packed into the node's aux: the alias
// class (one per struct field and one per array element type; 0 is the
// immutable array header), the access width in bytes, whether a narrow load
// sign-extends, and what kind of value the slot holds. Two accesses of
// different alias classes never overlap.
#pragma once
#include <cstdint>
#include <string>

#include "son/node.h"
#include "son/type.h"

namespace simplec {


enum class MemValue : uint8_t { Int, Ptr, Fun, Float };

struct MemAccess {
  int alias = 0;          // 0: array header (length), never stored after New
  int size = 8;           // 1, 2, 4 or 8 bytes; 16: two doubles (Float, a vector)
  bool isSigned = true;   // narrow integer loads: sign- or zero-extend
  MemValue value = MemValue::Int;

  int64_t encode() const {
    return int64_t(alias) | (int64_t(size) << 24) | (int64_t(isSigned) << 32) | (int64_t(value) << 33);
  }
  static MemAccess decode(int64_t aux) {
    MemAccess m;
    m.alias = int(aux & 0xFFFFFF);
    m.size = int((aux >> 24) & 0xFF);
    m.isSigned = (aux >> 32) & 1;
    m.value = MemValue((aux >> 33) & 3);
    return m;
  }
  // "i64", "u8", "ptr", ...: the slot's type for printing.
  std::string str() const;
  // The lattice type of a value loaded by this access.
  const Type* loadType() const;
  // Sign- or zero-extends the low `size` bytes of v, as a load does.
  int64_t extend(int64_t v) const;
};

// Byte offset of element 0 from an array reference: the length comes first.
constexpr int64_t kArrayHeader = 8;

// No array is longer: the runtime refuses (out of memory) a length whose
// header and elements would not fit in INT64_MAX bytes, and elements take
// a byte at least. So `j <= a#` leaves room for j + 1, and a loop running
// j up to a length cannot wrap around.
constexpr int64_t kMaxArrayLength = INT64_MAX - 16;

}  // namespace simplec

namespace simplec {


// The pointer of a fresh allocation (Proj 2 of a New), or null.
const Node* newOf(const Node* ptr);
// The object a pointer surely points to: its allocation (New) or its
// constant string; null when unknown. Accesses through pointers to two
// different objects never touch a common byte.
const Node* objectOf(const Node* ptr);
// The same value: one node, or two equal integer constants.
bool sameValue(const Node* a, const Node* b);
// Two accesses of one alias class (Loads or Stores) that can never touch a
// common byte: the same pointer with constant offsets that do not overlap,
// or pointers to two different objects (two allocations, a string and an
// allocation, two strings).
bool provablyDisjoint(const Node* a, const Node* b);

}  // namespace simplec
