#include "frontend/page_pool.h"

#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

#include <doctest/doctest.h>

#include "frontend/ast.h"

namespace herald {
namespace {

TEST_CASE("page pool: slabs are distinct, writable, and reused after release") {
  constexpr std::size_t kSlab = PagePool::kSlabBytes;
  std::vector<void*> slabs;
  for (int i = 0; i < 600; ++i) {  // more than one 32 MiB region
    void* s = PagePool::allocate(kSlab);
    REQUIRE(s != nullptr);
    std::memset(s, i & 0xff, kSlab);
    slabs.push_back(s);
  }
  CHECK(std::set<void*>(slabs.begin(), slabs.end()).size() == slabs.size());
  for (std::size_t i = 0; i < slabs.size(); ++i)
    CHECK(static_cast<unsigned char*>(slabs[i])[kSlab - 1] == (i & 0xff));
  void* last = slabs.back();
  for (void* s : slabs) PagePool::release(s, kSlab);
  void* again = PagePool::allocate(kSlab);
  if (PagePool::pooling()) CHECK(again == last);
  PagePool::release(again, kSlab);
}

TEST_CASE("page pool: larger multiples and odd sizes") {
  void* big = PagePool::allocate(PagePool::kSlabBytes * 3);
  void* odd = PagePool::allocate(1000);
  void* huge = PagePool::allocate(PagePool::kSlabBytes * 100);
  REQUIRE(big != nullptr);
  REQUIRE(odd != nullptr);
  REQUIRE(huge != nullptr);
  std::memset(big, 1, PagePool::kSlabBytes * 3);
  std::memset(odd, 2, 1000);
  std::memset(huge, 3, PagePool::kSlabBytes * 100);
  PagePool::release(big, PagePool::kSlabBytes * 3);
  PagePool::release(odd, 1000);
  PagePool::release(huge, PagePool::kSlabBytes * 100);
  void* big2 = PagePool::allocate(PagePool::kSlabBytes * 3);
  if (PagePool::pooling()) CHECK(big2 == big);
  PagePool::release(big2, PagePool::kSlabBytes * 3);
}

TEST_CASE("page pool: arenas allocate past many slabs and give them back") {
  std::set<std::uintptr_t> seen;
  for (int round = 0; round < 3; ++round) {
    ast::Arena arena;
    std::uint64_t* first = nullptr;
    for (int i = 0; i < 200000; ++i) {  // about 1.6 MB, over 20 slabs
      auto* v = arena.make<std::uint64_t>(static_cast<std::uint64_t>(i));
      if (first == nullptr) first = v;
      CHECK_FALSE(*v != static_cast<std::uint64_t>(i));
    }
    CHECK(*first == 0);
    CHECK(arena.bytesAllocated() >= 200000 * sizeof(std::uint64_t));
    seen.insert(reinterpret_cast<std::uintptr_t>(first));
  }
  // The second and third arena reuse the first one's slabs.
  if (PagePool::pooling()) CHECK(seen.size() < 3);
}

}  // namespace
}  // namespace herald
