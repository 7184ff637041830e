// Worst cases of nlohmann's compact dump, per the wire forms of
// README.md and herald/codec.hpp: an Int is at most 20 characters
// (-9223372036854775808), a Duration its nanoseconds as an Int, an Instant
// 30 characters of text within quotes (the years an int64 of nanoseconds
// reaches, 1677 to 2262, have four digits), a Bool `false`, `()` and an
// absent Option `null`. Floats are left out: their shortest form has no
// bound the emitter can be sure of without nlohmann's printer.
#include "codegen/wire_bound.h"

#include <algorithm>
#include <string>
#include <vector>

#include "codegen/emit.h"

namespace herald::codegen {

namespace {

using check::FieldInfo;
using check::Type;
using check::TypeDefKind;
using check::TypeKind;
using Bound = std::optional<std::size_t>;

constexpr std::size_t kIntChars = 20;
constexpr std::size_t kInstantChars = 32;
constexpr std::size_t kBoolChars = 5;
constexpr std::size_t kNullChars = 4;
// Deeper than any type a program declares; stops a cycle the checker
// would have rejected anyway.
constexpr int kMaxDepth = 64;

// A name as a JSON string: its bytes within quotes, unless it holds
// something JSON escapes (names are identifiers, so it does not).
Bound quoted(const std::string& name) {
  for (char c : name)
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20)
      return std::nullopt;
  return name.size() + 2;
}

Bound typeBound(const Type* t, int depth);

// `{"a":<a>,"b":<b>}`.
Bound objectBound(const std::vector<FieldInfo>& fields, int depth) {
  std::size_t total = 2 + (fields.empty() ? 0 : fields.size() - 1);
  for (const FieldInfo& f : fields) {
    Bound key = quoted(f.name);
    Bound value = typeBound(f.type, depth + 1);
    if (!key || !value) return std::nullopt;
    total += *key + 1 + *value;
  }
  return total;
}

Bound namedBound(const check::TypeInfo& t, int depth) {
  switch (t.def) {
    case TypeDefKind::Alias:
    case TypeDefKind::Opaque:
    case TypeDefKind::Refined:
      return typeBound(t.base, depth + 1);
    case TypeDefKind::Record:
      return objectBound(t.fields, depth);
    case TypeDefKind::Sum: {
      std::size_t most = 0;
      for (const check::VariantInfo& v : t.variants) {
        Bound name = quoted(v.name);
        if (!name) return std::nullopt;
        if (isEnumSum(t)) {
          most = std::max(most, *name);
          continue;
        }
        // `{"V":{...}}`
        Bound payload = objectBound(v.fields, depth);
        if (!payload) return std::nullopt;
        most = std::max(most, 2 + *name + 1 + *payload);
      }
      return most;
    }
  }
  return std::nullopt;
}

Bound typeBound(const Type* t, int depth) {
  if (t == nullptr || depth > kMaxDepth) return std::nullopt;
  switch (t->kind) {
    case TypeKind::Int:
    case TypeKind::Duration:
      return kIntChars;
    case TypeKind::Bool:
      return kBoolChars;
    case TypeKind::Instant:
      return kInstantChars;
    case TypeKind::Unit:
      return kNullChars;
    case TypeKind::Option: {
      Bound inner = typeBound(t->arg0, depth + 1);
      if (!inner) return std::nullopt;
      return std::max(kNullChars, *inner);
    }
    case TypeKind::Named:
      return t->named == nullptr ? std::nullopt : namedBound(*t->named, depth);
    case TypeKind::Event:
      return t->event == nullptr ? std::nullopt
                                 : objectBound(t->event->fields, depth);
    case TypeKind::Error:
    case TypeKind::Never:
    case TypeKind::Float:
    case TypeKind::String:
    case TypeKind::Envelope:
    case TypeKind::List:
    case TypeKind::Map:
    case TypeKind::Ref:
    case TypeKind::Capability:
    case TypeKind::Actor:
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::size_t> wireBound(const check::EventInfo& event) {
  return objectBound(event.fields, 0);
}

}  // namespace herald::codegen
