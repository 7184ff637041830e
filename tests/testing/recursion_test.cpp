// Recursion in agent and context-level functions (walk.herald): allowed,
// with no limit of its own; each level is a call on the stack of the thread
// running the handler, which bounds it (language reference, section 9).
#include <doctest/doctest.h>

#include "herald/testing.hpp"
#include "walk.h"

namespace herald::kit_test {

TEST_CASE("recursion: thousands of levels in one handler") {
  testing::Harness h;
  h.runtime().install(walk::context());
  h.record<walk::Walked>();
  constexpr std::int64_t kLevels = 3000;
  walk::Walker::at(h.runtime(), "w").walk(kLevels);
  h.run_to_idle();
  CHECK(walk::Walker::at(h.runtime(), "w").totalOf() ==
        kLevels * (kLevels + 1) / 2);
  const auto walked = h.values<walk::Walked>();
  REQUIRE(walked.size() == 1);
  CHECK(walked[0].levels == kLevels);
  CHECK(walked[0].steps == kLevels);
}

}  // namespace herald::kit_test
