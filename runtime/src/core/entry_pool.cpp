// Per-thread free lists for log entries (see detail::entry_allocate).
#include <cstddef>
#include <new>

#include "herald/log_entry.hpp"

namespace herald::detail {
namespace {

constexpr std::size_t kGranule = 16;
// Blocks up to 768 bytes; larger ones go to operator new.
constexpr std::size_t kClasses = 48;
// Blocks kept per size class and thread: enough for a burst of emissions
// (the fan-out moves 256 per run) without letting a thread that only frees
// (a worker dropping entries another thread allocated) hoard much memory.
constexpr std::size_t kKeep = 1024;

struct FreeBlock {
  FreeBlock* next;
};

// What a thread's cache may do with a freed block.
enum class CacheState : unsigned char {
  unarmed,  // no block kept yet: the Reaper is armed with the first one
  armed,    // blocks are kept
  dead,     // the thread is ending: free straight to operator delete
};

// Trivially destructible, so it stays usable until the thread is gone; the
// Reaper below returns its blocks when the thread ends.
struct Cache {
  FreeBlock* head[kClasses];
  std::size_t count[kClasses];
  CacheState state;
};
thread_local constinit Cache t_cache{};

struct Reaper {
  ~Reaper() {
    for (std::size_t c = 0; c < kClasses; ++c) {
      while (FreeBlock* b = t_cache.head[c]) {
        t_cache.head[c] = b->next;
        ::operator delete(static_cast<void*>(b));
      }
      t_cache.count[c] = 0;
    }
    t_cache.state = CacheState::dead;
  }
};

constexpr std::size_t class_of(std::size_t bytes) {
  return (bytes + kGranule - 1) / kGranule;
}

void keep(void* p, std::size_t c) {
  auto* b = static_cast<FreeBlock*>(p);
  b->next = t_cache.head[c];
  t_cache.head[c] = b;
  ++t_cache.count[c];
}

// entry_deallocate() of a block the cache does not simply keep: the first
// one of the thread (arms the Reaper), one past kKeep or too large, or one
// freed while the thread ends. Out of line, so that keeping a block saves
// no registers.
[[gnu::noinline]] void deallocate_slow(void* p, std::size_t bytes) noexcept {
  const std::size_t c = class_of(bytes);
  switch (t_cache.state) {
    case CacheState::unarmed: {
      thread_local Reaper reaper;
      (void)reaper;
      t_cache.state = CacheState::armed;
      if (c < kClasses) {
        keep(p, c);
        return;
      }
      break;
    }
    case CacheState::armed:
    case CacheState::dead:
      break;
  }
  ::operator delete(p);
}

}  // namespace

void* entry_allocate(std::size_t bytes) {
  const std::size_t c = class_of(bytes);
  if (c < kClasses) {
    if (FreeBlock* b = t_cache.head[c]) {
      t_cache.head[c] = b->next;
      --t_cache.count[c];
      return b;
    }
    return ::operator new(kGranule* c);
  }
  return ::operator new(bytes);
}

void entry_deallocate(void* p, std::size_t bytes) noexcept {
  const std::size_t c = class_of(bytes);
  if (c < kClasses && t_cache.state == CacheState::armed &&
      t_cache.count[c] < kKeep) {
    keep(p, c);
    return;
  }
  deallocate_slow(p, bytes);
}

}  // namespace herald::detail
