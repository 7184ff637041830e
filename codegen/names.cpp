#include "codegen/names.h"

#include <algorithm>
#include <iterator>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <llvm/Support/Casting.h>

namespace herald::codegen {

namespace {

// C++20 keywords and alternative tokens, plus names the generated code
// itself declares in every scope it writes to.
constexpr std::string_view kReserved[] = {
    "alignas",
    "alignof",
    "and",
    "and_eq",
    "asm",
    "auto",
    "bitand",
    "bitor",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "char16_t",
    "char32_t",
    "char8_t",
    "class",
    "co_await",
    "co_return",
    "co_yield",
    "compl",
    "concept",
    "const",
    "const_cast",
    "consteval",
    "constexpr",
    "constinit",
    "continue",
    "decltype",
    "default",
    "delete",
    "do",
    "double",
    "dynamic_cast",
    "else",
    "enum",
    "explicit",
    "export",
    "extern",
    "false",
    "float",
    "for",
    "friend",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "not",
    "not_eq",
    "nullptr",
    "operator",
    "or",
    "or_eq",
    "private",
    "protected",
    "public",
    "register",
    "reinterpret_cast",
    "requires",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "static_cast",
    "struct",
    "switch",
    "template",
    "this",
    "thread_local",
    "throw",
    "true",
    "try",
    "typedef",
    "typeid",
    "typename",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "wchar_t",
    "while",
    "xor",
    "xor_eq",
    // Names of the generated code: parameters and members it declares.
    "tx",
    "s",
    "rt",
    "herald",
    "std",
    "final",
    "override",
    "import",
    "module",
    "NULL",
    "assert",
    "errno",
};

bool reserved(llvm::StringRef name) {
  // `_X...` and anything with `__` are the implementation's.
  if (name.size() >= 2 && name[0] == '_' &&
      ((name[1] >= 'A' && name[1] <= 'Z') || name[1] == '_'))
    return true;
  bool upper = false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] >= 'A' && name[i] <= 'Z') upper = true;
    if (name[i] == '_' && i + 1 < name.size() && name[i + 1] == '_')
      return true;
  }
  // Of the reserved words only `NULL` has an upper-case letter, so most
  // type and field names need no look-up.
  if (upper && name != "NULL") return false;
  // Sorted once, so that a look-up is a binary search.
  static const std::vector<std::string_view> sorted = [] {
    std::vector<std::string_view> words(std::begin(kReserved),
                                        std::end(kReserved));
    std::sort(words.begin(), words.end());
    return words;
  }();
  return std::binary_search(sorted.begin(), sorted.end(),
                            std::string_view(name.data(), name.size()));
}

}  // namespace

