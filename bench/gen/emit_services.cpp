// Services: subscribers with patterns and `via` clauses, and the
// host-facing desk. A subscriber only listens to events of consumed
// contexts and only messages its own context's agents or the inboxes of
// consumed contexts, so the event flow graph stays acyclic.
#include <string>
#include <vector>

#include "bench/gen/emit.h"

namespace herald::bench {

namespace {

enum class SourceKind { Opened, StatusChanged, Closed, Registered };

// The event a subscriber listens to, and how this context spells the names
// of the context that declares it.
struct Source {
  const Consume* consume;  // null: the core context
  const Entity* entity;    // null for Registered
  SourceKind kind;
  bool qualify;

  [[nodiscard]] std::string ref(const std::string& name) const {
    return consume ? consume->ref(name, qualify) : name;
  }
  [[nodiscard]] std::string eventType() const {
    switch (kind) {
      case SourceKind::Opened:
        return ref(eventName(*entity, EventKind::Opened));
      case SourceKind::StatusChanged:
        return ref(eventName(*entity, EventKind::StatusChanged));
      case SourceKind::Closed:
        return ref(eventName(*entity, EventKind::Closed));
      case SourceKind::Registered:
        return "UserRegistered";
    }
    return "UserRegistered";
  }
  [[nodiscard]] std::string ownerField() const {
    return kind == SourceKind::Registered ? "userId" : "owner";
  }
};

std::string fieldPattern(const Source& s, int which, Rng& rng) {
  const std::string entity = s.entity ? s.entity->name : "";
  switch (s.kind) {
    case SourceKind::Opened:
      switch (which % 5) {
        case 0:
          return rng.pick(std::vector<std::string>{
              "region: Region.Domestic",
              "region: Region.Domestic | Region.International",
              "region: Region.Offshore(zone: \"eu\")",
              "region: Offshore(zone: _, ..)"});
        case 1: {
          const std::string p = s.ref(entity + "Priority");
          return "priority: " + p + ".High | " + p + ".Urgent";
        }
        case 2:
          return rng.pick(std::vector<std::string>{
              "amount: { cents: 10_000.., .. }",
              "amount: { cents: ..500, currency: \"EUR\", .. }",
              "amount: { currency: \"USD\" | \"GBP\", .. }"});
        case 3:
          return rng.pick(std::vector<std::string>{"quantity: 1..100",
                                                   "quantity: 1 | 2 | 3"});
        default:
          return rng.pick(std::vector<std::string>{
              "note: Some(_)", "note: None", "note: Some(\"vip\")"});
      }
    case SourceKind::StatusChanged:
      if (which % 2 == 0) {
        const std::string st = s.ref(entity + "Status");
        switch (rng.range(0, 3)) {
          case 0:
            return "status: " + st + ".Held(reason: _)";
          case 1:
            return "status: " + st + ".Closed";
          case 2:
            return "status: " + st + ".Active(since: _, ..) | " + st + ".Draft";
          default:
            return "status: " + st + ".Held(reason: \"fraud\") | " + st +
                   ".Closed";
        }
      }
      return rng.pick(
          std::vector<std::string>{"revision: 2..", "revision: 1..5",
                                   "revision: ..10", "revision: -1 | 0"});
    case SourceKind::Closed:
      switch (which % 3) {
        case 0:
          return rng.pick(
              std::vector<std::string>{"total: { cents: 0..999, .. }",
                                       "total: { currency: \"EUR\", .. }"});
        case 1:
          return rng.pick(std::vector<std::string>{"lines: 1..", "lines: 0"});
        default:
          return rng.pick(std::vector<std::string>{
              "retry: Some(0..3)", "retry: None", "retry: Some(_)"});
      }
    case SourceKind::Registered:
      return rng.pick(std::vector<std::string>{
          "region: Region.Domestic | Region.International",
          "region: Region.Offshore(zone: \"eu\")", "referrer: Some(_)",
          "referrer: None"});
  }
  return "owner: _";
}

int fieldCount(SourceKind kind) {
  switch (kind) {
    case SourceKind::Opened:
      return 5;
    case SourceKind::StatusChanged:
      return 2;
    case SourceKind::Closed:
      return 3;
    case SourceKind::Registered:
      return 1;
  }
  return 1;
}

// ` { a: p, b: q, .. }`, the angle spelling, or nothing.
std::string subscriptionPattern(const Source& s, Rng& rng) {
  if (rng.chance(20)) return "";
  const int fields = fieldCount(s.kind);
  const int first = rng.range(0, fields - 1);
  std::string body = fieldPattern(s, first, rng);
  if (fields > 1 && rng.chance(40)) {
    body += ", " + fieldPattern(s, (first + 1) % fields, rng);
  }
  if (rng.chance(15)) return " < " + body + ", .. >";
  return " { " + body + ", .. }";
}

std::string viaClause(Rng& rng) {
  switch (rng.range(0, 9)) {
    case 0:
      return fmt::format(" via schema({})", rng.range(1, 3));
    case 1:
      return fmt::format(" via schema({}..)", rng.range(1, 3));
    case 2:
      return fmt::format(" via schema(..{})", rng.range(2, 4));
    case 3:
      return fmt::format(" via schema(1..{})", rng.range(2, 4));
    case 4:
      return " via schema(_)";
    default:
      return "";
  }
}

std::string uniqueName(ServiceNames& names, const std::string& base) {
  std::string name = base;
  for (int n = 2; names.count(name) != 0; ++n) name = base + std::to_string(n);
  names.insert(name);
  return name;
}

// The statements that react to one delivery of `s` for agent `x`.
void emitReaction(TextWriter& w, const Source& s, const Entity& x,
                  bool withInbox, bool withPricing, Rng& rng) {
  const std::string owner = "e." + s.ownerField();
  w.line("let target = {}Id.forUser({})", x.name, owner);
  switch (s.kind) {
    case SourceKind::Opened:
      if (withPricing) {
        w.line("let quoted = Pricing.quote(e.amount, e.region)");
        w.line("{}(target).openFor(user: {}, amount: quoted)", x.plural, owner);
      } else {
        w.line("{}(target).openFor({}, e.amount)", x.plural, owner);
      }
      if (rng.chance(50)) {
        w.line("match e.note {{");
        w.line("  Some(n) => {}(target).remind(\"note from upstream: \\(n)\"),",
               x.plural);
        w.line("  None => (),");
        w.line("}}");
      }
      break;
    case SourceKind::StatusChanged:
      w.line("match e.status {{");
      w.line(
          "  Held(reason) => {}(target).escalate(\"upstream held: "
          "\\(reason)\"),",
          x.plural);
      w.line(
          "  Closed => {}(target).remind(\"upstream closed at revision "
          "\\(e.revision)\"),",
          x.plural);
      w.line("  Draft | Active(_) => (),");
      w.line("}}");
      break;
    case SourceKind::Closed:
      w.line("let retries = e.retry.getOr(0)");
      w.line("if retries > {} || e.lines == 0 {{", rng.range(1, 3));
      w.line(
          "  {}(target).escalate(\"closed upstream after \\(retries) "
          "retries\")",
          x.plural);
      w.line("}} else {{");
      w.line(
          "  {}(target).remind(\"closed upstream: \\(e.lines) lines, "
          "\\(e.total.cents) "
          "\\(e.total.currency)\")",
          x.plural);
      w.line("}}");
      if (withPricing) w.line("Pricing.record(\"settled \\(e.total.cents)\")");
      break;
    case SourceKind::Registered:
      w.line(
          "{}(target).remind(\"new user \\(userKey(e.userId)) in "
          "\\(e.region)\")",
          x.plural);
      break;
  }
  if (withInbox) {
    const std::string inboxId =
        s.consume ? s.ref(s.consume->context->inboxId()) : "";
    w.line("Inbox({}.forUser({})).post(\"we are handling your {}\")", inboxId,
           owner, x.lower);
  }
}

void emitSubscriber(TextWriter& w, const Context& ctx, const Source& s,
                    const Entity& x, Rng& rng, ServiceNames& names) {
  const bool withInbox = s.consume != nullptr && rng.chance(50);
  const bool withPricing =
      s.consume != nullptr &&
      (s.kind == SourceKind::Opened || s.kind == SourceKind::Closed) &&
      rng.chance(35);
  const bool withEnv = rng.chance(40);
  const bool dedup = withEnv && rng.chance(50);
  const bool ownCapability = rng.chance(20);

  const std::string name = uniqueName(
      names, "On" + s.eventType().substr(s.eventType().rfind('.') + 1) + "For" +
                 x.name);
  w.doc("Keeps " + x.lower + " in step with " + s.eventType() + ".");
  w.line("service {}", name);
  w.line("    from Events({}{}){}", s.eventType(), subscriptionPattern(s, rng),
         viaClause(rng));
  std::string given = x.plural + ": Ref[" + x.name + "]";
  if (withInbox) {
    given += ", Inbox: Ref[" + s.ref(s.consume->context->inbox()) + "]";
  }
  if (withPricing)
    given += ", Pricing: " + s.ref(s.consume->context->pricing());
  w.line("    given {} {{", given);

  std::string handlerGiven;
  if (withEnv) handlerGiven = dedup ? "Logger, Idempotency" : "Logger";
  if (ownCapability) {
    handlerGiven += handlerGiven.empty() ? ctx.pricing() : ", " + ctx.pricing();
  }
  w.line("  on event(e: {}{}){}{} {{", s.eventType(),
         withEnv ? ", env: EventEnvelope" : "",
         handlerGiven.empty() ? "" : " given ", handlerGiven);
  w.indent();
  w.indent();
  if (withEnv) {
    w.line(
        "Logger.info(\"\\(env.eventType) #\\(env.sequence) at depth "
        "\\(env.depth) "
        "from \\(env.publisherId)\")");
  }
  if (dedup) {
    w.line("if Idempotency.seen(env.eventId) {{");
    w.line("  Logger.warn(\"duplicate delivery \\(env.eventId)\")");
    w.line("}} else {{");
    w.indent();
    w.line("Idempotency.remember(env.eventId, 7.days)");
    emitReaction(w, s, x, withInbox, withPricing, rng);
    w.dedent();
    w.line("}}");
  } else {
    emitReaction(w, s, x, withInbox, withPricing, rng);
  }
  if (ownCapability) {
    w.line("{}.record(\"{} for \\({}.forUser(e.{}))\")", ctx.pricing(), name,
           x.name + "Id", s.ownerField());
  }
  w.dedent();
  w.dedent();
  w.line("  }}");
  w.line("}}");
  w.blank();
}

}  // namespace

void emitSubscribers(TextWriter& w, const Context& ctx, const Entity& entity,
                     const std::vector<Consume>& consumes, Rng& rng,
                     ServiceNames& names, RegisteredSubscribers& registered) {
  const int count = rng.range(1, 3);
  for (int i = 0; i < count; ++i) {
    Source s{nullptr, nullptr, SourceKind::Registered, false};
    // Until UserRegistered is full this draws what the generator always
    // drew, so projects below that size keep their bytes.
    if (!consumes.empty() && (rng.chance(90) || registered.full())) {
      const Consume& c = rng.pick(consumes);
      s.consume = &c;
      s.entity = &c.context->entities[static_cast<std::size_t>(
          rng.range(0, static_cast<int>(c.usableEntities()) - 1))];
      s.kind = rng.pick(std::vector<SourceKind>{
          SourceKind::Opened, SourceKind::StatusChanged, SourceKind::Closed});
      s.qualify = rng.chance(30);
    }
    if (s.kind == SourceKind::Registered) ++registered.count;
    emitSubscriber(w, ctx, s, entity, rng, names);
  }
}

namespace {

void emitWelcome(TextWriter& w, const Context& ctx, Rng& rng,
                 ServiceNames& names) {
  const std::string welcome = uniqueName(names, ctx.head + "Welcome");
  w.doc("Greets every new user in their " + ctx.path + " inbox.");
  w.line("service {}", welcome);
  w.line("    from Events(UserRegistered{})",
         rng.chance(50)
             ? " { region: Region.Domestic | Region.International, .. }"
             : "");
  w.line("    given Inbox: Ref[{}] {{", ctx.inbox());
  w.line("  on event(e: UserRegistered) {{");
  w.line(
      "    Inbox({}.forUser(e.userId)).post(\"welcome, "
      "\\(userKey(e.userId))\")",
      ctx.inboxId());
  w.line("    match e.referrer {{");
  w.line(
      "      Some(r) => Inbox({}.forUser(r)).post(\"you referred "
      "\\(userKey(e.userId))\"),",
      ctx.inboxId());
  w.line("      None => (),");
  w.line("    }}");
  w.line("  }}");
  w.line("}}");
  w.blank();
}

void emitDesk(TextWriter& w, const Context& ctx, Rng& rng,
              ServiceNames& names) {
  const Entity& head = ctx.entities.front();
  w.doc("Lookups for the host application.");
  w.line("service {} given Logger {{", uniqueName(names, ctx.desk()));
  w.line("  on call lookup(user: UserId) -> {}Id {{", head.name);
  w.line("    Logger.info(\"lookup \\(userKey(user))\")");
  w.line("    {}Id.forUser(user)", head.name);
  w.line("  }}");
  w.blank();
  w.line("  on call channelFor(amount: Money) -> {} {{", ctx.channel());
  w.line(
      "    if amount.cents > {} && amount.currency == \"{}\" {{ {}.Mail }} "
      "else {{ {}.Push }}",
      rng.pick(std::vector<std::string>{"5_000", "50_000", "500_000"}),
      pickCurrency(rng), ctx.channel(), ctx.channel());
  w.line("  }}");
  w.blank();
  w.line("  on call describe(c: {}) -> String {{", ctx.channel());
  w.line("    \"\\\"\" + describeChannel(c) + \"\\\"\\t(\\u{{2709}})\"");
  w.line("  }}");
  w.blank();
  w.line("  fn describeChannel(c: {}) -> String {{", ctx.channel());
  w.line("    match c {{");
  w.line("      Mail => \"mail\",");
  w.line("      Text | Web => \"text or web\",");
  w.line("      Push => \"push\",");
  w.line("    }}");
  w.line("  }}");
  w.line("}}");
  w.blank();
}

}  // namespace

void emitContextServices(TextWriter& w, const Context& ctx, Rng& rng,
                         ServiceNames& names,
                         RegisteredSubscribers& registered) {
  if (!registered.full()) {
    ++registered.count;
    emitWelcome(w, ctx, rng, names);
  }
  emitDesk(w, ctx, rng, names);
}

}  // namespace herald::bench
