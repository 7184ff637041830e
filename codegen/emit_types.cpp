// Forward declarations, value types, actors, events and capabilities
// (sections 1 to 4), and the validating constructors of opaque and refined
// types.
#include <algorithm>
#include <set>
#include <unordered_map>
#include <vector>

#include <llvm/Support/Casting.h>

#include "codegen/emit.h"
#include "codegen/predicate.h"

namespace herald::codegen {

namespace {

using check::DeclInfo;
using check::FieldInfo;
using check::Type;
using check::TypeDefKind;
using check::TypeInfo;
using check::TypeKind;
using llvm::dyn_cast;

std::string comparisons(const std::string& name, unsigned n) {
  std::string pad(n, ' ');
  return pad + "friend bool operator==(const " + name + "&, const " + name +
         "&) = default;\n" + pad + "friend auto operator<=>(const " + name +
         "&, const " + name + "&) = default;\n";
}

std::string fields(Spelling& sp, const std::vector<FieldInfo>& fs, unsigned n) {
  std::string out;
  for (const FieldInfo& f : fs)
    out +=
        std::string(n, ' ') + sp.type(f.type) + " " + cppName(f.name) + ";\n";
  return out;
}

std::string staticFns(Emitter& e, const TypeInfo& t, unsigned n) {
  std::string out;
  for (const check::FnInfo* fn : t.staticFns)
    out += std::string(n, ' ') + "static " + e.header.result(fn->sig.result) +
           " " + cppName(fn->name) + "(" +
           Emitter::params(e.header, fn->sig.params) + ");\n";
  return out;
}

// The declarations of this context that `t` holds by value (through
// options, lists and maps too), so that they are defined before it.
void dependencies(const Type* t, const check::ContextInfo& ctx,
                  std::set<const DeclInfo*>& out, unsigned depth = 0) {
  if (t == nullptr || depth > 64) return;
  switch (t->kind) {
    case TypeKind::Option:
    case TypeKind::List:
    case TypeKind::Map:
      dependencies(t->arg0, ctx, out, depth + 1);
      dependencies(t->arg1, ctx, out, depth + 1);
      return;
    case TypeKind::Named:
      if (t->named->context == &ctx) out.insert(t->named);
      return;
    case TypeKind::Event:
      if (t->event->context == &ctx) out.insert(t->event);
      return;
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
    case TypeKind::Ref:
    case TypeKind::Capability:
    case TypeKind::Actor:
      return;
  }
}

std::set<const DeclInfo*> dependenciesOf(const DeclInfo& d,
                                         const check::ContextInfo& ctx) {
  std::set<const DeclInfo*> out;
  auto add = [&](const std::vector<FieldInfo>& fs) {
    for (const FieldInfo& f : fs) dependencies(f.type, ctx, out);
  };
  if (const auto* t = dyn_cast<TypeInfo>(&d)) {
    add(t->fields);
    for (const check::VariantInfo& v : t->variants) add(v.fields);
    dependencies(t->base, ctx, out);
  } else if (const auto* ev = dyn_cast<check::EventInfo>(&d)) {
    add(ev->fields);
  } else if (const auto* a = dyn_cast<check::ActorInfo>(&d)) {
    add(a->params);
  }
  out.erase(&d);  // a list of itself needs no order
  return out;
}

// Value types (rank 0), actors (1) and events (2) in that order and in
// declaration order within each, except that a declaration held by value
// comes before its holder.
std::vector<const DeclInfo*> typeOrder(const check::ContextInfo& ctx) {
  std::vector<const DeclInfo*> items;
  std::vector<int> ranks;
  for (const auto& d : ctx.decls) {
    if (const auto* t = dyn_cast<TypeInfo>(d.get())) {
      if (!isDeclared(*t)) continue;
      items.push_back(t);
      ranks.push_back(0);
    } else if (llvm::isa<check::ActorInfo>(d.get())) {
      items.push_back(d.get());
      ranks.push_back(1);
    } else if (llvm::isa<check::EventInfo>(d.get())) {
      items.push_back(d.get());
      ranks.push_back(2);
    }
  }
  // Each item's dependencies among the items, by index: one that is not an
  // item (another context's, or not a declared type) needs no order.
  std::unordered_map<const DeclInfo*, std::size_t> index;
  for (std::size_t i = 0; i < items.size(); ++i) index.emplace(items[i], i);
  std::vector<std::vector<std::size_t>> deps(items.size());
  for (std::size_t i = 0; i < items.size(); ++i)
    for (const DeclInfo* x : dependenciesOf(*items[i], ctx))
      if (auto it = index.find(x); it != index.end())
        deps[i].push_back(it->second);
  std::vector<const DeclInfo*> order;
  order.reserve(items.size());
  std::vector<bool> placed(items.size(), false);
  while (order.size() < items.size()) {
    std::size_t best = items.size();
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (placed[i]) continue;
      if (best != items.size() && ranks[i] >= ranks[best]) continue;
      bool ready = std::all_of(deps[i].begin(), deps[i].end(),
                               [&](std::size_t x) { return placed[x]; });
      if (ready) best = i;
    }
    // A cycle (which the checker rejects without indirection): keep
    // declaration order for what is left.
    if (best == items.size())
      for (std::size_t i = 0; i < items.size(); ++i)
        if (!placed[i] && (best == items.size() || ranks[i] < ranks[best]))
          best = i;
    placed[best] = true;
    order.push_back(items[best]);
  }
  return order;
}

// A sum with payloads: a constructor from each variant and the destructor
// are declared here and defined in the source (sumDefinitions), so that a
// unit that builds or destroys the sum, as a host does, calls them instead
// of compiling std::variant's construction and destruction; the default
// constructor (the first variant, as the aggregate's `S{}` was), copies
// and moves are defaulted here (compiled only where used). The
// constructors are not explicit, so that `S{S::V{...}}` and `.s =
// {S::V{...}}` build a sum as they built the aggregate.
std::string sumMembers(const TypeInfo& t, const std::string& name) {
  std::string out = "  " + name + "() = default;\n";
  out +=
      "  // From each variant; defined in the source, as is the destructor.\n";
  for (const check::VariantInfo& v : t.variants) {
    out.append("  ").append(name).append("(");
    out.append(cppName(v.name)).append(" v);\n");
  }
  out += "  ~" + name + "();\n  " + name + "(const " + name +
         "&) = default;\n  " + name + "(" + name + "&&) = default;\n  " + name +
         "& operator=(const " + name + "&) = default;\n  " + name +
         "& operator=(" + name + "&&) = default;\n";
  return out;
}

// Whether `T{}` compiles for the C++ type of `t`: false for opaque and
// refined types (no default constructor), for what holds one by value, and
// for the types a value field cannot have.
bool defaultConstructible(const Type* t, unsigned depth = 0);

bool fieldsDefaultConstructible(const std::vector<FieldInfo>& fs,
                                unsigned depth) {
  return std::all_of(fs.begin(), fs.end(), [&](const FieldInfo& f) {
    return defaultConstructible(f.type, depth + 1);
  });
}

bool defaultConstructible(const Type* t, unsigned depth) {
  if (t == nullptr || depth > 64) return false;
  switch (t->kind) {
    case TypeKind::Unit:
    case TypeKind::Int:
    case TypeKind::Float:
    case TypeKind::Bool:
    case TypeKind::String:
    case TypeKind::Instant:
    case TypeKind::Duration:
    case TypeKind::Option:
    case TypeKind::List:
    case TypeKind::Map:
      return true;
    case TypeKind::Event:
      return fieldsDefaultConstructible(t->event->fields, depth);
    case TypeKind::Named: {
      const auto* named = dyn_cast<TypeInfo>(t->named);
      if (named == nullptr) return false;
      switch (named->def) {
        case TypeDefKind::Alias:
          return defaultConstructible(named->base, depth + 1);
        case TypeDefKind::Record:
          return fieldsDefaultConstructible(named->fields, depth);
        case TypeDefKind::Sum:
          return isEnumSum(*named) ||
                 (!named->variants.empty() &&
                  fieldsDefaultConstructible(named->variants.front().fields,
                                             depth));
        case TypeDefKind::Opaque:
        case TypeDefKind::Refined:
          return false;
      }
      return false;
    }
    case TypeKind::Error:
    case TypeKind::Never:
    case TypeKind::Envelope:
    case TypeKind::Ref:
    case TypeKind::Capability:
    case TypeKind::Actor:
      return false;
  }
  return false;
}

// The definitions of sumMembers, in the source. When the first variant can
// be value-initialised, each constructor starts from the default variant and
// emplaces its own by index: std::variant's in-place constructor compiles a
// chain of eight or more base-class constructors per variant (libstdc++),
// emplace<K> a few small functions over the one default construction.
// Otherwise (an opaque or refined field in the first variant) the variant is
// built in place.
void sumDefinitions(Emitter& e, const TypeInfo& t) {
  if (t.def != TypeDefKind::Sum || isEnumSum(t)) return;
  std::string name = cppName(t.name);
  std::string& out = e.out.publicDefs;
  e.source.useHeader("<utility>");
  bool emplace = !t.variants.empty() &&
                 fieldsDefaultConstructible(t.variants.front().fields, 0);
  for (std::size_t k = 0; k < t.variants.size(); ++k) {
    std::string index = std::to_string(k);
    out.append(name).append("::").append(name).append("(");
    out.append(cppName(t.variants[k].name));
    if (emplace) {
      out.append(" v) { value.emplace<").append(index);
      out.append(">(std::move(v)); }\n");
    } else {
      out.append(" v) : value(std::in_place_index<").append(index);
      out.append(">, std::move(v)) {}\n");
    }
  }
  out.append(name).append("::~").append(name).append("() = default;\n\n");
}

void emitValueType(Emitter& e, const TypeInfo& t) {
  std::string name = cppName(t.name);
  Spelling& sp = e.header;
  std::string& out = e.out.values;
  switch (t.def) {
    case TypeDefKind::Alias:
      return;
    case TypeDefKind::Record:
      out += "struct " + name + " {\n" + fields(sp, t.fields, 2) +
             staticFns(e, t, 2) + comparisons(name, 2) + "};\n\n";
      return;
    case TypeDefKind::Sum: {
      if (isEnumSum(t)) {
        out += "enum class " + name + " {";
        for (std::size_t k = 0; k < t.variants.size(); ++k)
          out += std::string(k == 0 ? " " : ", ") + cppName(t.variants[k].name);
        out += " };\n\n";
        return;
      }
      sp.useHeader("<variant>");
      out += "struct " + name + " {\n";
      std::string alts;
      for (const check::VariantInfo& v : t.variants) {
        std::string vn = cppName(v.name);
        out += "  struct " + vn + " {\n" + fields(sp, v.fields, 4) +
               comparisons(vn, 4) + "  };\n";
        alts += (alts.empty() ? "" : ", ") + vn;
      }
      out += "  std::variant<" + alts + "> value;\n" + sumMembers(t, name) +
             staticFns(e, t, 2) + comparisons(name, 2) + "};\n\n";
      return;
    }
    case TypeDefKind::Opaque:
    case TypeDefKind::Refined: {
      bool opaque = t.def == TypeDefKind::Opaque;
      std::string base = sp.type(t.base);
      std::string member = opaque ? "raw" : "value";
      sp.useHeader("<utility>");
      out += "class " + name + " {\n public:\n";
      out +=
          "  // Throws herald::RefinementError when the value breaks the "
          "refinement.\n";
      out += "  static " + name + " " + (opaque ? "from_raw" : "from") + "(" +
             base + " " + member + ");\n";
      out += "  const " + base + "& " + member + "() const { return " + member +
             "_; }\n";
      out += staticFns(e, t, 2) + comparisons(name, 2);
      out += "\n private:\n  explicit " + name + "(" + base + " " + member +
             ") : " + member + "_(std::move(" + member + ")) {}\n  " + base +
             " " + member + "_;\n};\n\n";
      return;
    }
  }
}

// The validating constructor, in the source.
void emitConstructor(Emitter& e, const TypeInfo& t) {
  if (t.def != TypeDefKind::Opaque && t.def != TypeDefKind::Refined) return;
  bool opaque = t.def == TypeDefKind::Opaque;
  std::string name = cppName(t.name);
  std::string member = opaque ? "raw" : "value";
  std::string& out = e.out.publicDefs;
  out += name + " " + name + "::" + (opaque ? "from_raw" : "from") + "(" +
         e.source.type(t.base) + " " + member + ") {\n";
  std::string test = refinementTest(e.source, t, member);
  if (!test.empty()) {
    std::string text;
    bool space = false;
    for (char c : e.sources.textOf(t.refinement->range)) {
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        space = true;
        continue;
      }
      if (space && !text.empty()) text += ' ';
      space = false;
      text += c;
    }
    e.source.useHeader("<herald/errors.hpp>");
    e.source.useHeader("<herald/wire.hpp>");
    out += "  if (!(" + test + "))\n";
    out += "    throw herald::RefinementError(" +
           cppStringLiteral(t.qualified + ": ") +
           " + herald::wire::dump_value(" + member + ") + " +
           cppStringLiteral(" does not satisfy '" + text + "'") + ");\n";
  }
  out += "  return " + name + "(std::move(" + member + "));\n}\n\n";
}

