// What the IDL writers share: the declared types by name, seen through
// opaque, refined and alias types, and name spellings.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "bench/gen/schema.h"
#include "bench/gen/text_writer.h"

namespace herald::bench {

class TypeIndex {
 public:
  explicit TypeIndex(const Schema& schema);

  // `type` with every opaque, refined or alias type replaced by its base,
  // so the result is a built-in or a record or sum; optional stays.
  [[nodiscard]] TypeRef resolve(const TypeRef& type) const;
  // The record or sum a resolved type names; null for a built-in.
  [[nodiscard]] const TypeDecl* declOf(const TypeRef& resolved) const;

 private:
  std::unordered_map<std::string, const TypeDecl*> byName_;
};

// A sum of nullary variants only, written as an enumeration.
[[nodiscard]] bool isEnum(const TypeDecl& decl);
// Both are written as a declaration of their own in every IDL.
[[nodiscard]] bool isDeclared(const TypeDecl& decl);

[[nodiscard]] std::string lowerFirst(std::string_view name);
// "Order2Priority" -> "ORDER2_PRIORITY".
[[nodiscard]] std::string upperSnake(std::string_view name);
// "order2Id" -> "order2_id": the field spelling FlatBuffers and Protocol
// Buffers ask for (flatc warns about every other one).
[[nodiscard]] std::string lowerSnake(std::string_view name);
// The C++ namespace of the peers' generated code, with its trailing `::`
// (the IDLs declare `herald.bench`).
inline const std::string kPeerNamespace = "herald::bench::";
// The first line of every written schema file.
[[nodiscard]] std::string provenance(std::uint64_t seed);

// Every context's types and events in declaration order through `writer`,
// each context after a comment line that starts with `comment`.
template <class Writer>
void writeContexts(const Schema& schema, std::string_view comment,
                   Writer& writer, TextWriter& w) {
  for (const ContextSchema& ctx : schema.contexts) {
    w.line("{} context {}", comment, ctx.path);
    w.blank();
    for (const Decl& decl : ctx.decls) {
      if (decl.type) writer.decl(*decl.type);
      if (decl.event) writer.event(*decl.event);
    }
  }
}

}  // namespace herald::bench
