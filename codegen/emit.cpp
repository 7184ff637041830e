#include "codegen/emit.h"

#include <fmt/format.h>

namespace herald::codegen {

using check::Type;
using check::TypeKind;

Emitter::Emitter(const check::Program& p, const SourceManager& s,
                 const check::ContextInfo& c)
    : program(p),
      sources(s),
      context(c),
      header(c),
      source(c),
      bodies(p, source),
      ns_(namespaceOf(c)) {}

std::string Emitter::global(const check::DeclInfo& decl) const {
  return "::" + ns_ + "::" + cppName(decl.name);
}

std::string Emitter::paramType(Spelling& spelling, const Type* t) {
  std::string spelled = spelling.type(t);
  switch (t->kind) {
    case TypeKind::Int:
    case TypeKind::Float:
    case TypeKind::Bool:
    case TypeKind::Unit:
    case TypeKind::Duration:
    case TypeKind::Instant:
    case TypeKind::Never:
    case TypeKind::Error:
      return spelled;
    case TypeKind::Named:
      if (t->named->def == check::TypeDefKind::Sum && isEnumSum(*t->named))
        return spelled;
      break;
    case TypeKind::String:
    case TypeKind::Envelope:
    case TypeKind::Option:
    case TypeKind::List:
    case TypeKind::Map:
    case TypeKind::Ref:
    case TypeKind::Event:
    case TypeKind::Capability:
    case TypeKind::Actor:
      break;
  }
  return "const " + spelled + "&";
}

std::string Emitter::params(Spelling& spelling,
                            const std::vector<check::FieldInfo>& fields) {
  std::string out;
  for (const check::FieldInfo& f : fields) {
    if (!out.empty()) out += ", ";
    out += paramType(spelling, f.type) + " " + cppName(f.name);
  }
  return out;
}

std::string Emitter::params(Spelling& spelling,
                            const std::vector<check::FieldInfo>& fields,
                            std::string_view body) {
  std::string out;
  for (const check::FieldInfo& f : fields) {
    if (!out.empty()) out += ", ";
    out += param(paramType(spelling, f.type), cppName(f.name), body);
  }
  return out;
}

std::string param(const std::string& type, const std::string& name,
                  std::string_view body) {
  return (reads(body, name) ? "" : "[[maybe_unused]] ") + type + " " + name;
}

std::string prototype(const std::string& decl, const std::string& name,
                      std::string_view defs, std::size_t defined) {
  return (uses(defs, name) > defined ? "" : "[[maybe_unused]] ") + decl + ";\n";
}

std::string Emitter::args(const std::vector<check::FieldInfo>& fields) {
  std::string out;
  for (const check::FieldInfo& f : fields) {
    if (!out.empty()) out += ", ";
    out += cppName(f.name);
  }
  return out;
}

bool isEnumSum(const check::TypeInfo& type) {
  if (type.def != check::TypeDefKind::Sum) return false;
  for (const check::VariantInfo& v : type.variants)
    if (!v.fields.empty()) return false;
  return true;
}

bool isDeclared(const check::TypeInfo& type) {
  switch (type.def) {
    case check::TypeDefKind::Record:
    case check::TypeDefKind::Sum:
    case check::TypeDefKind::Opaque:
    case check::TypeDefKind::Refined:
      return true;
    case check::TypeDefKind::Alias:
      return false;
  }
  return false;
}

std::string indent(const std::string& text, unsigned n) {
  std::string out;
  bool start = true;
  for (char c : text) {
    if (start && c != '\n') out.append(n, ' ');
    out += c;
    start = c == '\n';
  }
  return out;
}

}  // namespace herald::codegen
