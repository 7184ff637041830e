// The schema part of a generated project: the types and events of each
// context, as data. The Herald emitters render these declarations in place,
// and the IDL writers (idl.h) render the same declarations as FlatBuffers,
// Protocol Buffers and Cap'n Proto schemas, so every format describes the
// same types with the same fields.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "bench/gen/rng.h"

namespace herald::bench {

struct Entity;

enum class Builtin { Int, Float, Bool, String, Instant };

// A field's or a base type: a built-in or a declared type, maybe optional.
struct TypeRef {
  std::optional<Builtin> builtin;  // empty: `named`
  std::string named;
  bool optional = false;

  static TypeRef of(Builtin b) { return {b, {}, false}; }
  static TypeRef decl(std::string name) { return {{}, std::move(name), false}; }
  static TypeRef option(TypeRef inner) {
    inner.optional = true;
    return inner;
  }
};

// A field default, structured so that each IDL can say it in its own syntax
// (or leave it out where it has no way to).
struct Default {
  enum class Kind {
    Number,   // `text` is an Int or Float literal
    Variant,  // `type`.`text`
    None,
    Some,    // Some(`text`), a number
    Record,  // `type` { `fields` }, each value a literal
  };
  Kind kind = Kind::Number;
  std::string type;
  std::string text;
  std::vector<std::pair<std::string, std::string>> fields;
};

struct Field {
  std::string name;
  TypeRef type;
  std::optional<Default> value;
  std::string comment;  // a trailing `--` comment in the Herald text
};

struct Variant {
  std::string name;
  std::vector<Field> fields;  // empty: a nullary variant
};

struct TypeDecl {
  enum class Kind {
    Opaque,   // opaque `base` [where `predicate`]
    Refined,  // `base` where `predicate`
    Alias,    // `base`
    Record,
    Sum,  // nullary variants only: an enumeration
  };
  Kind kind = Kind::Alias;
  std::string name;
  TypeRef base;
  std::string predicate;
  std::vector<Field> fields;
  std::vector<Variant> variants;
  bool inlined = true;  // written on one line in Herald
};

struct EventDecl {
  // Where `@schema(N)` stands in the Herald header.
  enum class Version { BeforeName, AfterName, Absent };
  std::string name;
  Version version = Version::Absent;
  int schema = 1;
  bool equals = true;  // `event E = {` rather than `event E {`
  std::vector<Field> fields;
};

struct Decl {
  std::optional<TypeDecl> type;  // exactly one of the two is set
  std::optional<EventDecl> event;
};

struct ContextSchema {
  std::string path;
  std::string file;    // the Herald file the context is written to
  bool block = false;  // block form: several contexts share `file`
  std::vector<Decl> decls;
};

struct Schema {
  std::vector<ContextSchema> contexts;
};

// The declarations of the project; the random choices are made in the same
// order as the Herald emitters always made them, so a seed keeps its
// project.
std::vector<TypeDecl> coreTypes();
EventDecl coreEvent();
TypeDecl channelType(const std::string& name);
TypeDecl inboxIdType(const std::string& name);
std::vector<TypeDecl> entityTypes(const Entity& entity, Rng& rng);
// The Opened, StatusChanged and Closed events of `entity`.
std::vector<EventDecl> entityEvents(const Entity& entity, Rng& rng);

}  // namespace herald::bench
