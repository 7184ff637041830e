// Services (section 8) and the context's registration (section 9): the
// handler functions and service fns in the source, a class per
// host-callable service, and `context(...)`, which declares the owned
// events, the agents, the agent kinds of other contexts that handlers
// message, the user capabilities handlers use (the host's implementations,
// one parameter each, sorted by qualified name), the host services and
// every subscription with its compiled pattern and `via`.
#include <cctype>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include <llvm/Support/Casting.h>

#include "codegen/emit.h"
#include "codegen/predicate.h"

namespace herald::codegen {

namespace {

using check::HandlerInfo;
using check::ServiceInfo;
using llvm::dyn_cast;

std::string byName(const HandlerInfo& h) {
  return h.byBinder.empty() ? "actor" : cppName(h.byBinder);
}

void emitService(Emitter& e, const ServiceInfo& svc) {
  Spelling& sp = e.source;
  std::string name = cppName(svc.name);
  std::size_t decls = e.out.privateDecls.size();
  std::size_t defsAt = e.out.privateDefs.size();
  std::vector<std::pair<std::string, std::string>> fnDecls;  // decl, name
  for (const auto& fn : svc.fns) {
    std::string head =
        sp.result(fn->sig.result) + " " + name + "_" + cppName(fn->name) + "(";
    fnDecls.emplace_back(head + Emitter::params(sp, fn->sig.params) + ")",
                         name + "_" + cppName(fn->name));
    if (!fn->body.valid()) continue;
    std::string body = e.bodies.statements(fn->body, 2);
    e.out.privateDefs += head + Emitter::params(sp, fn->sig.params, body) +
                         ") {\n" + body + "}\n\n";
  }
  // Handler bodies use the transaction; herald/context.hpp only declares
  // it.
  if (!svc.handlers.empty()) sp.useHeader("<herald/invocation.hpp>");
  for (const HandlerInfo& h : svc.handlers) {
    std::string body =
        !h.body.valid() ? std::string() : e.bodies.statements(h.body, 2);
    // The declaration's parameters, then the definition's.
    auto signature = [&](const std::string* used) {
      auto one = [&](const std::string& type, const std::string& n) {
        return used != nullptr ? param(type, n, *used) : type + " " + n;
      };
      std::string ps = one("herald::Invocation&", "tx");
      for (const check::CapabilityInfo* c : passedCapabilities(&svc, h))
        ps += ", " + one(sp.decl(*c) + "&", capabilityParam(&svc, h, *c));
      if (h.by != nullptr && !h.byBinder.empty())
        ps += ", " + one("const " + sp.decl(*h.by) + "&", byName(h));
      std::string own = used != nullptr ? Emitter::params(sp, h.params, *used)
                                        : Emitter::params(sp, h.params);
      if (!own.empty()) ps += ", " + own;
      return sp.result(h.result) + " " + name + "_on_" + cppName(h.name) + "(" +
             ps + ")";
    };
    e.out.privateDecls += signature(nullptr) + ";\n";
    e.out.privateDefs += signature(&body) + " {\n" + body + "}\n\n";
  }
  // The service's fns are called from its own bodies only; a fn without a
  // body has no definition.
  std::string prototypes;
  std::string_view own(e.out.privateDefs);
  own.remove_prefix(defsAt);
  for (std::size_t k = 0; k < fnDecls.size(); ++k)
    prototypes += prototype(fnDecls[k].first, fnDecls[k].second, own,
                            svc.fns[k]->body.valid() ? 1 : 0);
  e.out.privateDecls.insert(decls, prototypes);
  if (svc.subscription) return;
  // A host-callable service.
  Spelling& hp = e.header;
  // The header holds a ServiceRef; the source runs the calls through it.
  hp.useHeader("<herald/service_ref.hpp>");
  sp.useHeader("<herald/service.hpp>");
  std::string& out = e.out.services;
  out += "class " + name + " {\n public:\n  static " + name +
         " in(herald::Runtime& rt);\n";
  // A handler's parameters: the actor presented, then its own; those of
  // the definition whose body is `body` when there is one.
  auto hostParams = [&](Spelling& s, const HandlerInfo& h,
                        const std::string* body) {
    std::string p;
    if (h.by != nullptr) {
      std::string type = "const " + s.decl(*h.by) + "&";
      p = body != nullptr ? param(type, byName(h), *body)
                          : type + " " + byName(h);
    }
    std::string own = body != nullptr ? Emitter::params(s, h.params, *body)
                                      : Emitter::params(s, h.params);
    if (!p.empty() && !own.empty()) p += ", ";
    return p + own;
  };
  for (const HandlerInfo& h : svc.handlers)
    out += "  " + hp.result(h.result) + " " + cppName(h.name) + "(" +
           hostParams(hp, h, nullptr) + ");\n";
  out += "\n private:\n  explicit " + name +
         "(herald::Runtime& rt);\n  herald::ServiceRef ref_;\n};\n\n";
  std::string& defs = e.out.publicDefs;
  defs += name + " " + name + "::in(herald::Runtime& rt) { return " + name +
          "(rt); }\n\n" + name + "::" + name +
          "(herald::Runtime& rt) : ref_(rt, " +
          cppStringLiteral(svc.qualified) + ") {}\n\n";
  for (const HandlerInfo& h : svc.handlers) {
    std::string args;
    if (h.by != nullptr && !h.byBinder.empty()) args = byName(h);
    std::string own = Emitter::args(h.params);
    if (!args.empty() && !own.empty()) args += ", ";
    args += own;
    std::string body = "  return ref_.call(" + cppStringLiteral(h.name) +
                       ", [&](herald::Invocation& tx) { return " + name +
                       "_on_" + cppName(h.name) + "(tx" +
                       (args.empty() ? "" : ", " + args) + "); });\n";
    defs += sp.result(h.result) + " " + name + "::" + cppName(h.name) + "(" +
            hostParams(sp, h, &body) + ") {\n" + body + "}\n\n";
  }
}

// Every handler of the context, agents' and services'.
std::vector<const HandlerInfo*> allHandlers(const check::ContextInfo& ctx) {
  std::vector<const HandlerInfo*> out;
  for (const auto& d : ctx.decls) {
    if (const auto* a = dyn_cast<check::AgentInfo>(d.get()))
      for (const HandlerInfo& h : a->handlers) out.push_back(&h);
    if (const auto* s = dyn_cast<ServiceInfo>(d.get()))
      for (const HandlerInfo& h : s->handlers) out.push_back(&h);
  }
  return out;
}

// `caps`: the registration's parameter of each user capability, by
// qualified name.
std::string subscription(Emitter& e, const ServiceInfo& svc,
                         const std::map<std::string, std::string>& caps) {
  const check::SubscriptionInfo& sub = *svc.subscription;
  if (sub.event == nullptr || svc.handlers.empty()) return {};
  Spelling& sp = e.source;
  const HandlerInfo& h = svc.handlers.front();
  std::string ev = sp.type(sub.event->type);
  std::string out = "  ctx.subscribe<" + ev +
                    ">({\n      .service = " + cppStringLiteral(svc.qualified) +
                    ",\n";
  if (sub.predicate.kind == check::Predicate::Kind::True)
    out += "      .pattern = {},\n";
  else
    out += "      .pattern = [](const " + ev + "& event) { return " +
           predicateTest(sp, sub.predicate, sub.event->type, "event") +
           "; },\n";
  if (sub.via && (sub.via->low || sub.via->high)) {
    out += "      .via = herald::via_schema(" +
           std::to_string(sub.via->low.value_or(1)) + ", ";
    if (sub.via->high) {
      out += std::to_string(*sub.via->high) + "),\n";
    } else {
      sp.useHeader("<optional>");
      out += "std::nullopt),\n";
    }
  } else {
    out += "      .via = {},\n";
  }
  bool env = h.params.size() > 1;
  // The capabilities are resolved here, once, rather than by name on every
  // delivery.
  std::string captures;
  std::string passed;
  for (const check::CapabilityInfo* c : passedCapabilities(&svc, h)) {
    const std::string& param = caps.at(c->qualified);
    captures += std::string(captures.empty() ? "" : ", ") + "&" + param;
    passed += ", " + param;
  }
  out += "      .handler =\n          [" + captures +
         "](herald::Invocation& tx, const " + ev + "& event, " +
         (env ? "" : "[[maybe_unused]] ") +
         "const herald::EventEnvelope& envelope) {\n            " +
         cppName(svc.name) + "_on_" + cppName(h.name) + "(tx" + passed +
         ", event" + (env ? ", envelope" : "") + ");\n          },\n  });\n";
  return out;
}

}  // namespace

void emitServices(Emitter& e) {
  for (const auto& d : e.context.decls)
    if (const auto* s = dyn_cast<ServiceInfo>(d.get())) emitService(e, *s);

  // The registration's parameters: the user capabilities handlers use.
  std::map<std::string, const check::CapabilityInfo*> caps;
  std::set<std::string> usedAgents;
  for (const HandlerInfo* h : allHandlers(e.context)) {
    for (const check::CapabilityInfo* c : h->capabilitiesUsed)
      if (c->firstParty == check::FirstParty::None) caps[c->qualified] = c;
    for (const check::CommitShape::Message& m : h->commit.sends)
      if (m.agent != nullptr && m.agent->context != &e.context)
        usedAgents.insert(m.agent->qualified);
  }
  std::string params;
  std::string registers;
  std::set<std::string> taken{"ctx"};
  std::map<std::string, std::string> capParams;
  for (const auto& [qualified, cap] : caps) {
    std::string p = cppName(cap->name);
    p[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(p[0])));
    std::string unique = p;
    for (unsigned n = 2; taken.count(unique) != 0; ++n)
      unique = p + "_" + std::to_string(n);
    taken.insert(unique);
    capParams[qualified] = unique;
    if (!params.empty()) params += ", ";
    params += e.header.decl(*cap) + "& " + unique;
    registers += "  ctx.capability<" + e.source.decl(*cap) + ">(" +
                 cppStringLiteral(qualified) + ", &" + unique + ");\n";
  }

