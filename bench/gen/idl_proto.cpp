// The schema as Protocol Buffers (`protoc`, proto3): messages, enums and
// oneofs.
#include <string>

#include "bench/gen/idl.h"
#include "bench/gen/idl_common.h"

namespace herald::bench {

namespace {

class ProtoWriter {
 public:
  ProtoWriter(const Schema& schema, TextWriter& w) : types_(schema), w_(w) {}

  void decl(const TypeDecl& decl) {
    if (!isDeclared(decl)) return;
    if (decl.kind == TypeDecl::Kind::Record) {
      message(decl.name, decl.fields);
    } else if (isEnum(decl)) {
      // Enum values share the package's scope, hence the prefix; proto3
      // wants the first one to be zero.
      const std::string prefix = upperSnake(decl.name) + "_";
      w_.line("enum {} {{", decl.name);
      int number = 0;
      for (const Variant& variant : decl.variants) {
        w_.line("  {}{} = {};", prefix, upperSnake(variant.name), number++);
      }
      w_.line("}}");
      w_.blank();
    } else {
      w_.line("message {} {{", decl.name);
      for (const Variant& variant : decl.variants) {
        if (variant.fields.empty()) {
          w_.line("  message {} {{}}", variant.name);
          continue;
        }
        w_.line("  message {} {{", variant.name);
        w_.indent();
        fields(variant.fields);
        w_.dedent();
        w_.line("  }}");
      }
      w_.line("  oneof value {{");
      int number = 1;
      for (const Variant& variant : decl.variants) {
        w_.line("    {} {} = {};", variant.name, lowerSnake(variant.name),
                number++);
      }
      w_.line("  }}");
      w_.line("}}");
      w_.blank();
    }
  }

  void event(const EventDecl& event) { message(event.name, event.fields); }

 private:
  void message(const std::string& name, const std::vector<Field>& list) {
    w_.line("message {} {{", name);
    fields(list);
    w_.line("}}");
    w_.blank();
  }

  // proto3 has no defaults: a field's default is its type's zero.
  void fields(const std::vector<Field>& list) {
    int number = 1;
    for (const Field& field : list) {
      const TypeRef type = types_.resolve(field.type);
      const TypeDecl* decl = types_.declOf(type);
      w_.line("  {}{} {} = {};", type.optional ? "optional " : "",
              decl ? decl->name : builtinName(*type.builtin),
              lowerSnake(field.name), number++);
    }
  }

  static std::string builtinName(Builtin builtin) {
    switch (builtin) {
      case Builtin::Int:
      case Builtin::Instant:
        return "int64";
      case Builtin::Float:
        return "double";
      case Builtin::Bool:
        return "bool";
      case Builtin::String:
        return "string";
    }
    return "int64";
  }

  TypeIndex types_;
  TextWriter& w_;
};

}  // namespace

SchemaFiles protoFiles(const Schema& schema, std::uint64_t seed) {
  SchemaFiles files;
  files.push_back({"schema.proto", {}});
  TextWriter& w = files.back().text;
  w.line("// {}.", provenance(seed));
  w.line("syntax = \"proto3\";");
  w.line("package herald.bench;");
  w.blank();
  ProtoWriter writer(schema, w);
  writeContexts(schema, "//", writer, w);
  return files;
}

}  // namespace herald::bench
