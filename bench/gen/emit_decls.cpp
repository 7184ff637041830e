// Contexts, consumes, types, events, actors, capabilities and pure
// functions.
#include <string>
#include <vector>

#include "bench/gen/emit.h"

namespace herald::bench {

const std::string& pickCurrency(Rng& rng) {
  static const std::vector<std::string> kCurrencies = {"EUR", "USD", "GBP",
                                                       "CHF", "JPY"};
  return rng.pick(kCurrencies);
}

void emitCoreContext(TextWriter& w, std::vector<Decl>& schema) {
  w.doc("Identities, money and regions shared by every other context.");
  w.line("context {}", kCorePath);
  w.blank();
  w.line("-- Who acts, and in which currency.");
  for (TypeDecl& type : coreTypes()) {
    emitTypeDecl(w, type);
    schema.push_back({std::move(type), std::nullopt});
  }
  w.blank();
  w.line("actor InternalCaller");
  w.line("actor Admin(identity: UserId)");
  w.blank();
  w.doc("The stable text key of a user, for building other identifiers.");
  w.line("fn userKey(u: UserId) -> String {{");
  w.line("  u.raw");
  w.line("}}");
  w.blank();
  w.line("fn UserId.fromText(text: String) -> UserId {{");
  w.line("  UserId(text)");
  w.line("}}");
  w.blank();
  w.line("fn money(cents: Int, currency: String) -> Money {{");
  w.line("  Money {{ cents: cents, currency: currency }}");
  w.line("}}");
  w.blank();
  w.line("fn regionOf(zone: String) -> Region {{");
  w.line("  if zone == \"home\" {{");
  w.line("    Region.Domestic");
  w.line("  }} else if zone == \"\" {{");
  w.line("    Region.International");
  w.line("  }} else {{");
  w.line("    Region.Offshore(zone: zone)");
  w.line("  }}");
  w.line("}}");
  w.blank();
  w.doc("A user signed up.");
  EventDecl event = coreEvent();
  emitEventDecl(w, event);
  schema.push_back({std::nullopt, std::move(event)});
  w.blank();
  w.line("agent User {{");
  w.line("  key id: UserId");
  w.line("  store email: Option[Email] = None");
  w.line("  store region: Region = Region.Domestic");
  w.line("  store registeredAt: Option[Timestamp] = None");
  w.line(
      "  invariant registeredHasEmail: registeredAt == None || email != None");
  w.blank();
  w.line(
      "  on register(address: String, zone: String) by InternalCaller given "
      "Events, Clock {{");
  w.line("    let mail = Email(address)");
  w.line("    email := Some(mail)");
  w.line("    region := regionOf(zone)");
  w.line("    registeredAt := Some(Clock.now)");
  w.line("    Events.emit(UserRegistered {{");
  w.line("      userId: id,");
  w.line("      email: mail,");
  w.line("      region: regionOf(zone),");
  w.line("      referrer: None,");
  w.line("      at: Clock.now,");
  w.line("    }})");
  w.line("  }}");
  w.blank();
  w.line("  on call describe() -> String by a: Admin {{");
  w.line("    \"user \\(id.raw) seen by \\(a.identity.raw)\"");
  w.line("  }}");
  w.line("}}");
}

void emitContextOpen(TextWriter& w, const Context& ctx,
                     const std::vector<Consume>& consumes, ContextForm form,
                     Rng& rng) {
  w.doc("The " + ctx.head + " side of " +
        ctx.path.substr(0, ctx.path.find('.')) +
        ", with the aggregates that grew around it.");
  switch (form) {
    case ContextForm::Header:
      w.line("context {}", ctx.path);
      break;
    case ContextForm::Block:
      w.line("context {} {{", ctx.path);
      w.indent();
      break;
  }
  w.blank();
  w.line("consumes {}", kCorePath);
  for (const Consume& c : consumes) {
    switch (c.form) {
      case ConsumeForm::Plain:
        w.line("consumes {}", c.context->path);
        break;
      case ConsumeForm::Alias:
        w.line("consumes {} as {}", c.context->path, c.context->last);
        break;
      case ConsumeForm::Only: {
        std::string list;
        for (const std::string& name : c.onlyNames()) {
          if (!list.empty()) list += ", ";
          list += name;
        }
        if (rng.chance(50)) {
          w.line("consumes {} {{ {} }}", c.context->path, list);
        } else {
          w.line("consumes {} {{  -- only what the subscribers need",
                 c.context->path);
          w.line("  {}", list);
          w.line("}}");
        }
        break;
      }
    }
  }
  w.blank();
}

void emitContextClose(TextWriter& w, ContextForm form) {
  switch (form) {
    case ContextForm::Header:
      break;
    case ContextForm::Block:
      w.dedent();
      w.line("}}");
      w.blank();
      break;
  }
}

void emitContextPrelude(TextWriter& w, const Context& ctx, Rng& rng,
                        std::vector<Decl>& schema) {
  w.line("-- Parties acting on {}.", ctx.path);
  w.line("actor {}", ctx.operatorActor());
  w.line("actor {}(identity: UserId)", ctx.customerActor());
  w.blank();
  w.doc("Pricing and bookkeeping implemented by the host application.");
  w.line("capability {} {{", ctx.pricing());
  w.line("  fn quote(amount: Money, region: Region) -> Money");
  if (rng.chance(50))
    w.line("  fn rates(currency: String) -> Map[String, Float]");
  w.line("  fn record(text: String)");
  w.line("}}");
  w.blank();
  for (TypeDecl type :
       {channelType(ctx.channel()), inboxIdType(ctx.inboxId())}) {
    emitTypeDecl(w, type);
    schema.push_back({std::move(type), std::nullopt});
  }
  w.blank();
  w.line("fn {}.forUser(u: UserId) -> {} {{", ctx.inboxId(), ctx.inboxId());
  w.line("  {}(\"inbox-\" + userKey(u))", ctx.inboxId());
  w.line("}}");
  w.blank();
  emitInboxAgent(w, ctx);
  w.blank();
}

namespace {

void emitEntityFns(TextWriter& w, const Entity& x, Rng& rng) {
  w.line("fn {}Id.forUser(u: UserId) -> {}Id {{", x.name, x.name);
  w.line("  {}Id(\"{}-\" + userKey(u))", x.name, x.lower);
  w.line("}}");
  w.blank();
  w.doc("Large amounts are handled first.");
  w.line("fn {}PriorityOf(amount: Money) -> {}Priority {{", x.lower, x.name);
  w.line("  if amount.cents >= {} {{",
         rng.pick(std::vector<std::string>{"100_000", "250_000", "1_000_000"}));
  w.line("    {}Priority.Urgent", x.name);
  w.line("  }} else if amount.cents >= {} && amount.currency == \"{}\" {{",
         rng.pick(std::vector<std::string>{"10_000", "25_000", "50_000"}),
         pickCurrency(rng));
  w.line("    {}Priority.High", x.name);
  w.line("  }} else if amount.cents < {} {{", rng.range(1, 9) * 100);
  w.line("    {}Priority.Low", x.name);
  w.line("  }} else {{");
  w.line("    {}Priority.Normal", x.name);
  w.line("  }}");
  w.line("}}");
  w.blank();
  w.line("fn {}Label(s: {}Status) -> String {{", x.lower, x.name);
  w.line("  match s {{");
  w.line("    Draft => \"draft\",");
  w.line("    Active(_) => \"active\",");
  w.line("    Held(reason: r) => \"held (\\(r))\",");
  w.line("    Closed => \"closed\",");
  w.line("  }}");
  w.line("}}");
  w.blank();
  if (rng.chance(60)) {
    w.line("fn {}Discount(amount: Money, percent: Int) -> Money {{", x.lower);
    w.line("  let off = amount.cents * percent / 100");
    w.line(
        "  Money {{ cents: amount.cents - off, currency: amount.currency }}");
    w.line("}}");
    w.blank();
  }
  if (rng.chance(40)) {
    w.line("fn {}Score(weight: Float, urgent: Bool) -> Float {{", x.lower);
    w.line("  if urgent {{ weight * {}.5 + 0.25 }} else {{ weight / 2.0 }}",
           rng.range(1, 4));
    w.line("}}");
    w.blank();
  }
}

}  // namespace

void emitEntityDecls(TextWriter& w, const Entity& entity, Rng& rng,
                     std::vector<Decl>& schema) {
  w.line("-- ---------------------------------------------------------------");
  w.line("-- {}", entity.name);
  w.line("-- ---------------------------------------------------------------");
  w.blank();
  for (TypeDecl& type : entityTypes(entity, rng)) {
    emitTypeDecl(w, type);
    schema.push_back({std::move(type), std::nullopt});
  }
  w.blank();
  std::vector<EventDecl> events = entityEvents(entity, rng);
  w.doc("A " + entity.lower + " was opened for its owner.");
  for (EventDecl& event : events) {
    emitEventDecl(w, event);
    w.blank();
    schema.push_back({std::nullopt, std::move(event)});
  }
  emitEntityFns(w, entity, rng);
}

}  // namespace herald::bench
