// The schema as Cap'n Proto (`capnp compile`): structs, enums and unions.
#include <string>

#include <fmt/format.h>

#include "bench/gen/idl.h"
#include "bench/gen/idl_common.h"

namespace herald::bench {

namespace {

class CapnpWriter {
 public:
  CapnpWriter(const Schema& schema, TextWriter& w) : types_(schema), w_(w) {}

  void decl(const TypeDecl& decl) {
    if (!isDeclared(decl)) return;
    if (decl.kind == TypeDecl::Kind::Record) {
      structure(decl.name, decl.fields);
    } else if (isEnum(decl)) {
      w_.line("enum {} {{", decl.name);
      int ordinal = 0;
      for (const Variant& variant : decl.variants) {
        w_.line("  {} @{};", lowerFirst(variant.name), ordinal++);
      }
      w_.line("}}");
      w_.blank();
    } else {
      // A nullary variant is a Void member, one with fields a group.
      w_.line("struct {} {{", decl.name);
      w_.line("  union {{");
      int ordinal = 0;
      for (const Variant& variant : decl.variants) {
        if (variant.fields.empty()) {
          w_.line("    {} @{} :Void;", lowerFirst(variant.name), ordinal++);
          continue;
        }
        w_.line("    {} :group {{", lowerFirst(variant.name));
        w_.indent();
        w_.indent();
        for (const Field& field : variant.fields) this->field(field, ordinal);
        w_.dedent();
        w_.dedent();
        w_.line("    }}");
      }
      w_.line("  }}");
      w_.line("}}");
      w_.blank();
    }
  }

  void event(const EventDecl& event) { structure(event.name, event.fields); }

 private:
  void structure(const std::string& name, const std::vector<Field>& fields) {
    w_.line("struct {} {{", name);
    int ordinal = 0;
    for (const Field& field : fields) this->field(field, ordinal);
    w_.line("}}");
    w_.blank();
  }

  void field(const Field& field, int& ordinal) {
    const TypeRef type = types_.resolve(field.type);
    const TypeDecl* decl = types_.declOf(type);
    const std::string name = decl ? decl->name : builtinName(*type.builtin);
    const bool pointer =
        decl ? !isEnum(*decl) : *type.builtin == Builtin::String;
    // A pointer field may be null; a scalar that may be absent needs a
    // union with a Void member.
    if (type.optional && !pointer) {
      const int none = ordinal++;
      const int some = ordinal++;
      w_.line("  {} :union {{ none @{} :Void; some @{} :{}; }}", field.name,
              none, some, name);
      return;
    }
    const std::string value =
        field.value && !type.optional ? defaultText(*field.value, decl) : "";
    w_.line("  {} @{} :{}{};", field.name, ordinal++, name, value);
  }

  static std::string defaultText(const Default& value, const TypeDecl* decl) {
    switch (value.kind) {
      case Default::Kind::Number:
        return " = " + value.text;
      case Default::Kind::Variant:
        if (decl && !isEnum(*decl)) {
          return " = (" + lowerFirst(value.text) + " = void)";
        }
        return " = " + lowerFirst(value.text);
      case Default::Kind::Record: {
        std::string text = " = (";
        for (std::size_t i = 0; i < value.fields.size(); ++i) {
          if (i > 0) text += ", ";
          text += value.fields[i].first + " = " + value.fields[i].second;
        }
        return text + ")";
      }
      case Default::Kind::None:
      case Default::Kind::Some:
        return "";
    }
    return "";
  }

  static std::string builtinName(Builtin builtin) {
    switch (builtin) {
      case Builtin::Int:
      case Builtin::Instant:
        return "Int64";
      case Builtin::Float:
        return "Float64";
      case Builtin::Bool:
        return "Bool";
      case Builtin::String:
        return "Text";
    }
    return "Int64";
  }

  TypeIndex types_;
  TextWriter& w_;
};

// Cap'n Proto wants a 64-bit file id with the top bit set; it follows from
// the seed so that the same seed gives the same file.
std::uint64_t fileId(std::uint64_t seed) {
  Rng rng(seed);
  return rng.next() | (std::uint64_t{1} << 63);
}

}  // namespace

SchemaFiles capnpFiles(const Schema& schema, std::uint64_t seed) {
  SchemaFiles files;
  files.push_back({"schema.capnp", {}});
  TextWriter& w = files.back().text;
  w.line("# {}.", provenance(seed));
  w.line("@0x{:016x};", fileId(seed));
  w.blank();
  CapnpWriter writer(schema, w);
  writeContexts(schema, "#", writer, w);
  return files;
}

}  // namespace herald::bench
