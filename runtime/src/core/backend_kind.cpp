#include "herald/backend_kind.hpp"

namespace herald {

std::string_view backend_kind_name(BackendKind kind) {
  switch (kind) {
    case BackendKind::memory:
      return "memory";
    case BackendKind::sqlite:
      return "sqlite";
    case BackendKind::nats:
      return "nats";
  }
  return "?";
}

std::optional<BackendKind> parse_backend_kind(std::string_view name) {
  for (BackendKind kind : kBackendKinds) {
    if (backend_kind_name(kind) == name) return kind;
  }
  return std::nullopt;
}

std::string backend_kind_names() {
  std::string names;
  for (BackendKind kind : kBackendKinds) {
    if (!names.empty()) names += ", ";
    names += backend_kind_name(kind);
  }
  return names;
}

std::string_view backend_component(BackendKind kind) {
  switch (kind) {
    case BackendKind::memory:
      return "";
    case BackendKind::sqlite:
      return "sqlite";
    case BackendKind::nats:
      return "nats";
  }
  return "?";
}

}  // namespace herald