std::vector<const check::CapabilityInfo*> passedCapabilities(
    const check::ServiceInfo* service, const check::HandlerInfo& handler) {
  std::vector<const check::CapabilityInfo*> out;
  if (service == nullptr || !service->subscription) return out;
  for (const check::CapabilityInfo* c : handler.capabilitiesUsed)
    if (c->firstParty == check::FirstParty::None) out.push_back(c);
  std::sort(out.begin(), out.end(),
            [](const check::CapabilityInfo* a, const check::CapabilityInfo* b) {
              return a->qualified < b->qualified;
            });
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string capabilityParam(const check::ServiceInfo* service,
                            const check::HandlerInfo& handler,
                            const check::CapabilityInfo& cap) {
  std::vector<const check::CapabilityInfo*> passed =
      passedCapabilities(service, handler);
  if (std::find(passed.begin(), passed.end(), &cap) == passed.end()) return {};
  std::set<std::string> taken{"tx", "s"};
  for (const check::FieldInfo& p : handler.params)
    taken.insert(cppName(p.name));
  if (!handler.byBinder.empty()) taken.insert(cppName(handler.byBinder));
  std::string base = "cap_" + cppName(cap.name);
  std::string name = base;
  for (unsigned n = 2; taken.count(name) != 0; ++n)
    name = base + "_" + std::to_string(n);
  return name;
}

std::string cppName(llvm::StringRef name) {
  if (!reserved(name)) return name.str();
  std::string out;
  out.reserve(name.size() + 1);
  out.append(name.data(), name.size());
  out += '_';
  return out;
}

std::string cppStringLiteral(llvm::StringRef text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  for (char ch : text) {
    auto u = static_cast<unsigned char>(ch);
    switch (ch) {
      case '"':
        out += "\\\"";
        continue;
      case '\\':
        out += "\\\\";
        continue;
      case '\n':
        out += "\\n";
        continue;
      case '\t':
        out += "\\t";
        continue;
      case '\r':
        out += "\\r";
        continue;
      default:
        break;
    }
    // Octal escapes take at most three digits, so the next character is
    // never read as part of one (a hex escape would swallow it); bytes of
    // UTF-8 sequences are escaped too, so the literal's bytes do not depend
    // on the compiler's execution character set.
    if (u < 0x20 || u >= 0x7F)
      out += fmt::format("\\{:03o}", u);
    else
      out += ch;
  }
  return out + "\"";
}

std::string namespaceOf(const check::ContextInfo& ctx) {
  std::string out;
  llvm::StringRef rest = ctx.name;
  while (!rest.empty()) {
    auto [part, tail] = rest.split('.');
    if (!out.empty()) out += "::";
    out += cppName(part);
    rest = tail;
  }
  return out;
}

std::string fileStemOf(const check::ContextInfo& ctx) {
  std::string out = ctx.name;
  std::replace(out.begin(), out.end(), '.', '/');
  return out;
}

std::string Spelling::decl(const check::DeclInfo& decl) {
  if (decl.context == nullptr || decl.context == from_)
    return cppName(decl.name);
  used_.insert(decl.context->name);
  auto [it, added] = namespaces_.try_emplace(decl.context);
  if (added) it->second = "::" + namespaceOf(*decl.context) + "::";
  return it->second + cppName(decl.name);
}

std::string Spelling::result(const check::Type* t) {
  if (t == nullptr || t->kind == check::TypeKind::Unit ||
      t->kind == check::TypeKind::Never)
    return "void";
  return type(t);
}

std::string Spelling::type(const check::Type* t) {
  using check::TypeKind;
  switch (t->kind) {
    case TypeKind::Error:
    case TypeKind::Never:
    case TypeKind::Unit:
      useHeader("<herald/ops.hpp>");
      return "herald::Unit";
    case TypeKind::Int:
      useHeader("<cstdint>");
      return "std::int64_t";
    case TypeKind::Float:
      return "double";
    case TypeKind::Bool:
      return "bool";
    case TypeKind::String:
      useHeader("<string>");
      return "std::string";
    case TypeKind::Instant:
      useHeader("<herald/time.hpp>");
      return "herald::Instant";
    case TypeKind::Duration:
      useHeader("<herald/time.hpp>");
      return "herald::Duration";
    case TypeKind::Envelope:
      useHeader("<herald/envelope.hpp>");
      return "herald::EventEnvelope";
    case TypeKind::Option:
      useHeader("<optional>");
      return "std::optional<" + type(t->arg0) + ">";
    case TypeKind::List:
      useHeader("<vector>");
      return "std::vector<" + type(t->arg0) + ">";
    case TypeKind::Map:
      useHeader("<map>");
      return "std::map<" + type(t->arg0) + ", " + type(t->arg1) + ">";
    case TypeKind::Ref:
      return decl(*t->agent) + "::Ref";
    case TypeKind::Named:
      return decl(*t->named);
    case TypeKind::Event:
      return decl(*t->event);
    case TypeKind::Capability:
      return decl(*t->capability);
    case TypeKind::Actor:
      return decl(*t->actor);
  }
  return "herald::Unit";
}

bool reads(std::string_view code, std::string_view name) {
  return uses(code, name) != 0;
}

namespace {

// Calls `f` with each name `code` uses on its own (see uses()).
template <typename F>
void forEachName(std::string_view code, F f) {
  auto ident = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_';
  };
  std::size_t i = 0;
  while (i < code.size()) {
    char c = code[i];
    if (c == '"') {
      // Past the literal.
      for (++i; i < code.size() && code[i] != '"'; ++i)
        if (code[i] == '\\') ++i;
      ++i;
      continue;
    }
    if (!ident(c)) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < code.size() && ident(code[end])) ++end;
    bool member =
        i > 0 && (code[i - 1] == '.' || code[i - 1] == ':' ||
                  (code[i - 1] == '>' && i > 1 && code[i - 2] == '-'));
    if (!member) f(code.substr(i, end - i));
    i = end;
  }
}

}  // namespace

std::size_t uses(std::string_view code, std::string_view name) {
  std::size_t n = 0;
  forEachName(code, [&](std::string_view used) { n += used == name ? 1 : 0; });
  return n;
}

std::unordered_map<std::string_view, std::size_t> nameUses(
    std::string_view code) {
  std::unordered_map<std::string_view, std::size_t> counts;
  forEachName(code, [&](std::string_view used) { ++counts[used]; });
  return counts;
}

}  // namespace herald::codegen
