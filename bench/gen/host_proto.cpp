// The protobuf host unit: each event set through the generated setters and
// mutable_ accessors, SerializeAsString, ParseFromString, read through the
// getters.
#include <string>
#include <vector>

#include "bench/gen/host.h"
#include "bench/gen/idl_common.h"

namespace herald::bench {

namespace {

class ProtoHost {
 public:
  ProtoHost(const Schema& schema, TextWriter& w) : types_(schema), w_(w) {}

  void event(const EventDecl& event) {
    w_.line("void event{}(std::uint64_t& sum) {{", event.name);
    w_.indent();
    w_.line("{}{} in;", kPeerNamespace, event.name);
    sets("in.", event.fields);
    w_.line("const std::string bytes = in.SerializeAsString();");
    w_.line("{}{} out;", kPeerNamespace, event.name);
    w_.line("if (!out.ParseFromString(bytes)) {{");
    w_.line("  throw std::runtime_error(\"{}\");", event.name);
    w_.line("}}");
    w_.line("use(sum, static_cast<std::int64_t>(bytes.size()));");
    reads("out.", event.fields);
    w_.dedent();
    w_.line("}}");
    w_.blank();
  }

 private:
  std::string fresh(const char* prefix) {
    return prefix + std::to_string(++names_);
  }

  // `target` is "in." or "mN->".
  void sets(const std::string& target, const std::vector<Field>& fields) {
    for (const Field& field : fields) {
      const TypeRef type = types_.resolve(field.type);
      const TypeDecl* decl = types_.declOf(type);
      const std::string name = lowerSnake(field.name);
      if (decl == nullptr) {
        w_.line("{}set_{}({});", target, name, builtin(*type.builtin));
      } else if (decl->kind == TypeDecl::Kind::Record) {
        const std::string m = fresh("m");
        w_.line("auto* {} = {}mutable_{}();", m, target, name);
        sets(m + "->", decl->fields);
      } else if (isEnum(*decl)) {
        w_.line("{}set_{}({}{}_{});", target, name, kPeerNamespace,
                upperSnake(decl->name), upperSnake(decl->variants.back().name));
      } else {
        const Variant& variant = host::chosenVariant(*decl);
        const std::string m = fresh("m");
        w_.line("auto* {} = {}mutable_{}()->mutable_{}();", m, target, name,
                lowerSnake(variant.name));
        sets(m + "->", variant.fields);
      }
    }
  }

  static std::string builtin(Builtin builtin) {
    switch (builtin) {
      case Builtin::Int:
        return host::kInt;
      case Builtin::Float:
        return host::kFloat;
      case Builtin::Bool:
        return host::kBool;
      case Builtin::Instant:
        return host::kInstant;
      case Builtin::String:
        return host::kString;
    }
    return {};
  }

  // `source` is "out." or "rN.".
  void reads(const std::string& source, const std::vector<Field>& fields) {
    for (const Field& field : fields) {
      const TypeRef type = types_.resolve(field.type);
      const TypeDecl* decl = types_.declOf(type);
      const std::string name = lowerSnake(field.name);
      const std::string expr = source + name + "()";
      if (decl == nullptr) {
        const std::string value = *type.builtin == Builtin::String
                                      ? "std::string_view(" + expr + ")"
                                      : expr;
        if (type.optional) {
          w_.line("if ({}has_{}()) use(sum, {});", source, name, value);
        } else {
          w_.line("use(sum, {});", value);
        }
      } else if (decl->kind == TypeDecl::Kind::Record) {
        const std::string r = fresh("r");
        w_.line("{{");
        indented(w_, [&] {
          w_.line("const auto& {} = {};", r, expr);
          reads(r + ".", decl->fields);
        });
        w_.line("}}");
      } else if (isEnum(*decl)) {
        w_.line("use(sum, static_cast<std::int64_t>({}));", expr);
      } else {
        const std::string r = fresh("r");
        w_.line("{{");
        indented(w_, [&] {
          w_.line("const auto& {} = {};", r, expr);
          w_.line("use(sum, static_cast<std::int64_t>({}.value_case()));", r);
          for (const Variant& variant : decl->variants) {
            if (variant.fields.empty()) continue;
            const std::string member = lowerSnake(variant.name);
            w_.line("if ({}.has_{}()) {{", r, member);
            indented(w_, [&] {
              const std::string v = fresh("r");
              w_.line("const auto& {} = {}.{}();", v, r, member);
              reads(v + ".", variant.fields);
            });
            w_.line("}}");
          }
        });
        w_.line("}}");
      }
    }
  }

  TypeIndex types_;
  TextWriter& w_;
  int names_ = 0;
};

}  // namespace

SchemaFile protoHostFile(const Schema& schema, std::uint64_t seed) {
  SchemaFile file{"host.cpp", {}};
  TextWriter& w = file.text;
  w.line("// Host of the {}.", provenance(seed));
  w.line("#include <cstdint>");
  w.line("#include <stdexcept>");
  w.line("#include <string>");
  w.line("#include <string_view>");
  w.blank();
  w.line("#include \"schema.pb.h\"");
  w.blank();
  w.line("namespace {{");
  w.blank();
  host::writeUse(w);
  ProtoHost writer(schema, w);
  host::writeEvents(schema, w, [&](const EventDecl& e) { writer.event(e); });
  return file;
}

}  // namespace herald::bench
