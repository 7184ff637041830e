#include "heap_counter.hpp"

#include <cstddef>
#include <cstdlib>
#include <new>

std::atomic<std::int64_t> g_live_bytes{0};
std::atomic<std::uint64_t> g_allocations{0};

namespace {
// Each block carries its size in front, so delete can account for it.
constexpr std::size_t kHeader = alignof(std::max_align_t);
}  // namespace

void* operator new(std::size_t n) {
  void* p = std::malloc(n + kHeader);
  if (p == nullptr) throw std::bad_alloc();
  *static_cast<std::size_t*>(p) = n;
  g_live_bytes.fetch_add(static_cast<std::int64_t>(n), std::memory_order_relaxed);
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return static_cast<char*>(p) + kHeader;
}

void operator delete(void* p) noexcept {
  if (p == nullptr) return;
  void* base = static_cast<char*>(p) - kHeader;
  g_live_bytes.fetch_sub(static_cast<std::int64_t>(*static_cast<std::size_t*>(base)), std::memory_order_relaxed);
  std::free(base);
}

void operator delete(void* p, std::size_t) noexcept { operator delete(p); }
