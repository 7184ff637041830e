#include "herald/context.hpp"

#include "herald/envelope.hpp"

namespace herald {

ViaPredicate via_schema(std::int64_t lo, std::optional<std::int64_t> hi) {
  return [lo, hi](const EventEnvelope& env) {
    return env.schemaVersion >= lo && (!hi || env.schemaVersion <= *hi);
  };
}

}  // namespace herald
