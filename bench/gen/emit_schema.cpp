// Types and events in Herald, and the project that holds only them.
#include <string>
#include <vector>

#include "bench/gen/emit.h"
#include "bench/gen/idl.h"

namespace herald::bench {

namespace {

std::string builtinName(Builtin builtin) {
  switch (builtin) {
    case Builtin::Int:
      return "Int";
    case Builtin::Float:
      return "Float";
    case Builtin::Bool:
      return "Bool";
    case Builtin::String:
      return "String";
    case Builtin::Instant:
      return "Instant";
  }
  return "Int";
}

std::string typeText(const TypeRef& type) {
  std::string text = type.builtin ? builtinName(*type.builtin) : type.named;
  return type.optional ? "Option[" + text + "]" : text;
}

std::string defaultText(const Default& value) {
  switch (value.kind) {
    case Default::Kind::Number:
      return value.text;
    case Default::Kind::Variant:
      return value.type + "." + value.text;
    case Default::Kind::None:
      return "None";
    case Default::Kind::Some:
      return "Some(" + value.text + ")";
    case Default::Kind::Record: {
      std::string text = value.type + " { ";
      for (std::size_t i = 0; i < value.fields.size(); ++i) {
        if (i > 0) text += ", ";
        text += value.fields[i].first + ": " + value.fields[i].second;
      }
      return text + " }";
    }
  }
  return value.text;
}

std::string fieldText(const Field& field) {
  std::string text = field.name + ": " + typeText(field.type);
  if (field.value) text += " = " + defaultText(*field.value);
  return text;
}

std::string fieldList(const std::vector<Field>& fields) {
  std::string text;
  for (const Field& field : fields) {
    if (!text.empty()) text += ", ";
    text += fieldText(field);
  }
  return text;
}

// One field per line, each followed by a comma.
void fieldLines(TextWriter& w, const std::vector<Field>& fields) {
  for (const Field& field : fields) {
    if (field.comment.empty()) {
      w.line("  {},", fieldText(field));
    } else {
      w.line("  {},  -- {}", fieldText(field), field.comment);
    }
  }
}

std::string variantText(const Variant& variant) {
  if (variant.fields.empty()) return variant.name;
  return variant.name + "(" + fieldList(variant.fields) + ")";
}

}  // namespace

void emitTypeDecl(TextWriter& w, const TypeDecl& decl) {
  switch (decl.kind) {
    case TypeDecl::Kind::Opaque:
      if (decl.predicate.empty()) {
        w.line("type {} = opaque {}", decl.name, typeText(decl.base));
      } else {
        w.line("type {} = opaque {} where {}", decl.name, typeText(decl.base),
               decl.predicate);
      }
      break;
    case TypeDecl::Kind::Refined:
      w.line("type {} = {} where {}", decl.name, typeText(decl.base),
             decl.predicate);
      break;
    case TypeDecl::Kind::Alias:
      w.line("type {} = {}", decl.name, typeText(decl.base));
      break;
    case TypeDecl::Kind::Record:
      if (decl.inlined) {
        w.line("type {} = {{ {} }}", decl.name, fieldList(decl.fields));
      } else {
        w.line("type {} = {{", decl.name);
        fieldLines(w, decl.fields);
        w.line("}}");
      }
      break;
    case TypeDecl::Kind::Sum:
      if (decl.inlined) {
        std::string variants;
        for (const Variant& variant : decl.variants) {
          variants += " | " + variantText(variant);
        }
        w.line("type {} ={}", decl.name, variants);
      } else {
        w.line("type {} =", decl.name);
        for (const Variant& variant : decl.variants) {
          w.line("  | {}", variantText(variant));
        }
      }
      break;
  }
}

void emitEventDecl(TextWriter& w, const EventDecl& decl) {
  const char* eq = decl.equals ? "= " : "";
  switch (decl.version) {
    case EventDecl::Version::BeforeName:
      w.line("@schema({}) event {} {}{{", decl.schema, decl.name, eq);
      break;
    case EventDecl::Version::AfterName:
      w.line("event {} @schema({}) {}{{", decl.name, decl.schema, eq);
      break;
    case EventDecl::Version::Absent:
      w.line("event {} {}{{", decl.name, eq);
      break;
  }
  fieldLines(w, decl.fields);
  w.line("}}");
}

SchemaFiles heraldSchemaFiles(const Schema& schema, std::uint64_t seed) {
  SchemaFiles files;
  for (const ContextSchema& ctx : schema.contexts) {
    if (files.empty() || files.back().path != ctx.file) {
      files.push_back({ctx.file, {}});
      files.back().text.line(
          "-- {}: types and events of a synthetic "
          "benchmark project (seed {}).",
          ctx.block ? "contexts in block form" : ctx.path, seed);
      files.back().text.blank();
    }
    TextWriter& w = files.back().text;
    if (ctx.block) {
      w.line("context {} {{", ctx.path);
      w.indent();
    } else {
      w.line("context {}", ctx.path);
    }
    if (ctx.path != kCorePath) {
      w.blank();
      w.line("consumes {}", kCorePath);
    }
    for (const Decl& decl : ctx.decls) {
      w.blank();
      if (decl.type) emitTypeDecl(w, *decl.type);
      if (decl.event) emitEventDecl(w, *decl.event);
    }
    if (ctx.block) {
      w.dedent();
      w.line("}}");
    }
    w.blank();
  }
  return files;
}

}  // namespace herald::bench
