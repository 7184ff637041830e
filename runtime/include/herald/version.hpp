#pragma once
// The version of the interface between generated code and the runtime.
// Generated code checks it at compile time (`#error` on mismatch); it is
// bumped whenever what heraldc emits stops compiling or behaving the same
// against this runtime.
#define HERALD_RUNTIME_VERSION 1

namespace herald {

inline constexpr int runtime_version = HERALD_RUNTIME_VERSION;

}  // namespace herald
