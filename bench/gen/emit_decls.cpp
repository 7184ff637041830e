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

void emitCoreContext(TextWriter& w) {
  w.doc("Identities, money and regions shared by every other context.");
  w.line("context {}", kCorePath);
  w.blank();
  w.line("-- Who acts, and in which currency.");
  w.line("type UserId = opaque String where len(self) <= 128");
  w.line("type Email = opaque String where len(self) <= 254");
  w.line("type Money = {{ cents: Int, currency: String }}");
  w.line("type Region = | Domestic | International | Offshore(zone: String)");
  w.line("type Timestamp = Instant");
  w.line("type Percent = Int where self >= 0 && self <= 100");
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
  w.line("@schema(1) event UserRegistered = {{");
  w.line("  userId: UserId,");
  w.line("  email: Email,");
  w.line("  region: Region = Region.Domestic,");
  w.line("  referrer: Option[UserId] = None,");
  w.line("  at: Instant,");
  w.line("}}");
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

void emitContextPrelude(TextWriter& w, const Context& ctx, Rng& rng) {
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
  w.line("type {} = | Mail | Text | Push | Web", ctx.channel());
  w.line("type {} = opaque String", ctx.inboxId());
  w.blank();
  w.line("fn {}.forUser(u: UserId) -> {} {{", ctx.inboxId(), ctx.inboxId());
  w.line("  {}(\"inbox-\" + userKey(u))", ctx.inboxId());
  w.line("}}");
  w.blank();
  emitInboxAgent(w, ctx);
  w.blank();
}

namespace {

void emitEntityTypes(TextWriter& w, const Entity& x, Rng& rng) {
  if (rng.chance(50)) {
    w.line("type {}Id = opaque String where len(self) <= {}", x.name,
           rng.pick(std::vector<int>{32, 64, 128}));
  } else {
    w.line("type {}Id = opaque String", x.name);
  }
  w.line("type {}Qty = Int where self > 0 && self <= {}", x.name,
         rng.pick(std::vector<std::string>{"100", "10_000", "1_000_000"}));
  w.line("type {}Stamp = Instant", x.name);
  if (rng.chance(50)) {
    w.line("type {}Line = {{ sku: String, quantity: {}Qty, price: Money }}",
           x.name, x.name);
  } else {
    w.line("type {}Line = {{", x.name);
    w.line("  sku: String,");
    w.line("  quantity: {}Qty,  -- never zero", x.name);
    w.line("  price: Money,");
    w.line("}}");
  }
  w.line("type {}Priority = | Low | Normal | High | Urgent", x.name);
  w.line("type {}Status =", x.name);
  w.line("  | Draft");
  w.line("  | Active(since: Instant)");
  w.line("  | Held(reason: String)");
  w.line("  | Closed");
  w.blank();
}

// `@schema(N)` before or after the name, with or without `=`.
void eventHeader(TextWriter& w, const std::string& name, Rng& rng) {
  const bool equals = rng.chance(75);
  const char* eq = equals ? "= " : "";
  switch (rng.range(0, 2)) {
    case 0:
      w.line("@schema({}) event {} {}{{", rng.range(1, 4), name, eq);
      break;
    case 1:
      w.line("event {} @schema({}) {}{{", name, rng.range(1, 4), eq);
      break;
    default:
      w.line("event {} {}{{", name, eq);
      break;
  }
}

void emitEntityEvents(TextWriter& w, const Entity& x, Rng& rng) {
  w.doc("A " + x.lower + " was opened for its owner.");
  eventHeader(w, eventName(x, EventKind::Opened), rng);
  w.line("  {}Id: {}Id,", x.lower, x.name);
  w.line("  owner: UserId,");
  w.line("  amount: Money,");
  w.line("  region: Region = Region.{},",
         rng.pick(std::vector<std::string>{"Domestic", "International"}));
  w.line("  priority: {}Priority = {}Priority.Normal,", x.name, x.name);
  w.line("  quantity: {}Qty = 1,", x.name);
  w.line("  note: Option[String] = None,  -- added in a later version");
  w.line("  at: Instant,");
  w.line("}}");
  w.blank();
  eventHeader(w, eventName(x, EventKind::StatusChanged), rng);
  w.line("  {}Id: {}Id,", x.lower, x.name);
  w.line("  owner: UserId,");
  w.line("  status: {}Status,", x.name);
  w.line("  revision: Int = 0,");
  w.line("  at: Instant,");
  w.line("}}");
  w.blank();
  eventHeader(w, eventName(x, EventKind::Closed), rng);
  w.line("  {}Id: {}Id,", x.lower, x.name);
  w.line("  owner: UserId,");
  w.line("  total: Money = Money {{ cents: 0, currency: \"{}\" }},",
         pickCurrency(rng));
  w.line("  lines: Int = 0,");
  w.line("  retry: Option[Int] = Some({}),", rng.range(0, 3));
  w.line("  weight: Float = {}.{},", rng.range(0, 3), rng.range(0, 9));
  w.line("  at: Instant,");
  w.line("}}");
  w.blank();
}

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

void emitEntityDecls(TextWriter& w, const Entity& entity, Rng& rng) {
  w.line("-- ---------------------------------------------------------------");
  w.line("-- {}", entity.name);
  w.line("-- ---------------------------------------------------------------");
  w.blank();
  emitEntityTypes(w, entity, rng);
  emitEntityEvents(w, entity, rng);
  emitEntityFns(w, entity, rng);
}

}  // namespace herald::bench
