// The compiler's operator new (cmd/small_blocks.h): size classes that fit,
// blocks that are apart, aligned and reused, chunks that go back to a pool
// every class takes from, blocks freed on another thread, and the blocks
// a thread keeps for itself given back when it ends.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <set>
#include <thread>
#include <vector>

#include "cmd/small_blocks.h"

using namespace simplec::small_blocks;

TEST_CASE("small_blocks: every request fits its class, which wastes at most a fifth", "[cmd][small_blocks]") {
  size_t last = 0;
  for (size_t n = 1; n <= kMaxSmall; n++) {
    size_t c = classOf(n);
    REQUIRE(c < kClasses);
    REQUIRE(c >= last);  // monotone
    last = c;
    size_t b = classBytes(c);
    REQUIRE(b >= n);
    REQUIRE(b % 16 == 0);
    if (n > 128) REQUIRE(b * 4 <= n * 5 + 4);
    // The class below is too small.
    if (c > 0) REQUIRE(classBytes(c - 1) < n);
  }
  CHECK(classOf(kMaxSmall) == kClasses - 1);
}

TEST_CASE("small_blocks: blocks are apart, aligned, writable and reused", "[cmd][small_blocks]") {
  std::vector<std::pair<char*, size_t>> blocks;
  for (size_t i = 0; i < 3000; i++) {
    size_t n = 1 + (i * 37) % kMaxSmall;
    char* p = static_cast<char*>(allocate(n));
    REQUIRE(p);
    REQUIRE(reinterpret_cast<uintptr_t>(p) % 16 == 0);
    std::memset(p, int(i & 0xFF), n);
    blocks.push_back({p, n});
  }
  for (size_t i = 0; i < blocks.size(); i++) {
    auto [p, n] = blocks[i];
    CHECK(p[0] == char(i & 0xFF));
    CHECK(p[n - 1] == char(i & 0xFF));  // no later block overlapped it
  }
  if (isSmallBlock(blocks[0].first)) {
    // The last block freed of a class is the next one handed out.
    char* p = blocks[5].first;
    size_t n = blocks[5].second;
    release(p);
    CHECK(allocate(n) == p);
  }
  for (auto [p, n] : blocks) release(p);
  void* big = allocate(kMaxSmall + 1);
  CHECK_FALSE(isSmallBlock(big));  // malloc's
  release(big);
}

TEST_CASE("small_blocks: emptied chunks serve other classes", "[cmd][small_blocks]") {
  void* probe = allocate(64);
  bool reserved = isSmallBlock(probe);
  release(probe);
  if (!reserved) return;  // the range could not be reserved: all is malloc's
  size_t inUse = chunksInUse();
  std::vector<void*> a;
  for (int i = 0; i < 20000; i++) a.push_back(allocate(3000));  // about 1000 chunks
  CHECK(chunksInUse() >= inUse + 900);
  for (void* p : a) release(p);
  CHECK(chunksInUse() <= inUse + 2);
  // Another size takes the emptied chunks instead of new ones.
  size_t ever = chunksEverUsed();
  std::vector<void*> b;
  for (int i = 0; i < 50000; i++) b.push_back(allocate(1000));  // about 800 chunks
  CHECK(chunksEverUsed() <= ever + 2);
  for (void* p : b) release(p);
}

TEST_CASE("small_blocks: a block made on one thread is freed on another", "[cmd][small_blocks]") {
  std::vector<void*> made;
  std::thread t([&] {
    for (int i = 0; i < 1000; i++) made.push_back(allocate(size_t(8 + i % 500)));
  });
  t.join();
  std::set<void*> distinct(made.begin(), made.end());
  CHECK(distinct.size() == made.size());
  for (void* p : made) release(p);
  // And operator new itself, through the library.
  std::vector<std::vector<int>> v;
  std::thread u([&] {
    for (int i = 0; i < 100; i++) v.emplace_back(size_t(i + 1), i);
  });
  u.join();
  for (int i = 0; i < 100; i++) CHECK(v[size_t(i)].back() == i);
}

TEST_CASE("small_blocks: a thread's cached blocks go back when it ends", "[cmd][small_blocks]") {
  void* probe = allocate(64);
  bool reserved = isSmallBlock(probe);
  release(probe);
  if (!reserved) return;
  size_t inUse = chunksInUse();
  // Each class keeps a few freed blocks in the thread's cache, in a chunk
  // of its own: kept after the thread, they would hold a chunk per class.
  std::thread t([] {
    for (size_t cls = 0; cls < kClasses; cls++) {
      std::vector<void*> v;
      for (int i = 0; i < 100; i++) v.push_back(allocate(classBytes(cls)));
      for (void* p : v) release(p);
    }
  });
  t.join();
  CHECK(chunksInUse() <= inUse + 2);
  // The same on this thread, made explicit.
  for (size_t cls = 0; cls < kClasses; cls++) release(allocate(classBytes(cls)));
  flushThreadCache();
  CHECK(chunksInUse() <= inUse + 2);
}
