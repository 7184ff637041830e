#include "bench/gen/idl_common.h"

#include <cctype>

#include <fmt/format.h>

#include "bench/gen/idl.h"

namespace herald::bench {

std::optional<Format> parseFormat(std::string_view name) {
  if (name == "herald") return Format::Herald;
  if (name == "herald-schema") return Format::HeraldSchema;
  if (name == "fbs") return Format::FlatBuffers;
  if (name == "proto") return Format::Proto;
  if (name == "capnp") return Format::Capnp;
  return std::nullopt;
}

TypeIndex::TypeIndex(const Schema& schema) {
  for (const ContextSchema& ctx : schema.contexts) {
    for (const Decl& decl : ctx.decls) {
      if (decl.type) byName_.emplace(decl.type->name, &*decl.type);
    }
  }
}

TypeRef TypeIndex::resolve(const TypeRef& type) const {
  TypeRef current = type;
  while (!current.builtin) {
    const auto it = byName_.find(current.named);
    if (it == byName_.end() || isDeclared(*it->second)) break;
    const bool optional = current.optional;
    current = it->second->base;
    current.optional = current.optional || optional;
  }
  return current;
}

const TypeDecl* TypeIndex::declOf(const TypeRef& resolved) const {
  if (resolved.builtin) return nullptr;
  const auto it = byName_.find(resolved.named);
  return it == byName_.end() ? nullptr : it->second;
}

bool isEnum(const TypeDecl& decl) {
  if (decl.kind != TypeDecl::Kind::Sum) return false;
  for (const Variant& variant : decl.variants) {
    if (!variant.fields.empty()) return false;
  }
  return true;
}

bool isDeclared(const TypeDecl& decl) {
  switch (decl.kind) {
    case TypeDecl::Kind::Opaque:
    case TypeDecl::Kind::Refined:
    case TypeDecl::Kind::Alias:
      return false;
    case TypeDecl::Kind::Record:
    case TypeDecl::Kind::Sum:
      return true;
  }
  return true;
}

std::string lowerFirst(std::string_view name) {
  std::string text(name);
  if (!text.empty()) {
    text[0] =
        static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  }
  return text;
}

std::string upperSnake(std::string_view name) {
  std::string text;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    if (i > 0 && std::isupper(c)) text.push_back('_');
    text.push_back(static_cast<char>(std::toupper(c)));
  }
  return text;
}

std::string lowerSnake(std::string_view name) {
  std::string text = upperSnake(name);
  for (char& c : text) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return text;
}

std::string provenance(std::uint64_t seed) {
  return fmt::format(
      "types and events of a synthetic benchmark project (seed {})", seed);
}

}  // namespace herald::bench
