// Pass 1: contexts merged across files, their declarations by name, the
// members of agents and services, and the first-party capabilities.
#include <algorithm>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/Support/Casting.h>

#include "checker/names_util.h"
#include "checker/sema.h"

namespace herald::check {

namespace {

// Records `name` in `seen`; reports duplicate-member when it was there.
void noteMember(Sema& sema, FirstSeen& seen, llvm::StringRef what,
                const ast::Ident& name) {
  if (name.empty()) return;
  if (const SourceRange* first = seen.insert(name.name, name.range))
    reportDuplicateMember(sema, what, name.name, name.range, *first);
}

class Collector {
 public:
  explicit Collector(Sema& sema) : sema_(sema) {}

  void run() {
    llvm::SmallVector<const ast::File*, 8> files;
    for (const ast::File* f : sema_.files)
      if (f != nullptr) files.push_back(f);
    std::stable_sort(files.begin(), files.end(),
                     [](const ast::File* a, const ast::File* b) {
                       return a->file < b->file;
                     });
    for (const ast::File* f : files)
      for (const ast::ContextDecl* c : f->contexts) collectContext(c);
    std::sort(program().contexts.begin(), program().contexts.end(),
              [](const auto& a, const auto& b) { return a->name < b->name; });
    indexNames();
    addFirstParty();
  }

 private:
  Program& program() { return sema_.program; }

  void indexNames() {
    for (const auto& ctx : program().contexts)
      for (const auto& d : ctx->decls)
        if (ctx->lookup(d->name) == d.get())
          program().declsNamed[d->name].push_back(d.get());
    for (auto& entry : program().declsNamed)
      std::sort(entry.getValue().begin(), entry.getValue().end(),
                [](const DeclInfo* a, const DeclInfo* b) {
                  return a->qualified < b->qualified;
                });
  }

  ContextInfo* contextNamed(const ast::ContextDecl& c) {
    for (const ast::Ident& part : c.name.parts)
      if (part.empty()) return nullptr;
    if (c.name.parts.empty()) return nullptr;
    std::string name = joinName(c.name.parts);
    auto [it, inserted] = byName_.try_emplace(name, nullptr);
    if (inserted) {
      program().contexts.push_back(std::make_unique<ContextInfo>());
      it->second = program().contexts.back().get();
      it->second->name = std::move(name);
    }
    return it->second;
  }

  void collectContext(const ast::ContextDecl* c) {
    if (c == nullptr) return;
    ContextInfo* ctx = contextNamed(*c);
    // A context without a usable name reaches no declaration by name; the
    // parser has reported it.
    if (ctx == nullptr) return;
    ctx->parts.push_back(c);
    ctx->decls.reserve(ctx->decls.size() + c->decls.size());
    for (const ast::Decl* d : c->decls)
      if (d != nullptr) collectDecl(*ctx, *d);
  }

  template <typename Info>
  Info* add(ContextInfo& ctx, const ast::Decl& decl, const ast::Ident& name,
            bool inNamespace = true) {
    auto owned = std::make_unique<Info>();
    Info* info = owned.get();
    info->name = name.name.str();
    info->qualified = qualify(ctx.name, info->name);
    info->context = &ctx;
    info->decl = &decl;
    info->nameRange = name.range;
    ctx.decls.push_back(std::move(owned));
    if (inNamespace) {
      auto [it, inserted] = ctx.byName.try_emplace(name.name, info);
      if (!inserted)
        sema_.diags
            .report<diag::DuplicateDeclaration>(name.range, name.name, ctx.name)
            .note(it->second->nameRange, "first declared here");
    }
    return info;
  }

  void collectDecl(ContextInfo& ctx, const ast::Decl& d) {
    switch (d.kind) {
      case ast::DeclKind::Type: {
        const auto& t = llvm::cast<ast::TypeDecl>(d);
        if (t.name.empty()) return;
        auto* info = add<TypeInfo>(ctx, d, t.name);
        info->def = defKind(t);
        info->refinement = t.refinement;
        if (info->def != TypeDefKind::Alias)
          info->type = program().types.named(info);
        return;
      }
      case ast::DeclKind::Event: {
        const auto& e = llvm::cast<ast::EventDecl>(d);
        if (e.name.empty()) return;
        auto* info = add<EventInfo>(ctx, d, e.name);
        info->type = program().types.event(info);
        return;
      }
      case ast::DeclKind::Actor: {
        const auto& a = llvm::cast<ast::ActorDecl>(d);
        if (!a.name.empty()) add<ActorInfo>(ctx, d, a.name);
        return;
      }
      case ast::DeclKind::Capability: {
        const auto& c = llvm::cast<ast::CapabilityDecl>(d);
        if (c.name.empty()) return;
        auto* info = add<CapabilityInfo>(ctx, d, c.name);
        info->type = program().types.capability(info);
        return;
      }
      case ast::DeclKind::Fn: {
        const auto& f = llvm::cast<ast::FnDecl>(d);
        if (f.name.empty()) return;
        // `fn T.name` lives on T (attached once names resolve), not in the
        // context's namespace.
        const bool isStatic = !f.ownerType.empty();
        auto* info = add<FnInfo>(ctx, d, f.name, !isStatic);
        info->fn = &f;
        if (isStatic)
          info->qualified =
              qualify(qualify(ctx.name, f.ownerType.name), info->name);
        return;
      }
      case ast::DeclKind::Agent: {
        const auto& a = llvm::cast<ast::AgentDecl>(d);
        if (a.name.empty()) return;
        collectAgent(*add<AgentInfo>(ctx, d, a.name), a);
        return;
      }
      case ast::DeclKind::Service: {
        const auto& s = llvm::cast<ast::ServiceDecl>(d);
        if (s.name.empty()) return;
        collectService(*add<ServiceInfo>(ctx, d, s.name), s);
        return;
      }
      // `consumes` lines are the next pass's; members outside an agent or
      // service and Error nodes were reported by the parser.
      case ast::DeclKind::Consumes:
      case ast::DeclKind::Key:
      case ast::DeclKind::Store:
      case ast::DeclKind::Invariant:
      case ast::DeclKind::Handler:
      case ast::DeclKind::Error:
        return;
    }
  }

