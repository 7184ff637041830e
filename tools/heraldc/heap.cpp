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

#if defined(HERALD_HEAP_HUGE_PAGES)
namespace {

constexpr std::size_t kHuge = std::size_t{2} << 20;
// At most 1 GiB: M_TOP_PAD is an int.
constexpr std::size_t kMaxReserve = std::size_t{1} << 30;
// Below glibc's largest mmap threshold, 32 MiB on 64-bit platforms.
constexpr std::size_t kMaxBlock = std::size_t{30} << 20;
// A chunk's header is one word before the block malloc returns.
constexpr std::size_t kWord = sizeof(std::size_t);

std::uintptr_t roundUp(std::uintptr_t at) {
  return (at + kHuge - 1) & ~(kHuge - 1);
}
std::uintptr_t roundDown(std::uintptr_t at) { return at & ~(kHuge - 1); }

// The heap's end, null where sbrk fails.
char* heapEnd() {
  void* const end = sbrk(0);
  if (reinterpret_cast<std::uintptr_t>(end) == UINTPTR_MAX) return nullptr;
  return static_cast<char*>(end);
}

std::uintptr_t address(const char* at) {
  return reinterpret_cast<std::uintptr_t>(at);
}

// Advises the whole 2 MiB pages between `from` and `to`, addresses in the
// heap that ends at `end`.
void adviseHuge(char* end, std::uintptr_t from, std::uintptr_t to) {
  from = roundUp(from);
  to = roundDown(to);
  if (to > from)
    (void)madvise(end - (address(end) - from), to - from, MADV_HUGEPAGE);
}

// The block that moves the heap's top to a 2 MiB boundary, held until exit.
// Volatile: a block stored where nothing reads it may be elided, and then
// the top stays where it was.
void* volatile& heldFiller() {
  static void* volatile held = nullptr;
  return held;
}

}  // namespace
#endif

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
  keepFreedMemory();
  // A run peaks at 15-30 bytes of heap per byte of source; only the pages
  // touched are memory in use, so the reservation errs on the large side.
  const std::size_t reserve =
      std::min(kMaxReserve, inputBytes * 32 + (std::size_t{16} << 20));
  // A huge page backs a 2 MiB page only if nothing in it was touched
  // before it was advised, and only if it lies wholly inside the heap. So
  // the heap grows first, by one block that nothing writes into (the
  // header malloc writes after it is at its far end), then the whole pages
  // of the growth are advised, and only then does the heap's top move to
  // the first whole page (a block held until exit, never touched, takes
  // up the part before it). Before this, a small run's whole heap (2-3 MiB
  // at 10k schema lines) lay in 4 KiB pages: about 500 faults, a third of
  // the run's time.
  char* const end = heapEnd();
  if (end == nullptr || reserve <= kHuge) return;
  const std::uintptr_t topStart = address(end) - mallinfo2().keepcost;
  const std::uintptr_t boundary = roundUp(topStart);
  // The growth block stays under the mmap threshold so that the heap
  // serves it; the padding covers whatever it leaves of the reservation.
  const std::size_t grow = std::min(reserve, kMaxBlock);
  mallopt(M_TOP_PAD, static_cast<int>(reserve - grow));
  // Volatile: a block allocated and freed unused may be elided.
  void* volatile block = std::malloc(grow);
  const std::uintptr_t start = address(static_cast<char*>(block));
  std::free(block);
  mallopt(M_TOP_PAD, 64 << 20);
  char* const grown = heapEnd();
  // Grown in place: the block starts where the top did, right after a
  // chunk header.
  if (start == 0 || grown == nullptr || grown <= end ||
      start - topStart > 4 * kWord)
    return;
  // The chunk header malloc wrote right after the block; its page stays
  // small.
  const std::uintptr_t header = start + grow;
  adviseHuge(grown, boundary, header - 4 * kWord);
  adviseHuge(grown, header + 4 * kWord, address(grown));
  if (boundary - topStart > 4 * kWord)
    heldFiller() = std::malloc(boundary - topStart - kWord);
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
