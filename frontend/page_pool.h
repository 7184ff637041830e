// Memory for the compiler's large, short-lived arenas (the ASTs, the
// parser's list storage, the pattern arenas), in slabs carved from big
// anonymous regions and reused after release, so that an arena's growth is
// neither a malloc per slab nor a fresh mapping per file. The regions are
// advised for 2 MiB transparent huge pages: where a page fault is dear (on
// virtual machines, ~7-15 us each) one fault per 2 MiB costs less than the
// kernel's zeroing of each huge page whole on first touch (bench/README.md,
// section "Schema", has both measurements).
#pragma once

#include <cstddef>

#include <llvm/Support/Alignment.h>
#include <llvm/Support/Allocator.h>

// Under AddressSanitizer and ThreadSanitizer every slab is an ordinary heap
// block, so that a use after its arena is gone is still reported.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define HERALD_PAGE_POOL_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define HERALD_PAGE_POOL_SANITIZED 1
#endif
#endif

namespace herald {

// Process-wide and thread-safe. Slabs of kSlabBytes are reused after
// release; other sizes come from and go back to the system allocator.
class PagePool {
 public:
#ifdef HERALD_PAGE_POOL_SANITIZED
  static constexpr bool kSanitized = true;
  // As small as a plain bump allocator's, so that the sanitizer's
  // quarantine of freed blocks stays small too.
  static constexpr std::size_t kSlabBytes = 4096;
#else
  static constexpr bool kSanitized = false;
  static constexpr std::size_t kSlabBytes = std::size_t{64} << 10;
#endif

  static void* allocate(std::size_t bytes);
  static void release(void* slab, std::size_t bytes);
  // False in sanitized builds.
  static bool pooling();
};

// The slab source of a BumpPtrAllocator (the AllocatorT parameter).
class PagePoolSlabs : public llvm::AllocatorBase<PagePoolSlabs> {
 public:
  void* Allocate(std::size_t bytes, std::size_t /*alignment*/) {
    return PagePool::allocate(bytes);
  }
  void Deallocate(const void* slab, std::size_t bytes,
                  std::size_t /*alignment*/) {
    PagePool::release(const_cast<void*>(slab), bytes);
  }
  using llvm::AllocatorBase<PagePoolSlabs>::Allocate;
  using llvm::AllocatorBase<PagePoolSlabs>::Deallocate;
};

// A bump allocator whose slabs come from the pool.
using PooledBumpAllocator =
    llvm::BumpPtrAllocatorImpl<PagePoolSlabs, PagePool::kSlabBytes,
                               PagePool::kSlabBytes>;

}  // namespace herald
