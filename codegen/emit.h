// The declaration emitters: what one context's header and source hold,
// section by section (README.md, "Sections of a header"). codegen.cpp
// assembles the sections, the includes and the banner.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "codegen/lower_body.h"
#include "codegen/names.h"
#include "frontend/source.h"
#include "ir/program.h"

namespace herald::codegen {

struct ContextOutput {
  // Header sections, in README order.
  std::string forward;
  std::string values;
  std::string actorsEvents;
  std::string capabilities;
  std::string codecs;  // outside the context's namespace
  std::string fns;
  std::string agents;
  std::string services;
  std::string registration;
  std::string refCodecs;  // agents' Ref codecs, after the agents
  // Source parts: the anonymous namespace's prototypes, then its
  // definitions, then the context namespace's definitions, then the codec
  // definitions outside any namespace.
  std::string privateDecls;
  std::string privateDefs;
  std::string publicDefs;
  std::string codecDefs;
};

class Emitter {
 public:
  Emitter(const check::Program& program, const SourceManager& sources,
          const check::ContextInfo& context);

  const check::Program& program;
  const SourceManager& sources;
  const check::ContextInfo& context;
  Spelling header;  // what the header's declarations spell
  Spelling source;  // what the source's definitions and bodies spell
  BodyLowering bodies;
  ContextOutput out;
  // The context's value types, actors and events in the order their
  // definitions are emitted (a declaration held by value before its holder);
  // set by emitTypes.
  std::vector<const check::DeclInfo*> definitionOrder;

  // `commerce::order`
  [[nodiscard]] const std::string& ns() const { return ns_; }
  // `::commerce::order::Name` of one of the context's declarations, for
  // code outside its namespace.
  [[nodiscard]] std::string global(const check::DeclInfo& decl) const;

  // A parameter's C++ type: by value for scalars and enum classes,
  // `const T&` otherwise.
  [[nodiscard]] static std::string paramType(Spelling& spelling,
                                             const check::Type* type);
  // `const T& name, ...` for a parameter list of a declaration.
  [[nodiscard]] static std::string params(
      Spelling& spelling, const std::vector<check::FieldInfo>& fields);
  // The same for a definition whose body is `body`: a parameter the body
  // does not read is `[[maybe_unused]]`.
  [[nodiscard]] static std::string params(
      Spelling& spelling, const std::vector<check::FieldInfo>& fields,
      std::string_view body);
  // `name, name`.
  [[nodiscard]] static std::string args(
      const std::vector<check::FieldInfo>& fields);

 private:
  std::string ns_;
};

// `type name`, `[[maybe_unused]]` when `body` does not read `name`.
[[nodiscard]] std::string param(const std::string& type,
                                const std::string& name, std::string_view body);
// The prototype `decl;` of a function of the source's anonymous namespace,
// `[[maybe_unused]]` when `defs` (where its definition and every call of it
// are) names it only `defined` times: no body calls it.
[[nodiscard]] std::string prototype(const std::string& decl,
                                    const std::string& name,
                                    std::string_view defs, std::size_t defined);

[[nodiscard]] bool isEnumSum(const check::TypeInfo& type);
// Nominal value types that get a C++ declaration (aliases do not).
[[nodiscard]] bool isDeclared(const check::TypeInfo& type);
// Indents every non-empty line of `text` by `n` spaces.
[[nodiscard]] std::string indent(const std::string& text, unsigned n);

// emit_types.cpp: forward declarations, value types, actors, events and
// capabilities; the validating constructors of opaque and refined types.
void emitTypes(Emitter& e);
// emit_codec.cpp: JSON codecs, text forms and EventInfo.
void emitCodecs(Emitter& e);
// emit_fns.cpp: context-level and static fns.
void emitFns(Emitter& e);
// emit_agents.cpp: agents, their fns, handlers, invariants and kinds.
void emitAgents(Emitter& e);
// emit_services.cpp: services (handlers, host-callable classes) and the
// context's registration.
void emitServices(Emitter& e);

}  // namespace herald::codegen
