// Emitters: each writes one part of a context as Herald source.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "bench/gen/model.h"
#include "bench/gen/rng.h"
#include "bench/gen/schema.h"
#include "bench/gen/text_writer.h"

namespace herald::bench {

// How a context is written: header form (the rest of the file) or block
// form (`context a.b { ... }`, several per file).
enum class ContextForm { Header, Block };

// emit_decls.cpp. The emitters of types and events also append them to
// `schema`, the context's declarations.
void emitCoreContext(TextWriter& w, std::vector<Decl>& schema);
void emitContextOpen(TextWriter& w, const Context& ctx,
                     const std::vector<Consume>& consumes, ContextForm form,
                     Rng& rng);
void emitContextClose(TextWriter& w, ContextForm form);
// Actors, the context's capability, its inbox agent and their types.
void emitContextPrelude(TextWriter& w, const Context& ctx, Rng& rng,
                        std::vector<Decl>& schema);
// Types, events and pure functions of one entity.
void emitEntityDecls(TextWriter& w, const Entity& entity, Rng& rng,
                     std::vector<Decl>& schema);

// emit_schema.cpp
void emitTypeDecl(TextWriter& w, const TypeDecl& decl);
void emitEventDecl(TextWriter& w, const EventDecl& decl);

// emit_agents.cpp
void emitInboxAgent(TextWriter& w, const Context& ctx);
void emitEntityAgent(TextWriter& w, const Context& ctx, const Entity& entity,
                     Rng& rng);

// emit_services.cpp
// Service names already used in the context being written.
using ServiceNames = std::set<std::string>;
// Subscribers of the core context's UserRegistered so far in the project:
// every context has some, and an event type takes at most
// kMaxSubscriptionsPerEvent (runtime D10), so past it the subscribers
// listen to consumed events instead and the welcome services stop.
inline constexpr int kMaxSubscriptionsPerEvent = 512;
struct RegisteredSubscribers {
  int count = 0;
  [[nodiscard]] bool full() const { return count >= kMaxSubscriptionsPerEvent; }
};
// Subscribers that react to events of consumed contexts by messaging the
// agent of `entity` and inboxes of the consumed contexts.
void emitSubscribers(TextWriter& w, const Context& ctx, const Entity& entity,
                     const std::vector<Consume>& consumes, Rng& rng,
                     ServiceNames& names, RegisteredSubscribers& registered);
// The welcome subscriber (to the core context's UserRegistered) and the
// host-facing desk service.
void emitContextServices(TextWriter& w, const Context& ctx, Rng& rng,
                         ServiceNames& names,
                         RegisteredSubscribers& registered);

// Small shared vocabularies.
const std::string& pickCurrency(Rng& rng);

}  // namespace herald::bench
