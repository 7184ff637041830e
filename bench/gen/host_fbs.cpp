// The flatbuffers host unit: each event built bottom-up with
// FlatBufferBuilder (strings, tables and union members before the table
// that holds them), checked with a Verifier, read through GetRoot.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/gen/host.h"
#include "bench/gen/idl_common.h"

namespace herald::bench {

namespace {

class FbsHost {
 public:
  FbsHost(const Schema& schema, TextWriter& w) : types_(schema), w_(w) {}

  void event(const EventDecl& event) {
    w_.line("void event{}(std::uint64_t& sum) {{", event.name);
    w_.indent();
    w_.line("flatbuffers::FlatBufferBuilder fbb;");
    const std::string args = create(event.fields);
    w_.line("fbb.Finish({}Create{}(fbb{}));", kPeerNamespace, event.name, args);
    w_.line(
        "const std::string bytes(reinterpret_cast<const char*>("
        "fbb.GetBufferPointer()), fbb.GetSize());");
    w_.line(
        "flatbuffers::Verifier verifier(reinterpret_cast<const "
        "std::uint8_t*>(bytes.data()), bytes.size());");
    w_.line("if (!verifier.VerifyBuffer<{}{}>(nullptr)) {{", kPeerNamespace,
            event.name);
    w_.line("  throw std::runtime_error(\"{}\");", event.name);
    w_.line("}}");
    w_.line("const auto* out = flatbuffers::GetRoot<{}{}>(bytes.data());",
            kPeerNamespace, event.name);
    w_.line("use(sum, static_cast<std::int64_t>(bytes.size()));");
    reads("out", event.fields);
    w_.dedent();
    w_.line("}}");
    w_.blank();
  }

 private:
  std::string fresh(const char* prefix) {
    return prefix + std::to_string(++names_);
  }

  // The arguments after `fbb` of a Create function (each starting with
  // ", "), after the statements building what they refer to.
  std::string create(const std::vector<Field>& fields) {
    std::string args;
    for (const Field& field : fields) {
      const TypeRef type = types_.resolve(field.type);
      const TypeDecl* decl = types_.declOf(type);
      if (decl == nullptr) {
        args += ", " + builtin(*type.builtin);
      } else if (decl->kind == TypeDecl::Kind::Record) {
        const std::string nested = create(decl->fields);
        const std::string v = fresh("v");
        w_.line("const auto {} = {}Create{}(fbb{});", v, kPeerNamespace,
                decl->name, nested);
        args += ", " + v;
      } else if (isEnum(*decl)) {
        args += ", " + kPeerNamespace + decl->name + "_" +
                decl->variants.back().name;
      } else {
        const Variant& variant = host::chosenVariant(*decl);
        const std::string member = decl->name + variant.name;
        const std::string nested = create(variant.fields);
        const std::string v = fresh("v");
        w_.line("const auto {} = {}Create{}(fbb{}).Union();", v, kPeerNamespace,
                member, nested);
        args +=
            fmt::format(", {}{}_{}, {}", kPeerNamespace, decl->name, member, v);
      }
    }
    return args;
  }

  std::string builtin(Builtin builtin) {
    switch (builtin) {
      case Builtin::Int:
        return host::kInt;
      case Builtin::Float:
        return host::kFloat;
      case Builtin::Bool:
        return host::kBool;
      case Builtin::Instant:
        return host::kInstant;
      case Builtin::String: {
        std::string v = fresh("v");
        w_.line("const auto {} = fbb.CreateString({});", v, host::kString);
        return v;
      }
    }
    return {};
  }

  void reads(const std::string& table, const std::vector<Field>& fields) {
    for (const Field& field : fields) {
      const TypeRef type = types_.resolve(field.type);
      const TypeDecl* decl = types_.declOf(type);
      const std::string name = lowerSnake(field.name);
      const std::string expr = fmt::format("{}->{}()", table, name);
      if (decl == nullptr) {
        if (*type.builtin == Builtin::String) {
          w_.line("if ({} != nullptr) use(sum, {}->string_view());", expr,
                  expr);
        } else if (type.optional) {
          w_.line("if ({}) use(sum, *{});", expr, expr);
        } else {
          w_.line("use(sum, {});", expr);
        }
      } else if (decl->kind == TypeDecl::Kind::Record) {
        const std::string t = fresh("t");
        w_.line("if (const auto* {} = {}) {{", t, expr);
        indented(w_, [&] { reads(t, decl->fields); });
        w_.line("}}");
      } else if (isEnum(*decl)) {
        w_.line("use(sum, static_cast<std::int64_t>({}));", expr);
      } else {
        w_.line("use(sum, static_cast<std::int64_t>({}->{}_type()));", table,
                name);
        for (const Variant& variant : decl->variants) {
          if (variant.fields.empty()) continue;
          const std::string t = fresh("t");
          w_.line("if (const auto* {} = {}->{}_as_{}{}()) {{", t, table, name,
                  decl->name, variant.name);
          indented(w_, [&] { reads(t, variant.fields); });
          w_.line("}}");
        }
      }
    }
  }

  TypeIndex types_;
  TextWriter& w_;
  int names_ = 0;
};

}  // namespace

SchemaFile flatBuffersHostFile(const Schema& schema, std::uint64_t seed) {
  SchemaFile file{"host.cpp", {}};
  TextWriter& w = file.text;
  w.line("// Host of the {}.", provenance(seed));
  w.line("#include <cstdint>");
  w.line("#include <stdexcept>");
  w.line("#include <string>");
  w.line("#include <string_view>");
  w.blank();
  w.line("#include \"schema_generated.h\"");
  w.blank();
  w.line("namespace {{");
  w.blank();
  host::writeUse(w);
  FbsHost writer(schema, w);
  host::writeEvents(schema, w, [&](const EventDecl& e) { writer.event(e); });
  return file;
}

}  // namespace herald::bench
