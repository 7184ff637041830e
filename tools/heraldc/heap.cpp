#include "tools/heraldc/heap.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <utility>
#include <vector>

#include "frontend/page_pool.h"

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#define HERALD_HEAP_HUGE_PAGES 1
#endif

namespace herald::driver {

void keepFreedMemory() {
#if defined(HERALD_HEAP_HUGE_PAGES)
  if (PagePool::kSanitized) return;
  // Large blocks (the IR's big vectors) come from the heap instead of a
  // mapping of ordinary pages each, and freed space is kept, not returned
  // to the kernel and faulted in again.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
#endif
}

void prepareHeap(std::size_t inputBytes) {
#if defined(HERALD_HEAP_HUGE_PAGES)
  if (PagePool::kSanitized) return;
  // A run peaks at 15-30 bytes of heap per byte of source; only the pages
  // touched are memory in use, so the reservation errs on the large side.
  constexpr std::size_t kHuge = std::size_t{2} << 20;
  // At most 1 GiB: M_TOP_PAD is an int.
  constexpr std::size_t kMaxReserve = std::size_t{1} << 30;
  const std::size_t reserve =
      std::min(kMaxReserve, inputBytes * 32 + (std::size_t{16} << 20));
  keepFreedMemory();
  // The next growth of the heap reserves `reserve` bytes beyond what it
  // needs; a block larger than all the free space in the heap makes it
  // grow now (under the mmap threshold, so that the heap serves it).
  const std::size_t probe = mallinfo2().fordblks + (std::size_t{64} << 10);
  if (probe >= (std::size_t{32} << 20)) return;
  void* const before = sbrk(0);
  mallopt(M_TOP_PAD, static_cast<int>(reserve));
  // Volatile: a block allocated and freed unused may be elided.
  void* volatile block = std::malloc(probe);
  void* const after = sbrk(0);
  std::free(block);
  mallopt(M_TOP_PAD, 64 << 20);
  const auto from = reinterpret_cast<std::uintptr_t>(before);
  const auto to = reinterpret_cast<std::uintptr_t>(after);
  if (from == UINTPTR_MAX || to <= from) return;  // sbrk failed or no growth
  // Advise the whole 2 MiB pages of what was added; the rest of the run
  // carves its allocations from there.
  const std::uintptr_t first = (from + kHuge - 1) & ~(kHuge - 1);
  const std::uintptr_t last = to & ~(kHuge - 1);
  if (last > first)
    (void)madvise(static_cast<char*>(before) + (first - from), last - first,
                  MADV_HUGEPAGE);
#else
  (void)inputBytes;
#endif
}

void keepUntilExit(CheckedProgram&& checked) {
  if (PagePool::kSanitized) {
    CheckedProgram freed = std::move(checked);
    return;
  }
  // Reachable from a static until exit, never destroyed.
  static auto* const kept = new std::vector<CheckedProgram>();
  kept->push_back(std::move(checked));
}

}  // namespace herald::driver
