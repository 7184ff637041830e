// The most bytes an event's compact JSON wire form can take, when every
// field has a fixed-size form: herald::EventInfo<E>::max_encoded_bytes, with
// which the runtime skips measuring each emitted payload against
// limits.payload_bytes.
#pragma once

#include <cstddef>
#include <optional>

#include "ir/program.h"

namespace herald::codegen {

// nullopt when a field's form has no bound (String, List, Map, ...) or the
// bound is not certain (Float, Ref, EventEnvelope).
[[nodiscard]] std::optional<std::size_t> wireBound(
    const check::EventInfo& event);

}  // namespace herald::codegen
