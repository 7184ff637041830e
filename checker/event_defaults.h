// bad-field-default: an event field default is what decoding an older event
// that lacks the field fills in, so it must be a constant of the field's
// type, refinements included. Internal to checker/.
#pragma once

#include <cstddef>

#include "checker/sema.h"
#include "ir/id.h"
#include "ir/program.h"

namespace herald::check {

// Settles the default of `field` of `event` after its body was lowered (to
// `root`) by the bodies pass: its value, from the lowered body, into
// FieldInfo::defaultValue; or one bad-field-default that says why there is
// none, in place of what checking the body reported since `mark` (a
// diagnostics().size() read before). Overflow and division by zero stay
// errors of their own.
void settleEventDefault(Sema& sema, const EventInfo& event, FieldInfo& field,
                        InstId root, std::size_t mark);

}  // namespace herald::check