  e.header.useHeader("<herald/context_fwd.hpp>");
  e.source.useHeader("<herald/context.hpp>");
  e.out.registration += "// The context's registration, for Runtime::install.";
  if (!caps.empty())
    e.out.registration +=
        " The host's\n// implementations of its capabilities must outlive the "
        "runtime.";
  e.out.registration += "\nherald::Context context(" + params + ");\n";

  std::string body =
      "  herald::Context ctx(" + cppStringLiteral(e.context.name) + ");\n";
  for (const auto& d : e.context.decls)
    if (const auto* ev = dyn_cast<check::EventInfo>(d.get()))
      body += "  ctx.owns<" + cppName(ev->name) + ">();\n";
  for (const auto& d : e.context.decls)
    if (const auto* a = dyn_cast<check::AgentInfo>(d.get()))
      body += "  ctx.agent(" + cppName(a->name) + "::kind());\n";
  for (const std::string& a : usedAgents)
    body += "  ctx.uses_agent(" + cppStringLiteral(a) + ");\n";
  body += registers;
  for (const auto& d : e.context.decls) {
    const auto* s = dyn_cast<ServiceInfo>(d.get());
    if (s == nullptr) continue;
    if (s->subscription)
      body += subscription(e, *s, capParams);
    else
      body += "  ctx.service(" + cppStringLiteral(s->qualified) + ");\n";
  }
  e.out.publicDefs += "herald::Context context(" + params + ") {\n" + body +
                      "  return ctx;\n}\n";
}

}  // namespace herald::codegen