  static TypeDefKind defKind(const ast::TypeDecl& t) {
    switch (t.def) {
      case ast::TypeDefKind::Record:
        return TypeDefKind::Record;
      case ast::TypeDefKind::Sum:
        return TypeDefKind::Sum;
      case ast::TypeDefKind::Opaque:
        return TypeDefKind::Opaque;
      case ast::TypeDefKind::Alias:
        return t.refinement != nullptr ? TypeDefKind::Refined
                                       : TypeDefKind::Alias;
    }
    return TypeDefKind::Alias;
  }

  static std::unique_ptr<FnInfo> memberFn(const DeclInfo& owner,
                                          const ast::FnDecl& f) {
    auto fn = std::make_unique<FnInfo>();
    fn->name = f.name.name.str();
    fn->qualified = qualify(owner.qualified, fn->name);
    fn->context = owner.context;
    fn->decl = &f;
    fn->fn = &f;
    fn->nameRange = f.name.range;
    return fn;
  }

  static HandlerInfo handlerOf(const ast::HandlerDecl& h) {
    HandlerInfo info;
    info.name = h.name.name.str();
    info.isCall = h.isCall;
    info.decl = &h;
    info.nameRange = h.name.range;
    return info;
  }

  void collectAgent(AgentInfo& agent, const ast::AgentDecl& a) {
    // Key, stores and fns are all bare names in the agent's bodies, so
    // they share one namespace; handlers and invariants have their own.
    FirstSeen values;
    FirstSeen handlers;
    FirstSeen invariants;
    SourceRange firstKey;
    // Handlers and stores are large; fill each vector in one allocation.
    std::size_t counts[4] = {0, 0, 0, 0};
    for (const ast::Decl* m : a.members)
      if (m != nullptr) {
        counts[0] += m->kind == ast::DeclKind::Store ? 1 : 0;
        counts[1] += m->kind == ast::DeclKind::Invariant ? 1 : 0;
        counts[2] += m->kind == ast::DeclKind::Handler ? 1 : 0;
        counts[3] += m->kind == ast::DeclKind::Fn ? 1 : 0;
      }
    agent.stores.reserve(counts[0]);
    agent.invariants.reserve(counts[1]);
    agent.handlers.reserve(counts[2]);
    agent.fns.reserve(counts[3]);
    for (const ast::Decl* m : a.members) {
      if (m == nullptr) continue;
      switch (m->kind) {
        case ast::DeclKind::Key: {
          const auto& k = llvm::cast<ast::KeyDecl>(*m);
          if (k.name.empty()) break;
          if (agent.key) {
            reportDuplicateMember(sema_, "key of agent", agent.name,
                                  k.name.range, firstKey);
            break;
          }
          firstKey = k.name.range;
          noteMember(sema_, values, "key", k.name);
          FieldInfo key;
          key.name = k.name.name.str();
          key.range = k.range;
          key.nameRange = k.name.range;
          agent.key = std::move(key);
          break;
        }
        case ast::DeclKind::Store: {
          const auto& s = llvm::cast<ast::StoreDecl>(*m);
          if (s.name.empty()) break;
          noteMember(sema_, values, "store", s.name);
          StoreInfo store;
          store.field.name = s.name.name.str();
          store.field.range = s.range;
          store.field.nameRange = s.name.range;
          store.init = s.init;
          agent.stores.push_back(std::move(store));
          break;
        }
        case ast::DeclKind::Invariant: {
          const auto& inv = llvm::cast<ast::InvariantDecl>(*m);
          if (inv.name.empty()) break;
          noteMember(sema_, invariants, "invariant", inv.name);
          agent.invariants.push_back(
              {inv.name.name.str(), inv.condition, inv.name.range});
          break;
        }
        case ast::DeclKind::Handler: {
          const auto& h = llvm::cast<ast::HandlerDecl>(*m);
          if (h.name.empty()) break;
          noteMember(sema_, handlers, "handler", h.name);
          agent.handlers.push_back(handlerOf(h));
          break;
        }
        case ast::DeclKind::Fn: {
          const auto& f = llvm::cast<ast::FnDecl>(*m);
          if (f.name.empty()) break;
          noteMember(sema_, values, "function", f.name);
          auto fn = memberFn(agent, f);
          fn->agent = &agent;
          agent.fns.push_back(std::move(fn));
          break;
        }
        case ast::DeclKind::Consumes:
        case ast::DeclKind::Type:
        case ast::DeclKind::Event:
        case ast::DeclKind::Actor:
        case ast::DeclKind::Capability:
        case ast::DeclKind::Agent:
        case ast::DeclKind::Service:
        case ast::DeclKind::Error:
          break;
      }
    }
  }

