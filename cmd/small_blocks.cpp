// operator new and delete for the compiler: a slab allocator for blocks of
// up to 4 KiB, instead of glibc's malloc.
//
// Why: every function compiled builds and drops the same kinds of vectors
// (blocks, instructions, live sets, intervals), in thousands of pieces.
// glibc serves them from its bins (unlink, consolidate) and trims and
// regrows the compile thread's arena; malloc and free were 15% of -O0's
// time on many functions.
//
// How: one address range is reserved at the first allocation (4 GiB,
// pages made only when touched) and cut into 64 KiB chunks. A chunk holds
// blocks of one size class and keeps its own free list and count of blocks
// in use; each class lists its chunks that have room. A chunk whose last
// block is freed goes back to a pool that every class takes from, so memory
// a phase dropped serves the next phase's sizes (as malloc's would).
// Blocks carry no header: the range tells a small block from malloc's, the
// chunk tells its class, so unsized deletes work and a 24-byte request takes
// 32 bytes as in malloc. Each thread keeps a few free blocks per class
// (ThreadCache below), so most requests take no lock; one lock guards the
// chunks, and a thread that finds it taken spins briefly, then yields (on
// a virtual machine the holder may have lost its processor, and spinning
// on would only delay it). Sanitizer builds keep the library's operators,
// whose checks they need.
#include "cmd/small_blocks.h"

#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace simplec::small_blocks {

