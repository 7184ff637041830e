// The schema as FlatBuffers (`flatc`): tables, enums and unions.
#include <string>

#include "bench/gen/idl.h"
#include "bench/gen/idl_common.h"

namespace herald::bench {

namespace {

class FbsWriter {
 public:
  FbsWriter(const Schema& schema, TextWriter& w) : types_(schema), w_(w) {}

  void decl(const TypeDecl& decl) {
    if (!isDeclared(decl)) return;
    if (decl.kind == TypeDecl::Kind::Record) {
      table(decl.name, decl.fields);
    } else if (isEnum(decl)) {
      std::string values;
      for (const Variant& variant : decl.variants) {
        if (!values.empty()) values += ", ";
        values += variant.name;
      }
      w_.line("enum {} : ubyte {{ {} }}", decl.name, values);
      w_.blank();
    } else {
      // A union's members are tables: one per variant, named after both
      // so that the variants of different sums do not collide.
      std::string members;
      for (const Variant& variant : decl.variants) {
        table(decl.name + variant.name, variant.fields);
        if (!members.empty()) members += ", ";
        members += decl.name + variant.name;
      }
      w_.line("union {} {{ {} }}", decl.name, members);
      w_.blank();
    }
  }

  void event(const EventDecl& event) { table(event.name, event.fields); }

 private:
  void table(const std::string& name, const std::vector<Field>& fields) {
    if (fields.empty()) {
      w_.line("table {} {{}}", name);
      w_.blank();
      return;
    }
    w_.line("table {} {{", name);
    for (const Field& field : fields) w_.line("  {};", fieldText(field));
    w_.line("}}");
    w_.blank();
  }

  std::string fieldText(const Field& field) const {
    const TypeRef type = types_.resolve(field.type);
    const TypeDecl* decl = types_.declOf(type);
    std::string text = lowerSnake(field.name) + ": " +
                       (decl ? decl->name : builtinName(*type.builtin));
    const bool scalar = decl ? isEnum(*decl) : *type.builtin != Builtin::String;
    // Tables, unions and strings may be absent anyway; a scalar needs
    // `= null` to be optional, and then has no other default.
    if (type.optional && scalar) return text + " = null";
    if (!field.value || !scalar) return text;
    switch (field.value->kind) {
      case Default::Kind::Number:
      case Default::Kind::Variant:
        return text + " = " + field.value->text;
      case Default::Kind::None:
      case Default::Kind::Some:
      case Default::Kind::Record:
        return text;
    }
    return text;
  }

  static std::string builtinName(Builtin builtin) {
    switch (builtin) {
      case Builtin::Int:
      case Builtin::Instant:
        return "long";
      case Builtin::Float:
        return "double";
      case Builtin::Bool:
        return "bool";
      case Builtin::String:
        return "string";
    }
    return "long";
  }

  TypeIndex types_;
  TextWriter& w_;
};

}  // namespace

SchemaFiles flatBuffersFiles(const Schema& schema, std::uint64_t seed) {
  SchemaFiles files;
  files.push_back({"schema.fbs", {}});
  TextWriter& w = files.back().text;
  w.line("// {}.", provenance(seed));
  w.line("namespace herald.bench;");
  w.blank();
  FbsWriter writer(schema, w);
  writeContexts(schema, "//", writer, w);
  return files;
}

}  // namespace herald::bench
