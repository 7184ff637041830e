// Body lowering: one body of the body IR (ir/body.h) -> C++
// statements or a C++ expression, in the shape README.md ("Bodies")
// describes. The declaration emitters write the function around it.
#pragma once

#include <cstdint>
#include <string>

#include "codegen/names.h"
#include "ir/program.h"

namespace herald::codegen {

class BodyLowering {
 public:
  BodyLowering(const check::Program& program, Spelling& spelling);

  // The statements of a fn or handler body (`check::Body::root` is a
  // Block), each line indented by `indent` spaces, ending in a newline;
  // a body with a value ends in `return <value>;`.
  [[nodiscard]] std::string statements(check::BodyId body, unsigned indent);
  // A C++ expression of the value of a body (store initialisers,
  // invariants, event field defaults).
  [[nodiscard]] std::string expression(check::BodyId body);

 private:
  const check::Program& program_;
  Spelling& spelling_;
};

}  // namespace herald::codegen
