// The static event-flow graph in Graphviz DOT (`heraldc graph`): one cluster
// per context, events as filled ellipses, handlers as boxes, subscriptions
// as tabbed boxes labelled with the service, its pattern and its `via`;
// edges `emits`, `sends`, and deliveries labelled with the pattern. Node and
// cluster order is the IR's, so the text is deterministic.
#pragma once

#include <string>
#include <string_view>

#include "ir/program.h"

namespace herald::check {

[[nodiscard]] std::string flowGraphDot(const Program& program);

// `text` as the body of a DOT double-quoted string: quotes and backslashes
// escaped, line breaks as `\n`.
[[nodiscard]] std::string dotEscape(std::string_view text);

}  // namespace herald::check
