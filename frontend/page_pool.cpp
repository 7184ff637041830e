#include "frontend/page_pool.h"

#include <array>
#include <cstdlib>
#include <mutex>
#include <new>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace herald {
namespace {

constexpr bool kSanitized = PagePool::kSanitized;
// Regions are mapped 32 MiB at a time, advised for transparent huge pages;
// only the (huge) pages touched count as memory in use.
constexpr std::size_t kRegionBytes = std::size_t{32} << 20;
// Slabs of 1..kClasses times kSlabBytes (up to 4 MiB) come from regions and
// are kept for reuse; anything else is an ordinary heap block.
constexpr std::size_t kClasses = 64;

class Pool {
 public:
  void* allocate(std::size_t bytes) {
    const std::size_t k = sizeClass(bytes);
    if (k == 0) return heapBlock(bytes);
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<void*>& free = free_[k - 1];
    if (!free.empty()) {
      void* slab = free.back();
      free.pop_back();
      return slab;
    }
    if (bytes > static_cast<std::size_t>(end_ - next_) && !newRegion())
      return heapBlock(bytes);
    void* slab = next_;
    next_ += bytes;
    return slab;
  }

  void release(void* slab, std::size_t bytes) {
    if (slab == nullptr) return;
    const std::size_t k = sizeClass(bytes);
    if (k == 0) {
      std::free(slab);
      return;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    free_[k - 1].push_back(slab);
  }

 private:
  // 1-based class of a pooled size, 0 for a heap block.
  static std::size_t sizeClass(std::size_t bytes) {
    if (kSanitized || bytes == 0 || bytes % PagePool::kSlabBytes != 0) return 0;
    const std::size_t k = bytes / PagePool::kSlabBytes;
    return k <= kClasses ? k : 0;
  }

  static void* heapBlock(std::size_t bytes) {
    void* block = std::malloc(bytes);
    if (block == nullptr) throw std::bad_alloc();
    return block;
  }

  // Maps a region; false where mapping fails, and the caller falls back to
  // the heap.
  bool newRegion() {
#if defined(__linux__)
    void* raw = mmap(nullptr, kRegionBytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (raw == MAP_FAILED) return false;
    (void)madvise(raw, kRegionBytes, MADV_HUGEPAGE);
    next_ = static_cast<char*>(raw);
    end_ = next_ + kRegionBytes;
    return true;
#else
    return false;
#endif
  }

  std::mutex mutex_;
  std::array<std::vector<void*>, kClasses> free_;
  char* next_ = nullptr;
  char* end_ = nullptr;
};

Pool& pool() {
  // Never destroyed: arenas of static objects may release after exit.
  static Pool* const instance = new Pool();
  return *instance;
}

}  // namespace

void* PagePool::allocate(std::size_t bytes) { return pool().allocate(bytes); }

void PagePool::release(void* slab, std::size_t bytes) {
  pool().release(slab, bytes);
}

bool PagePool::pooling() { return !kSanitized; }

}  // namespace herald