  void collectService(ServiceInfo& service, const ast::ServiceDecl& s) {
    FirstSeen handlers;
    FirstSeen fns;
    std::size_t handlerCount = 0;
    for (const ast::Decl* m : s.members)
      handlerCount += m != nullptr && m->kind == ast::DeclKind::Handler ? 1 : 0;
    service.handlers.reserve(handlerCount);
    for (const ast::Decl* m : s.members) {
      if (m == nullptr) continue;
      switch (m->kind) {
        case ast::DeclKind::Handler: {
          const auto& h = llvm::cast<ast::HandlerDecl>(*m);
          if (h.name.empty()) break;
          // Several `on event` handlers break the Events service's shape,
          // which the subscription pass reports in its own words.
          if (h.name.name != "event")
            noteMember(sema_, handlers, "handler", h.name);
          service.handlers.push_back(handlerOf(h));
          break;
        }
        case ast::DeclKind::Fn: {
          const auto& f = llvm::cast<ast::FnDecl>(*m);
          if (f.name.empty()) break;
          noteMember(sema_, fns, "function", f.name);
          auto fn = memberFn(service, f);
          fn->service = &service;
          service.fns.push_back(std::move(fn));
          break;
        }
        case ast::DeclKind::Consumes:
        case ast::DeclKind::Type:
        case ast::DeclKind::Event:
        case ast::DeclKind::Actor:
        case ast::DeclKind::Capability:
        case ast::DeclKind::Agent:
        case ast::DeclKind::Key:
        case ast::DeclKind::Store:
        case ast::DeclKind::Invariant:
        case ast::DeclKind::Service:
        case ast::DeclKind::Error:
          break;
      }
    }
  }

  struct OpSpec {
    const char* name;
    std::initializer_list<std::pair<const char*, const Type*>> params;
    const Type* result;
  };

  void addCapability(FirstParty kind, const char* name,
                     std::initializer_list<OpSpec> ops) {
    auto cap = std::make_unique<CapabilityInfo>();
    cap->name = name;
    cap->qualified = name;
    cap->firstParty = kind;
    cap->type = program().types.capability(cap.get());
    for (const OpSpec& spec : ops) {
      CapabilityOp op;
      op.name = spec.name;
      for (const auto& [pname, ptype] : spec.params) {
        FieldInfo p;
        p.name = pname;
        p.type = ptype;
        op.sig.params.push_back(std::move(p));
      }
      op.sig.result = spec.result;
      cap->ops.push_back(std::move(op));
    }
    program().firstParty.push_back(std::move(cap));
  }

  void addFirstParty() {
    TypeTable& t = program().types;
    // `Events.emit` takes any event of the emitting context, which no
    // parameter type says: it lists none and is marked `anyEvent`.
    addCapability(FirstParty::Events, "Events", {{"emit", {}, t.unit()}});
    program().firstParty.back()->ops.front().anyEvent = true;
    addCapability(FirstParty::Clock, "Clock", {{"now", {}, t.instant()}});
    addCapability(FirstParty::Logger, "Logger",
                  {{"info", {{"message", t.string()}}, t.unit()},
                   {"warn", {{"message", t.string()}}, t.unit()},
                   {"error", {{"message", t.string()}}, t.unit()}});
    addCapability(
        FirstParty::Idempotency, "Idempotency",
        {{"seen", {{"key", t.string()}}, t.boolType()},
         {"remember", {{"key", t.string()}, {"ttl", t.duration()}}, t.unit()}});
    addCapability(
        FirstParty::Random, "Random",
        {{"int", {{"low", t.intType()}, {"high", t.intType()}}, t.intType()},
         {"uuid", {}, t.string()}});
  }

  Sema& sema_;
  llvm::StringMap<ContextInfo*> byName_;
};

}  // namespace

void collectDeclarations(Sema& sema) { Collector(sema).run(); }

}  // namespace herald::check
