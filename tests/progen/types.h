// The types a generated program uses, and what the generator knows about
// the declarations that introduce them (which context owns them, their
// fields, variants and refinement bounds).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace herald::progen {

enum class Kind {
  Int,
  Float,
  Bool,
  String,
  Duration,
  Instant,
  Option,
  List,
  Map,
  Record,  // a record type, or an event
  Sum,
  Opaque,   // opaque String
  Refined,  // Int where low <= self <= high
};

struct Type;
using TypeP = std::shared_ptr<const Type>;

struct Field {
  std::string name;
  TypeP type;
};

struct Variant {
  std::string name;
  std::vector<Field> fields;
};

struct Type {
  Kind kind = Kind::Int;
  std::vector<TypeP> args;  // Option/List: [T]; Map: [K, V]
  // Declared types: the context that declares it and its name there.
  int context = -1;
  std::string name;
  std::vector<Field> fields;      // Record
  std::vector<Variant> variants;  // Sum
  long long low = 0, high = 0;    // Refined
  bool event = false;             // Record: an event
};

inline TypeP builtin(Kind k) {
  auto t = std::make_shared<Type>();
  t->kind = k;
  return t;
}

inline TypeP applied(Kind k, std::vector<TypeP> args) {
  auto t = std::make_shared<Type>();
  t->kind = k;
  t->args = std::move(args);
  return t;
}

// Two types are the same type (declared types by identity of declaration).
inline bool sameType(const Type& a, const Type& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Kind::Int:
    case Kind::Float:
    case Kind::Bool:
    case Kind::String:
    case Kind::Duration:
    case Kind::Instant:
      return true;
    case Kind::Option:
    case Kind::List:
    case Kind::Map:
      if (a.args.size() != b.args.size()) return false;
      for (std::size_t i = 0; i < a.args.size(); ++i)
        if (!sameType(*a.args[i], *b.args[i])) return false;
      return true;
    case Kind::Record:
    case Kind::Sum:
    case Kind::Opaque:
    case Kind::Refined:
      return a.context == b.context && a.name == b.name;
  }
  return false;
}

// A value of type `have` may stand where `want` is expected without a
// conversion the generator would have to spell: the same type, or a
// refinement of Int where an Int is expected.
inline bool fits(const Type& have, const Type& want) {
  if (sameType(have, want)) return true;
  return have.kind == Kind::Refined && want.kind == Kind::Int;
}

}  // namespace herald::progen
