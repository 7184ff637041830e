// How Herald names and types are spelled in the generated C++ (README.md,
// "Names" and "Types"). Shared by the declaration emitters and the body
// lowering, so a type is written the same way everywhere.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <llvm/ADT/StringRef.h>

#include "ir/program.h"

namespace herald::codegen {

// A Herald identifier as a C++ identifier: keywords and reserved names get a
// trailing underscore.
[[nodiscard]] std::string cppName(llvm::StringRef name);

// A C++ string literal of `text` (any bytes: quotes, backslashes and control
// characters escaped, bytes outside printable ASCII as octal escapes).
[[nodiscard]] std::string cppStringLiteral(llvm::StringRef text);

// How many times the generated C++ `code` names `name` on its own: not as
// a member (`.name`, `->name`), after `::` or inside a string literal.
// Parameters and locals have names unique in their function, so each such
// use reads the parameter or local of that name.
[[nodiscard]] std::size_t uses(std::string_view code, std::string_view name);
// The same count for every name `code` uses, in one pass over it (views
// into `code`).
[[nodiscard]] std::unordered_map<std::string_view, std::size_t> nameUses(
    std::string_view code);
[[nodiscard]] bool reads(std::string_view code, std::string_view name);

// `commerce.order` -> `commerce::order`.
[[nodiscard]] std::string namespaceOf(const check::ContextInfo& ctx);
// `commerce.order` -> `commerce/order` (add `.h` or `.cpp`).
[[nodiscard]] std::string fileStemOf(const check::ContextInfo& ctx);

// A subscription handler's user capabilities are resolved once, by the
// registration, and passed to its function: the parameter of `cap` is
// `cap_<Name>`, with `_2`, `_3` when the handler has a parameter or binder
// of that name. Empty for a first-party capability (the invocation's) and
// for a handler of an agent or a host-callable service, which reach their
// capabilities through the invocation. `service` is the handler's, null
// for an agent's.
[[nodiscard]] std::string capabilityParam(const check::ServiceInfo* service,
                                          const check::HandlerInfo& handler,
                                          const check::CapabilityInfo& cap);
// The user capabilities a subscription handler is passed, sorted by
// qualified name (empty for other handlers).
[[nodiscard]] std::vector<const check::CapabilityInfo*> passedCapabilities(
    const check::ServiceInfo* service, const check::HandlerInfo& handler);

// Spells types and declarations as seen from one context, and collects the
// other contexts whose headers what it spelled needs.
class Spelling {
 public:
  explicit Spelling(const check::ContextInfo& from) : from_(&from) {}

  // The C++ type of a value of `type` (`Unit` is `herald::Unit`).
  [[nodiscard]] std::string type(const check::Type* type);
  // Same, except that `()` is `void` (results of fns and handlers).
  [[nodiscard]] std::string result(const check::Type* type);
  // A context-level declaration: unqualified in its own context,
  // `::a::b::Name` elsewhere.
  [[nodiscard]] std::string decl(const check::DeclInfo& decl);

  [[nodiscard]] const check::ContextInfo& context() const { return *from_; }
  // Other contexts named so far, by name (sorted).
  [[nodiscard]] const std::set<std::string>& contextsUsed() const {
    return used_;
  }
  // Standard and runtime headers the spelled types need, sorted:
  // `<cstdint>`, `<herald/time.hpp>`, ...
  [[nodiscard]] const std::set<std::string>& headersUsed() const {
    return headers_;
  }
  void useHeader(std::string header) { headers_.insert(std::move(header)); }

 private:
  const check::ContextInfo* from_;
  std::set<std::string> used_;
  std::set<std::string> headers_;
  // `::a::b::` of each other context spelled so far.
  std::unordered_map<const check::ContextInfo*, std::string> namespaces_;
};

}  // namespace herald::codegen