std::string forwardOf(const DeclInfo& d) {
  std::string name = cppName(d.name);
  if (const auto* t = dyn_cast<TypeInfo>(&d)) {
    switch (t->def) {
      case TypeDefKind::Alias:
        return {};
      case TypeDefKind::Record:
        return "struct " + name + ";\n";
      case TypeDefKind::Sum:
        return isEnumSum(*t) ? "enum class " + name + ";\n"
                             : "struct " + name + ";\n";
      case TypeDefKind::Opaque:
      case TypeDefKind::Refined:
        return "class " + name + ";\n";
    }
  }
  switch (d.kind) {
    case check::DeclInfoKind::Event:
    case check::DeclInfoKind::Actor:
      return "struct " + name + ";\n";
    case check::DeclInfoKind::Capability:
    case check::DeclInfoKind::Agent:
      return "class " + name + ";\n";
    case check::DeclInfoKind::Service: {
      const auto& s = llvm::cast<check::ServiceInfo>(d);
      return s.subscription ? std::string() : "class " + name + ";\n";
    }
    case check::DeclInfoKind::Type:
    case check::DeclInfoKind::Fn:
      break;
  }
  return {};
}

}  // namespace

void emitTypes(Emitter& e) {
  for (const auto& d : e.context.decls) e.out.forward += forwardOf(*d);
  e.definitionOrder = typeOrder(e.context);
  for (const DeclInfo* d : e.definitionOrder) {
    std::string name = cppName(d->name);
    if (const auto* t = dyn_cast<TypeInfo>(d)) {
      emitValueType(e, *t);
      emitConstructor(e, *t);
      sumDefinitions(e, *t);
    } else if (const auto* a = dyn_cast<check::ActorInfo>(d)) {
      e.out.actorsEvents +=
          "struct " + name + " {\n" + fields(e.header, a->params, 2) + "};\n\n";
    } else if (const auto* ev = dyn_cast<check::EventInfo>(d)) {
      e.out.actorsEvents += "struct " + name + " {\n" +
                            fields(e.header, ev->fields, 2) +
                            comparisons(name, 2) + "};\n\n";
    }
  }
  for (const auto& d : e.context.decls) {
    const auto* cap = dyn_cast<check::CapabilityInfo>(d.get());
    if (cap == nullptr) continue;
    std::string name = cppName(cap->name);
    std::string& out = e.out.capabilities;
    out.append("// Implemented by the host.\nclass ").append(name);
    out.append(" {\n public:\n  virtual ~").append(name);
    out.append("() = default;\n");
    for (const check::CapabilityOp& op : cap->ops) {
      out.append("  virtual ").append(e.header.result(op.sig.result));
      out.append(" ").append(cppName(op.name)).append("(");
      out.append(Emitter::params(e.header, op.sig.params)).append(") = 0;\n");
    }
    out += "};\n\n";
  }
}

}  // namespace herald::codegen