namespace {

constexpr unsigned kChunkShift = 16;
constexpr size_t kChunk = size_t(1) << kChunkShift;
constexpr size_t kRange = size_t(4) << 30;
constexpr uint32_t kChunks = uint32_t(kRange / kChunk);

struct Free {
  Free* next;
};

// Chunk k's state. Links are chunk numbers + 1 (0: none), so that the
// zero-initialized tables below need no constructor.
struct Chunk {
  Free* free;      // blocks freed in this chunk
  uint32_t used;   // blocks handed out and not freed
  uint32_t bump;   // bytes carved so far
  uint32_t prev;   // in its class's list of chunks with room, or the pool
  uint32_t next;
  uint8_t cls;
  bool listed;     // on its class's list
};

// All constant-initialized: usable by the program's first operator new,
// before any dynamic initialization ran.
std::atomic_flag lock = ATOMIC_FLAG_INIT;
bool reserved = false;
// Null when the reservation failed. Set once, under the lock; atomic because
// release() reads it without the lock.
std::atomic<char*> base{nullptr};
uint32_t fresh = 0;    // chunks [fresh, kChunks) were never used
uint32_t pool = 0;     // emptied chunks, linked by next
uint32_t roomy[kClasses];
Chunk chunks[kChunks];

struct Guard {
  Guard() {
    for (int spins = 0; lock.test_and_set(std::memory_order_acquire);) {
      if (++spins < 64) {
        __builtin_ia32_pause();
      } else {
        spins = 0;
        sched_yield();
      }
    }
  }
  ~Guard() { lock.clear(std::memory_order_release); }
};

void reserve() {
  reserved = true;
  void* p = mmap(nullptr, kRange, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return;
  // Small pages, as malloc's heap has by default: a huge page would make a
  // chunk's first touch cost 2 MiB of memory (and, where the kernel
  // compacts for one, a stall).
  madvise(p, kRange, MADV_NOHUGEPAGE);
  base.store(static_cast<char*>(p), std::memory_order_release);
}

void unlinkRoomy(uint32_t k) {
  Chunk& c = chunks[k];
  if (c.prev) chunks[c.prev - 1].next = c.next;
  else roomy[c.cls] = c.next;
  if (c.next) chunks[c.next - 1].prev = c.prev;
  c.listed = false;
}

void linkRoomy(uint32_t k) {
  Chunk& c = chunks[k];
  c.prev = 0;
  c.next = roomy[c.cls];
  if (c.next) chunks[c.next - 1].prev = k + 1;
  roomy[c.cls] = k + 1;
  c.listed = true;
}

// A chunk with room for class cls, or kChunks when none is left.
uint32_t roomFor(size_t cls) {
  if (roomy[cls]) return roomy[cls] - 1;
  uint32_t k;
  if (pool) {
    k = pool - 1;
    pool = chunks[k].next;
  } else if (fresh < kChunks) {
    k = fresh++;
  } else {
    return kChunks;
  }
  chunks[k] = Chunk{nullptr, 0, 0, 0, 0, uint8_t(cls), false};
  linkRoomy(k);
  return k;
}

}  // namespace

// Classes: 16 to 128 bytes by 16, then four per doubling up to 4 KiB (a
// block wastes at most a fifth of itself).
size_t classOf(size_t bytes) {
  if (bytes <= 128) return bytes <= 16 ? 0 : (bytes - 1) / 16;
  // (128, 4096]: bytes - 1 lies in [2^d, 2^(d+1)), d >= 7; q is its quarter.
  size_t v = bytes - 1;
  unsigned d = 63u - unsigned(__builtin_clzll(v));
  size_t q = (v >> (d - 2)) & 3;
  return 8 + (d - 7) * 4 + q;
}

size_t classBytes(size_t cls) {
  if (cls < 8) return 16 + cls * 16;
  size_t d = 7 + (cls - 8) / 4, q = (cls - 8) % 4;
  return (size_t(1) << d) + (q + 1) * (size_t(1) << (d - 2));
}

bool isSmallBlock(const void* p) {
  const char* c = static_cast<const char*>(p);
  const char* b = base.load(std::memory_order_acquire);
  return b && c >= b && c < b + kRange;
}

namespace {

// One block of class cls, or null when the range is used up (or could not
// be reserved). Under the lock.
void* takeLocked(size_t cls) {
  if (!reserved) reserve();
  char* b = base.load(std::memory_order_relaxed);
  uint32_t k = b ? roomFor(cls) : kChunks;
  if (k >= kChunks) return nullptr;
  size_t size = classBytes(cls);
  Chunk& c = chunks[k];
  void* p;
  if (c.free) {
    p = c.free;
    c.free = c.free->next;
  } else {
    p = b + (size_t(k) << kChunkShift) + c.bump;
    c.bump += uint32_t(size);
  }
  c.used++;
  if (!c.free && c.bump + size > kChunk) unlinkRoomy(k);
  return p;
}

// A small block back to its chunk. Under the lock.
void giveLocked(void* p) {
  uint32_t k = uint32_t(size_t(static_cast<char*>(p) - base.load(std::memory_order_relaxed)) >> kChunkShift);
  Chunk& c = chunks[k];
  Free* f = static_cast<Free*>(p);
  f->next = c.free;
  c.free = f;
  if (--c.used == 0) {
    if (c.listed) unlinkRoomy(k);
    c.next = pool;
    pool = k + 1;
    return;
  }
  if (!c.listed) linkRoomy(k);
}

// Each thread keeps a few free blocks of each class, so that most requests
// take no lock: a compile makes millions of them, and with -j's threads
// every locked one moves the lock's cache line between processors. A
// thread takes blocks from the chunks a batch at a time (about 8 KiB) and
// gives a batch back when it holds twice that. Blocks in a cache still
// count as used in their chunks. The cache is plain data (constant-
// initialized, no destructor: operator new may run while a thread's other
// objects are destroyed); a thread-exit hook gives its blocks back and
// sends the thread's later requests straight to the chunks.
struct ThreadCache {
  Free* head[kClasses];
  uint16_t count[kClasses];
  bool hooked;  // the exit hook is set
  bool closed;  // the thread is ending: no more caching
};
thread_local ThreadCache cache;

size_t batchOf(size_t cls) {
  size_t n = 8192 / classBytes(cls);
  return n < 1 ? 1 : n > 32 ? 32 : n;
}

void flush(ThreadCache& tc) {
  Guard g;
  for (size_t cls = 0; cls < kClasses; cls++) {
    while (Free* f = tc.head[cls]) {
      tc.head[cls] = f->next;
      giveLocked(f);
    }
    tc.count[cls] = 0;
  }
}

pthread_key_t exitKey;
bool exitKeyMade = false;  // set once, under exitKeyOnce
pthread_once_t exitKeyOnce = PTHREAD_ONCE_INIT;

void atThreadExit(void* p) {
  ThreadCache& tc = *static_cast<ThreadCache*>(p);
  flush(tc);
  tc.closed = true;
}

// False when the thread's cache cannot be used (it is ending, or the exit
// hook could not be set).
bool hook(ThreadCache& tc) {
  if (tc.closed) return false;
  if (!tc.hooked) {
    pthread_once(&exitKeyOnce, [] { exitKeyMade = pthread_key_create(&exitKey, atThreadExit) == 0; });
    if (!exitKeyMade || pthread_setspecific(exitKey, &tc) != 0) {
      tc.closed = true;
      return false;
    }
    tc.hooked = true;
  }
  return true;
}

}  // namespace

void* allocate(size_t n) {
  if (n == 0) n = 1;
  if (n > kMaxSmall) return std::malloc(n);
  size_t cls = classOf(n);
  ThreadCache& tc = cache;
  if (Free* f = tc.head[cls]) {
    tc.head[cls] = f->next;
    tc.count[cls]--;
    return f;
  }
  void* p;
  {
    Guard g;
    p = takeLocked(cls);
    if (p && hook(tc)) {
      // One for the caller, the rest of a batch for the next requests.
      for (size_t i = 1; i < batchOf(cls); i++) {
        void* q = takeLocked(cls);
        if (!q) break;
        Free* f = static_cast<Free*>(q);
        f->next = tc.head[cls];
        tc.head[cls] = f;
        tc.count[cls]++;
      }
    }
  }
  return p ? p : std::malloc(n);
}

void release(void* p) {
  if (!isSmallBlock(p)) {
    std::free(p);
    return;
  }
  // The chunk of a block in use keeps its class: no lock needed to read it.
  uint32_t k = uint32_t(size_t(static_cast<char*>(p) - base.load(std::memory_order_relaxed)) >> kChunkShift);
  size_t cls = chunks[k].cls;
  ThreadCache& tc = cache;
  if (tc.hooked && !tc.closed) {
    Free* f = static_cast<Free*>(p);
    f->next = tc.head[cls];
    tc.head[cls] = f;
    if (++tc.count[cls] <= 2 * batchOf(cls)) return;
    // Too many: a batch goes back to the chunks.
    Guard g;
    for (size_t i = batchOf(cls); i > 0; i--) {
      Free* x = tc.head[cls];
      tc.head[cls] = x->next;
      tc.count[cls]--;
      giveLocked(x);
    }
    return;
  }
  Guard g;
  giveLocked(p);
}

void flushThreadCache() {
  ThreadCache& tc = cache;
  if (tc.hooked) flush(tc);
}

size_t chunksInUse() {
  flushThreadCache();
  Guard g;
  size_t n = fresh;
  for (uint32_t k = pool; k; k = chunks[k - 1].next) n--;
  return n;
}

size_t chunksEverUsed() {
  Guard g;
  return fresh;
}

}  // namespace simplec::small_blocks

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define SIMPLEC_LIBRARY_NEW 1
#endif
#endif

#if !defined(__SANITIZE_ADDRESS__) && !defined(SIMPLEC_LIBRARY_NEW)

namespace {

void* allocateOrThrow(size_t n) {
  for (;;) {
    if (void* p = simplec::small_blocks::allocate(n)) return p;
    std::new_handler h = std::get_new_handler();
    if (!h) throw std::bad_alloc();
    h();
  }
}

}  // namespace

void* operator new(size_t n) { return allocateOrThrow(n); }
void* operator new[](size_t n) { return allocateOrThrow(n); }
void* operator new(size_t n, const std::nothrow_t&) noexcept { return simplec::small_blocks::allocate(n); }
void* operator new[](size_t n, const std::nothrow_t&) noexcept { return simplec::small_blocks::allocate(n); }
void operator delete(void* p) noexcept { simplec::small_blocks::release(p); }
void operator delete[](void* p) noexcept { simplec::small_blocks::release(p); }
void operator delete(void* p, size_t) noexcept { simplec::small_blocks::release(p); }
void operator delete[](void* p, size_t) noexcept { simplec::small_blocks::release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { simplec::small_blocks::release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { simplec::small_blocks::release(p); }

#endif
