#pragma once
// A declaration of herald::Context for generated headers, which declare
// each context's `herald::Context context(...)`; the generated source and
// the host, which build and install the value, include herald/context.hpp
// (herald/runtime.hpp includes it).

namespace herald {

class Context;

}  // namespace herald
