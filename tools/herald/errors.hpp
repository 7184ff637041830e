#pragma once
// Refusal: the operation cannot be done as asked (a missing or foreign
// database, a held lock, an unknown name, history that was truncated). The
// command prints its message and exits 1; nothing was changed.
#include <stdexcept>
#include <string>

namespace herald::tool {

class Refusal : public std::runtime_error {
 public:
  explicit Refusal(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace herald::tool
