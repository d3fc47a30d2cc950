// The slab allocator behind the compiler's operator new (small_blocks.cpp):
// exposed for its unit test.
#pragma once
#include <cstddef>

namespace simplec::small_blocks {

// Requests of up to kMaxSmall bytes are served from 64 KiB chunks of one
// reserved address range, a chunk holding blocks of one size class; larger
// ones (and all once the range is used up or could not be reserved) from
// malloc.
constexpr size_t kMaxSmall = 4096;
constexpr size_t kClasses = 28;

// The class of a request of `bytes` (1 <= bytes <= kMaxSmall), and the size
// of its blocks.
size_t classOf(size_t bytes);
size_t classBytes(size_t cls);

// What operator new and delete do: null when memory ran out.
void* allocate(size_t n);
void release(void* p);
// True if p lies in the reserved range (a small block, not malloc's).
bool isSmallBlock(const void* p);
// Gives the calling thread's cached free blocks back to their chunks.
void flushThreadCache();
// Chunks holding at least one block now, after the calling thread's cache
// went back (for tests: emptied chunks go back to a pool that any class
// takes from).
size_t chunksInUse();
// Chunks ever taken from the reserved range.
size_t chunksEverUsed();

}  // namespace simplec::small_blocks
