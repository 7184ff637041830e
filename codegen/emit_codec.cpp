// JSON codecs (nlohmann::adl_serializer specialisations, written against
// herald/wire.hpp so that they instantiate none of nlohmann's templates),
// text forms (append_text) and herald::EventInfo, for every value type and
// event.
//
// Wire forms: a record or event is an object of its fields; an enum-class
// sum the variant's name; a sum with payloads an object with one member,
// the variant's name, holding an object of its fields; an opaque or refined
// value its base's form. Decoding ignores unknown members, fills an absent
// event field that has a default with the default, and validates
// refinements through `from_raw` and `from`.
#include <optional>
#include <set>
#include <vector>

#include <llvm/Support/Casting.h>

#include "codegen/emit.h"
#include "codegen/wire_bound.h"

namespace herald::codegen {

namespace {

using check::FieldInfo;
using check::TypeDefKind;
using check::TypeInfo;
using llvm::dyn_cast;

// The codec functions already emitted above, in definition order.
using Emitted = std::set<const check::DeclInfo*>;

// The declaration whose codec functions (`X_to_json`, `X_from_json`) a
// field of type `t` calls directly, or null: one of this context's value
// types or events, held directly (not in an Option, List or Map) and
// emitted above. A call through herald::wire::put and get instead
// instantiates put<T>, get<T> and Decode<T>::from for the type and reaches
// the same function through its adl_serializer member.
const check::DeclInfo* directCodec(const Emitter& e, const check::Type* t,
                                   const Emitted& emitted) {
  const check::DeclInfo* d = nullptr;
  if (t->kind == check::TypeKind::Named && isDeclared(*t->named))
    d = t->named;
  else if (t->kind == check::TypeKind::Event)
    d = t->event;
  if (d == nullptr || d->context != &e.context || !emitted.contains(d))
    return nullptr;
  return d;
}

// `T{.a = <a>, ...}` decoded from the object `j`.
std::string decodeFields(Emitter& e, const Emitted& emitted,
                         const std::string& type,
                         const std::vector<FieldInfo>& fields,
                         const std::string& j, bool defaults) {
  std::string out = type + "{";
  for (std::size_t k = 0; k < fields.size(); ++k) {
    const FieldInfo& f = fields[k];
    std::string key = cppStringLiteral(f.name);
    // An absent event field with a default takes the default.
    bool fallback = defaults && f.defaultBody.valid();
    std::string get;
    if (fallback) {
      get.append("herald::wire::contains(").append(j).append(", ");
      get.append(key).append(") ? ");
    }
    if (const check::DeclInfo* direct = directCodec(e, f.type, emitted))
      get.append(cppName(direct->name)).append("_from_json(");
    else
      get.append("herald::wire::get<")
          .append(e.source.type(f.type))
          .append(">(");
    get.append("herald::wire::at(").append(j).append(", ").append(key);
    get.append("))");
    if (fallback) get.append(" : ").append(e.bodies.expression(f.defaultBody));
    out.append(k == 0 ? "" : ", ").append(".").append(cppName(f.name));
    out.append(" = ").append(get);
  }
  return out + "}";
}

// Statements making `j` the object of `v`'s fields.
std::string encodeFields(const Emitter& e, const Emitted& emitted,
                         const std::vector<FieldInfo>& fields,
                         const std::string& j, const std::string& v) {
  std::string out = "  herald::wire::set_object(" + j + ");\n";
  for (const FieldInfo& f : fields) {
    if (const check::DeclInfo* direct = directCodec(e, f.type, emitted))
      out.append("  ").append(cppName(direct->name)).append("_to_json(");
    else
      out.append("  herald::wire::put(");
    out.append("herald::wire::member(").append(j).append(", ");
    out.append(cppStringLiteral(f.name)).append("), ").append(v).append(".");
    out.append(cppName(f.name)).append(");\n");
  }
  return out;
}

std::string textFields(const std::vector<FieldInfo>& fields,
                       const std::string& v, const std::string& open,
                       const std::string& close) {
  if (fields.empty()) return {};
  std::string out;
  for (std::size_t k = 0; k < fields.size(); ++k) {
    out += "  out += " +
           cppStringLiteral((k == 0 ? open : ", ") + fields[k].name + ": ") +
           ";\n  append_text(out, " + v + "." + cppName(fields[k].name) +
           ");\n";
  }
  return out + "  out += " + cppStringLiteral(close) + ";\n";
}

struct Codec {
  std::string encode;  // statements: `j` from `v`
  std::string decode;  // statements returning the value from `j`
  std::string text;    // statements: append `v` to `out`
};

Codec typeCodec(Emitter& e, const Emitted& emitted, const TypeInfo& t) {
  Codec c;
  std::string name = cppName(t.name);
  switch (t.def) {
    case TypeDefKind::Alias:
      break;
    case TypeDefKind::Record:
      c.encode = encodeFields(e, emitted, t.fields, "j", "v");
      c.decode = "  return " +
                 decodeFields(e, emitted, name, t.fields, "j", false) + ";\n";
      c.text = "  out += " + cppStringLiteral(t.name) + ";\n" +
               textFields(t.fields, "v", " { ", " }");
      break;
    case TypeDefKind::Sum:
      if (isEnumSum(t)) {
        c.encode = "  switch (v) {\n";
        c.text = "  switch (v) {\n";
        for (const check::VariantInfo& var : t.variants) {
          std::string alt = name + "::" + cppName(var.name);
          c.encode += "    case " + alt +
                      ":\n      herald::wire::set_text(j, " +
                      cppStringLiteral(var.name) + ");\n      return;\n";
          c.text += "    case " + alt +
                    ":\n      out += " + cppStringLiteral(var.name) +
                    ";\n      return;\n";
          c.decode += "  if (text == " + cppStringLiteral(var.name) +
                      ") return " + alt + ";\n";
        }
        c.encode += "  }\n";
        c.text += "  }\n";
        c.decode =
            "  const std::string& text = herald::wire::text(j);\n" + c.decode;
      } else {
        // Read by index (index(), get_if<K>), which instantiates less of
        // std::variant than reading by type.
        for (std::size_t k = 0; k < t.variants.size(); ++k) {
          const check::VariantInfo& var = t.variants[k];
          std::string alt = name + "::" + cppName(var.name);
          std::string index = std::to_string(k);
          // A variant without fields has no payload to read.
          std::string test =
              var.fields.empty()
                  ? "v.value.index() == " + index
                  : "const auto* p = std::get_if<" + index + ">(&v.value)";
          c.encode +=
              "  if (" + test +
              ") {\n    herald::wire::set_object(j);\n    "
              "herald::wire::Json& payload = herald::wire::member(j, " +
              cppStringLiteral(var.name) + ");\n" +
              indent(encodeFields(e, emitted, var.fields, "payload", "(*p)"),
                     2) +
              "    return;\n  }\n";
          // A variant without fields reads nothing of its payload.
          std::string payload =
              var.fields.empty()
                  ? std::string()
                  : "    const herald::wire::Json& p = herald::wire::at(j, " +
                        cppStringLiteral(var.name) + ");\n";
          c.decode.append("  if (herald::wire::contains(j, ");
          c.decode.append(cppStringLiteral(var.name)).append(")) {\n");
          c.decode.append(payload).append("    return ").append(name);
          c.decode.append("{")
              .append(decodeFields(e, emitted, alt, var.fields, "p", false))
              .append("};\n  }\n");
          c.text += "  if (" + test +
                    ") {\n    out += " + cppStringLiteral(var.name) + ";\n" +
                    indent(textFields(var.fields, "(*p)", "(", ")"), 2) +
                    "    return;\n  }\n";
        }
        e.source.useHeader("<variant>");
      }
      c.decode += "  throw std::invalid_argument(" +
                  cppStringLiteral("not a variant of " + t.qualified + ": ") +
                  " + herald::wire::dump(j));\n";
      e.source.useHeader("<stdexcept>");
      break;
    case TypeDefKind::Opaque:
      c.encode = "  herald::wire::put(j, v.raw());\n";
      c.decode = "  return " + name + "::from_raw(herald::wire::get<" +
                 e.source.type(t.base) + ">(j));\n";
      c.text = "  out += " + cppStringLiteral(t.name) + ";\n";
      break;
    case TypeDefKind::Refined:
      c.encode = "  herald::wire::put(j, v.value());\n";
      c.decode = "  return " + name + "::from(herald::wire::get<" +
                 e.source.type(t.base) + ">(j));\n";
      c.text = "  append_text(out, v.value());\n";
      break;
  }
  return c;
}

void emitCodec(Emitter& e, const check::DeclInfo& d, const Codec& c) {
  std::string name = cppName(d.name);
  std::string global = e.global(d);
  std::string serializer = "nlohmann::adl_serializer<" + global + ">";
  e.out.codecs += "template <>\nstruct " + serializer +
                  " {\n  static void to_json(nlohmann::json& j, const " +
                  global + "& v);\n  static " + global +
                  " from_json(const nlohmann::json& j);\n};\n\n";
  // The bodies live in the context's namespace, where its names resolve.
  e.out.privateDefs += "void " + name + "_to_json(nlohmann::json& j, const " +
                       name + "& v) {\n" + c.encode + "}\n\n" + name + " " +
                       name + "_from_json(const nlohmann::json& j) {\n" +
                       c.decode + "}\n\n";
  e.out.codecDefs +=
      "void " + serializer + "::to_json(nlohmann::json& j, const " + global +
      "& v) {\n  ::" + e.ns() + "::" + name + "_to_json(j, v);\n}\n\n" +
      global + " " + serializer +
      "::from_json(const nlohmann::json& j) {\n  return ::" + e.ns() +
      "::" + name + "_from_json(j);\n}\n\n";
  e.out.fns += "void append_text(std::string& out, const " + name + "& v);\n";
  e.out.publicDefs += "void append_text(std::string& out, " +
                      param("const " + name + "&", "v", c.text) +
                      ") {\n  using herald::append_text;\n" + c.text + "}\n\n";
}

// The byte functions of EventInfo (herald/bytes.hpp): declared in the
// specialisation, defined over a herald::wire::Document and the event's
// codec, so that a host encodes and decodes through two calls.
void emitBytes(Emitter& e, const check::EventInfo& ev) {
  std::string global = e.global(ev);
  std::string name = cppName(ev.name);
  std::string info = "herald::EventInfo<" + global + ">";
  e.header.useHeader("<string>");
  e.out.codecs += "  static std::string encode(const " + global +
                  "& event);\n  static " + global +
                  " decode(std::string_view bytes);\n";
  e.out.codecDefs +=
      "std::string " + info + "::encode(const " + global +
      "& event) {\n  herald::wire::Document doc;\n  ::" + e.ns() + "::" + name +
      "_to_json(doc.json(), event);\n  return doc.bytes(name);\n}\n\n" +
      global + " " + info +
      "::decode(std::string_view bytes) {\n  const herald::wire::Document "
      "doc(name, bytes);\n  try {\n    return ::" +
      e.ns() + "::" + name +
      "_from_json(doc.json());\n  } catch (...) {\n    "
      "herald::wire::Document::rethrow_decode_error(name);\n  }\n}\n\n";
}

}  // namespace

void emitCodecs(Emitter& e) {
  e.header.useHeader("<nlohmann/json_fwd.hpp>");
  e.header.useHeader("<string>");
  e.source.useHeader("<herald/text.hpp>");
  e.source.useHeader("<herald/wire.hpp>");
  bool any = false;
  // In definition order, so that a field's codec functions are defined
  // before its holder's, which call them.
  Emitted emitted;
  for (const check::DeclInfo* d : e.definitionOrder) {
    if (const auto* t = dyn_cast<TypeInfo>(d)) {
      emitCodec(e, *t, typeCodec(e, emitted, *t));
      emitted.insert(t);
      any = true;
    } else if (const auto* ev = dyn_cast<check::EventInfo>(d)) {
      Codec c;
      std::string name = cppName(ev->name);
      c.encode = encodeFields(e, emitted, ev->fields, "j", "v");
      c.decode = "  return " +
                 decodeFields(e, emitted, name, ev->fields, "j", true) + ";\n";
      c.text = "  out += " + cppStringLiteral(ev->name) + ";\n" +
               textFields(ev->fields, "v", " { ", " }");
      emitCodec(e, *ev, c);
      e.header.useHeader("<herald/event_info.hpp>");
      e.header.useHeader("<cstdint>");
      e.header.useHeader("<string_view>");
      e.out.codecs += "template <>\nstruct herald::EventInfo<" + e.global(*ev) +
                      "> {\n  static constexpr std::string_view owner = " +
                      cppStringLiteral(e.context.name) +
                      ";\n  static constexpr std::string_view name = " +
                      cppStringLiteral(ev->qualified) +
                      ";\n  static constexpr std::int64_t schema_version = " +
                      std::to_string(ev->schemaVersion) + ";\n";
      if (std::optional<std::size_t> bound = wireBound(*ev)) {
        e.header.useHeader("<cstddef>");
        e.out.codecs += "  static constexpr std::size_t max_encoded_bytes = " +
                        std::to_string(*bound) + ";\n";
      }
      emitBytes(e, *ev);
      e.out.codecs += "};\n\n";
      emitted.insert(ev);
      any = true;
    }
  }
  if (any) e.out.fns += "\n";
}

}  // namespace herald::codegen
