#include "ir/const_value.h"

#include <charconv>
#include <cstddef>
#include <string>

#include "frontend/ast.h"
#include "ir/program.h"

namespace herald::check {

namespace {

// The declared name of a nominal type, unqualified as in source; empty when
// the constant lost its type (never for values built by constantOf).
llvm::StringRef typeName(const Type* type) {
  if (type == nullptr) return {};
  switch (type->kind) {
    case TypeKind::Named:
      return type->named->name;
    case TypeKind::Event:
      return type->event->name;
    case TypeKind::Error:
    case TypeKind::Never:
    case TypeKind::Unit:
    case TypeKind::Int:
    case TypeKind::Float:
    case TypeKind::Bool:
    case TypeKind::String:
    case TypeKind::Instant:
    case TypeKind::Duration:
    case TypeKind::Envelope:
    case TypeKind::Option:
    case TypeKind::List:
    case TypeKind::Map:
    case TypeKind::Ref:
    case TypeKind::Capability:
    case TypeKind::Actor:
      return {};
  }
  return {};
}

void appendDouble(std::string& out, double value) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  if (ec != std::errc()) {
    out += "?";
    return;
  }
  std::string_view text(buf, static_cast<std::size_t>(end - buf));
  out += text;
  // A float stays recognisable next to an int: `1.0`, not `1`.
  if (text.find_first_of(".e") == std::string_view::npos &&
      text.find_first_of("0123456789") != std::string_view::npos)
    out += ".0";
}

void appendFields(std::string& out, const ConstValue& value) {
  for (std::size_t i = 0; i < value.children.size(); ++i) {
    if (i != 0) out += ", ";
    if (i < value.names.size() && !value.names[i].empty()) {
      out += value.names[i];
      out += ": ";
    }
    out += render(value.children[i]);
  }
}

void appendTo(std::string& out, const ConstValue& value) {
  switch (value.kind) {
    case ConstValue::Kind::Int:
      out += std::to_string(value.integer);
      return;
    case ConstValue::Kind::Float:
      appendDouble(out, value.real);
      return;
    case ConstValue::Kind::Bool:
      out += value.boolean ? "true" : "false";
      return;
    case ConstValue::Kind::String:
      out += '"';
      out += ast::escapeStringText(value.text);
      out += '"';
      return;
    case ConstValue::Kind::Unit:
      out += "()";
      return;
    case ConstValue::Kind::Duration:
      out += std::to_string(value.integer);
      out += "ms";
      return;
    case ConstValue::Kind::None:
      out += "None";
      return;
    case ConstValue::Kind::Some:
      out += "Some(";
      if (!value.children.empty()) appendTo(out, value.children[0]);
      out += ')';
      return;
    case ConstValue::Kind::Variant: {
      llvm::StringRef owner = typeName(value.type);
      if (!owner.empty()) {
        out += owner;
        out += '.';
      }
      out += value.variant;
      if (!value.children.empty()) {
        out += '(';
        appendFields(out, value);
        out += ')';
      }
      return;
    }
    case ConstValue::Kind::Record:
      out += typeName(value.type);
      if (value.children.empty()) {
        out += " {}";
        return;
      }
      out += " { ";
      appendFields(out, value);
      out += " }";
      return;
    case ConstValue::Kind::Opaque:
      // Refined values print like opaque ones, `Quantity(3)`, so the type a
      // constant carries is visible in the IR dump and in messages.
      out += typeName(value.type);
      out += '(';
      if (!value.children.empty()) appendTo(out, value.children[0]);
      out += ')';
      return;
    case ConstValue::Kind::List:
      out += '[';
      for (std::size_t i = 0; i < value.children.size(); ++i) {
        if (i != 0) out += ", ";
        appendTo(out, value.children[i]);
      }
      out += ']';
      return;
    case ConstValue::Kind::Map:
      if (value.children.empty()) {
        out += "[:]";
        return;
      }
      out += '[';
      for (std::size_t i = 0; i + 1 < value.children.size(); i += 2) {
        if (i != 0) out += ", ";
        appendTo(out, value.children[i]);
        out += ": ";
        appendTo(out, value.children[i + 1]);
      }
      out += ']';
      return;
  }
}

}  // namespace

std::string render(const ConstValue& value) {
  std::string out;
  appendTo(out, value);
  return out;
}

bool operator==(const ConstValue& a, const ConstValue& b) {
  if (a.kind != b.kind || a.type != b.type) return false;
  switch (a.kind) {
    case ConstValue::Kind::Int:
    case ConstValue::Kind::Duration:
      return a.integer == b.integer;
    case ConstValue::Kind::Float:
      return a.real == b.real;
    case ConstValue::Kind::Bool:
      return a.boolean == b.boolean;
    case ConstValue::Kind::String:
      return a.text == b.text;
    case ConstValue::Kind::Unit:
    case ConstValue::Kind::None:
      return true;
    case ConstValue::Kind::Variant:
      return a.variant == b.variant && a.names == b.names &&
             a.children == b.children;
    case ConstValue::Kind::Record:
      return a.names == b.names && a.children == b.children;
    case ConstValue::Kind::Some:
    case ConstValue::Kind::Opaque:
    case ConstValue::Kind::List:
    case ConstValue::Kind::Map:
      return a.children == b.children;
  }
  return false;
}

}  // namespace herald::check
