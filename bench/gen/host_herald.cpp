// The Herald host unit: the generated types built as aggregates and
// factories (`from_raw`, `from`), herald::encode and herald::decode.
#include <string>
#include <unordered_map>

#include "bench/gen/host.h"
#include "bench/gen/idl_common.h"

namespace herald::bench {

namespace {

class HeraldHost {
 public:
  HeraldHost(const Schema& schema, TextWriter& w) : w_(w) {
    for (const ContextSchema& ctx : schema.contexts) {
      std::string ns = "::";
      for (char c : ctx.path) {
        if (c == '.') {
          ns += "::";
        } else {
          ns.push_back(c);
        }
      }
      for (const Decl& decl : ctx.decls) {
        if (decl.type) types_.emplace(decl.type->name, Named{&*decl.type, ns});
        if (decl.event) events_.emplace(decl.event->name, ns);
      }
    }
  }

  void event(const EventDecl& event) {
    const std::string type = events_.at(event.name) + "::" + event.name;
    w_.line("void event{}(std::uint64_t& sum) {{", event.name);
    w_.indent();
    w_.line("const {} in{{{}}};", type, fields(event.fields));
    w_.line("const std::string bytes = herald::encode(in);");
    w_.line("const {} out = herald::decode<{}>(bytes);", type, type);
    w_.line("use(sum, static_cast<std::int64_t>(bytes.size()));");
    for (const Field& field : event.fields)
      read("out." + field.name, field.type);
    w_.dedent();
    w_.line("}}");
    w_.blank();
  }

 private:
  struct Named {
    const TypeDecl* decl;
    std::string ns;
  };

  std::string qualified(const std::string& name) const {
    return types_.at(name).ns + "::" + name;
  }

  // `.a = <a>, .b = <b>`
  std::string fields(const std::vector<Field>& list) const {
    std::string out;
    for (const Field& field : list) {
      if (!out.empty()) out += ", ";
      out += "." + field.name + " = " + value(field.type);
    }
    return out;
  }

  std::string value(const TypeRef& type) const {
    if (type.builtin) {
      switch (*type.builtin) {
        case Builtin::Int:
          return host::kInt;
        case Builtin::Float:
          return host::kFloat;
        case Builtin::Bool:
          return host::kBool;
        case Builtin::String:
          return std::string("std::string(") + host::kString + ")";
        case Builtin::Instant:
          return std::string("herald::Instant(std::chrono::nanoseconds(") +
                 host::kInstant + "))";
      }
    }
    const TypeDecl& decl = *types_.at(type.named).decl;
    const std::string name = qualified(decl.name);
    switch (decl.kind) {
      case TypeDecl::Kind::Opaque:
        return name + "::from_raw(" + value(decl.base) + ")";
      case TypeDecl::Kind::Refined:
        return name + "::from(" + value(decl.base) + ")";
      case TypeDecl::Kind::Alias:
        return value(decl.base);
      case TypeDecl::Kind::Record:
        return name + "{" + fields(decl.fields) + "}";
      case TypeDecl::Kind::Sum: {
        if (isEnum(decl)) return name + "::" + decl.variants.back().name;
        const Variant& variant = host::chosenVariant(decl);
        return name + "{" + name + "::" + variant.name + "{" +
               fields(variant.fields) + "}}";
      }
    }
    return {};
  }

  void read(const std::string& expr, const TypeRef& type) {
    if (type.optional) {
      TypeRef inner = type;
      inner.optional = false;
      w_.line("if ({}) {{", expr);
      indented(w_, [&] { read("(*" + expr + ")", inner); });
      w_.line("}}");
      return;
    }
    if (type.builtin) {
      switch (*type.builtin) {
        case Builtin::Int:
        case Builtin::Float:
        case Builtin::Bool:
          w_.line("use(sum, {});", expr);
          return;
        case Builtin::String:
          w_.line("use(sum, std::string_view({}));", expr);
          return;
        case Builtin::Instant:
          w_.line(
              "use(sum, static_cast<std::int64_t>({}.time_since_epoch()."
              "count()));",
              expr);
          return;
      }
    }
    const TypeDecl& decl = *types_.at(type.named).decl;
    switch (decl.kind) {
      case TypeDecl::Kind::Opaque:
        read(expr + ".raw()", decl.base);
        return;
      case TypeDecl::Kind::Refined:
        read(expr + ".value()", decl.base);
        return;
      case TypeDecl::Kind::Alias:
        read(expr, decl.base);
        return;
      case TypeDecl::Kind::Record:
        for (const Field& field : decl.fields) {
          read(expr + "." + field.name, field.type);
        }
        return;
      case TypeDecl::Kind::Sum:
        if (isEnum(decl)) {
          w_.line("use(sum, static_cast<std::int64_t>({}));", expr);
          return;
        }
        w_.line("use(sum, static_cast<std::int64_t>({}.value.index()));", expr);
        for (const Variant& variant : decl.variants) {
          if (variant.fields.empty()) continue;
          const std::string p = "p" + std::to_string(++names_);
          w_.line("if (const auto* {} = std::get_if<{}::{}>(&{}.value)) {{", p,
                  qualified(decl.name), variant.name, expr);
          indented(w_, [&] {
            for (const Field& field : variant.fields) {
              read(p + "->" + field.name, field.type);
            }
          });
          w_.line("}}");
        }
        return;
    }
  }

  TextWriter& w_;
  std::unordered_map<std::string, Named> types_;
  std::unordered_map<std::string, std::string> events_;  // name -> namespace
  int names_ = 0;
};

}  // namespace

SchemaFile heraldHostFile(const Schema& schema, std::uint64_t seed) {
  SchemaFile file{"host.cpp", {}};
  TextWriter& w = file.text;
  w.line("// Host of the {}.", provenance(seed));
  w.line("#include <chrono>");
  w.line("#include <cstdint>");
  w.line("#include <string>");
  w.line("#include <string_view>");
  w.line("#include <variant>");
  w.blank();
  w.line("#include <herald/bytes.hpp>");
  w.blank();
  for (const ContextSchema& ctx : schema.contexts) {
    std::string path = ctx.path;
    for (char& c : path) {
      if (c == '.') c = '/';
    }
    w.line("#include \"{}.h\"", path);
  }
  w.blank();
  w.line("namespace {{");
  w.blank();
  host::writeUse(w);
  HeraldHost writer(schema, w);
  host::writeEvents(schema, w, [&](const EventDecl& e) { writer.event(e); });
  return file;
}

}  // namespace herald::bench
