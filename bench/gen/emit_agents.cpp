// Agents: the per-context inbox (handlers that never emit, so any context
// may message it without closing an event cycle) and one agent per entity.
#include <string>
#include <vector>

#include "bench/gen/emit.h"

namespace herald::bench {

void emitInboxAgent(TextWriter& w, const Context& ctx) {
  w.doc("Messages shown to one user about " + ctx.path + ".");
  w.line("agent {} {{", ctx.inbox());
  w.line("  key id: {}", ctx.inboxId());
  w.line("  store messages: List[String] = []");
  w.line("  store unread: Int = 0");
  w.line("  store channel: {} = {}.Push", ctx.channel(), ctx.channel());
  w.line("  invariant unreadNonNegative: unread >= 0");
  w.blank();
  w.line("  on post(text: String) {{");
  w.line("    messages := messages.append(text)");
  w.line("    unread := unread + 1");
  w.line("  }}");
  w.blank();
  w.line("  on call markRead() -> Int {{");
  w.line("    let count = unread");
  w.line("    unread := 0");
  w.line("    count");
  w.line("  }}");
  w.blank();
  w.line("  on call prefer(next: {}) by {} {{", ctx.channel(),
         ctx.operatorActor());
  w.line("    channel := next");
  w.line("  }}");
  w.line("}}");
}

namespace {

void emitStores(TextWriter& w, const Entity& x, Rng& rng) {
  w.line("  key id: {}Id", x.name);
  w.line("  store owner: Option[UserId] = None");
  w.line("  store status: {}Status = {}Status.Draft", x.name, x.name);
  w.line("  store total: Money = Money {{ cents: 0, currency: \"{}\" }}",
         pickCurrency(rng));
  w.line("  store lineCount: Int = 0");
  w.line("  store revision: Int = 0");
  w.line("  store lastQuantity: Option[{}Qty] = None", x.name);
  w.line("  store notes: List[String] = []");
  w.line("  store deadline: Option[{}Stamp] = None", x.name);
  w.line("  store archived: Bool = false");
  w.line("  store weight: Float = 1.0");
  w.line("  -- checked whenever a handler commits");
  w.line("  invariant revisionNonNegative: revision >= 0");
  w.line("  invariant totalNonNegative: total.cents >= 0 && lineCount >= 0");
  w.line(
      "  invariant closedHasOwner: status != {}Status.Closed || owner != None",
      x.name);
  w.blank();
  w.line("  fn bump(step: Int) {{");
  w.line("    revision := revision + step");
  w.line("  }}");
  w.blank();
}

// `let who = ...`: the owner, or a fault when there is none yet.
void emitOwnerOrFail(TextWriter& w, const Entity& x) {
  w.line("    let who = match owner {{");
  w.line("      Some(u) => u,");
  w.line("      None => fail(\"{} \\(id.raw) has no owner\"),", x.lower);
  w.line("    }}");
}

void emitOpenHandlers(TextWriter& w, const Context& ctx, const Entity& x,
                      Rng& rng) {
  indented(w, [&] {
    w.doc("A customer opens the " + x.lower + " with a first amount.");
  });
  w.line(
      "  on open(amount: Money, quantity: {}Qty) by c: {} given Events, Clock "
      "{{",
      x.name, ctx.customerActor());
  w.line("    owner := Some(c.identity)");
  w.line("    total := amount");
  w.line("    lastQuantity := Some(quantity)");
  w.line("    status := {}Status.Active(since: Clock.now)", x.name);
  w.line("    deadline := Some(Clock.now + {})",
         rng.pick(std::vector<std::string>{"7.days", "1.day", "48.hours",
                                           "90.minutes"}));
  w.line("    bump(1)");
  w.line("    Events.emit({} {{", eventName(x, EventKind::Opened));
  w.line("      {}Id: id,", x.lower);
  w.line("      owner: c.identity,");
  w.line("      amount: amount,");
  w.line("      region: Region.Domestic,");
  w.line("      priority: {}PriorityOf(amount),", x.lower);
  w.line("      quantity: quantity,");
  w.line("      note: None,");
  w.line("      at: Clock.now,");
  w.line("    }})");
  w.line("  }}");
  w.blank();
  w.line("  on openFor(user: UserId, amount: Money) given Events, Clock {{");
  w.line("    owner := Some(user)");
  w.line("    total := amount");
  w.line("    status := {}Status.Active(since: Clock.now)", x.name);
  w.line("    bump(1)");
  w.line(
      "    Events.emit({} {{ {}Id: id, owner: user, amount: amount, "
      "region: Region.International, priority: {}Priority.Low, quantity: {}, "
      "note: Some(\"opened for \\(userKey(user))\"), at: Clock.now }})",
      eventName(x, EventKind::Opened), x.lower, x.name, rng.range(1, 9));
  w.line("  }}");
  w.blank();
}

void emitLineHandler(TextWriter& w, const Entity& x) {
  w.line("  on addLine(line: {}Line) given Events, Clock {{", x.name);
  w.line("    let accepting = match status {{");
  w.line("      Active(_) => true,");
  w.line("      Draft | Held(_) => false,");
  w.line("      Closed => fail(\"{} \\(id.raw) is closed\"),", x.lower);
  w.line("    }}");
  emitOwnerOrFail(w, x);
  w.line("    if accepting {{");
  w.line(
      "      total := Money {{ cents: total.cents + line.price.cents, "
      "currency: total.currency }}");
  w.line("      lineCount := lineCount + 1");
  w.line("      lastQuantity := Some(line.quantity)");
  w.line("    }} else if archived {{");
  w.line(
      "      notes := notes.append(\"line \\(line.sku) refused: archived\")");
  w.line("    }} else {{");
  w.line(
      "      notes := notes.append(\"line \\(line.sku) refused while "
      "\\({}Label(status))\")",
      x.lower);
  w.line("    }}");
  w.line("    bump(1)");
  w.line("    Events.emit({} {{", eventName(x, EventKind::StatusChanged));
  w.line("      {}Id: id,", x.lower);
  w.line("      owner: who,");
  w.line("      status: status,");
  w.line("      revision: revision,");
  w.line("      at: Clock.now,");
  w.line("    }})");
  w.line("  }}");
  w.blank();
}

void emitHoldHandlers(TextWriter& w, const Context& ctx, const Entity& x,
                      Rng& rng) {
  w.line("  on hold(reason: String) by {} given Events, Clock {{",
         ctx.operatorActor());
  emitOwnerOrFail(w, x);
  w.line("    status := {}Status.Held(reason: reason)", x.name);
  w.line("    deadline := Some(Clock.now + {})",
         rng.pick(std::vector<std::string>{"2.hours", "30.minutes", "1.day"}));
  w.line("    notes := notes.append(\"held: \\(reason)\")");
  w.line("    bump(1)");
  w.line(
      "    Events.emit({} {{ {}Id: id, owner: who, status: "
      "{}Status.Held(reason: "
      "reason), revision: revision + 1, at: Clock.now }})",
      eventName(x, EventKind::StatusChanged), x.lower, x.name);
  w.line("  }}");
  w.blank();
  // Reached from subscribers in later contexts.
  w.line("  on escalate(reason: String) given Events, Clock {{");
  emitOwnerOrFail(w, x);
  w.line("    if status == {}Status.Closed {{", x.name);
  w.line("      notes := notes.append(\"escalation after close: \\(reason)\")");
  w.line("    }} else {{");
  w.line("      status := {}Status.Held(reason: \"escalated: \" + reason)",
         x.name);
  w.line("      weight := weight * 1.5 + 0.25");
  w.line("    }}");
  w.line("    Events.emit[{}]({} {{", eventName(x, EventKind::StatusChanged),
         eventName(x, EventKind::StatusChanged));
  w.line("      {}Id: id,", x.lower);
  w.line("      owner: who,");
  w.line("      status: status,");
  w.line("      revision: revision,");
  w.line("      at: Clock.now,");
  w.line("    }})");
  w.line("  }}");
  w.blank();
  w.line("  on remind(text: String) given Clock {{");
  w.line("    notes := notes.append(text)");
  w.line("    deadline := Some(Clock.now + {}.minutes)", rng.range(5, 120));
  w.line("  }}");
  w.blank();
}

void emitCloseHandler(TextWriter& w, const Entity& x, Rng& rng) {
  w.line("  on close() by InternalCaller given Events, Clock {{");
  emitOwnerOrFail(w, x);
  w.line("    -- keep a share of the total for the final statement");
  w.line("    let share = (total.cents * {} + lineCount) / {} % 1_000_000_000",
         rng.range(2, 9), rng.range(10, 12));
  w.line("    status := {}Status.Closed", x.name);
  w.line("    archived := !archived && revision > 0");
  w.line("    Events.emit[{}]({} {{", eventName(x, EventKind::Closed),
         eventName(x, EventKind::Closed));
  w.line("      {}Id: id,", x.lower);
  w.line("      owner: who,");
  w.line("      total: Money {{ cents: share, currency: total.currency }},");
  w.line("      lines: lineCount,");
  w.line("      retry: None,");
  w.line("      weight: weight,");
  w.line("      at: Clock.now,");
  w.line("    }})");
  w.line("  }}");
  w.blank();
}

void emitQueries(TextWriter& w, const Entity& x, Rng& rng) {
  w.line("  on call summary() -> String {{");
  w.line(
      "    \"{} \\(id.raw) is \\({}Label(status)): \\(lineCount) lines, "
      "\\(total.cents) \\(total.currency)\"",
      x.lower, x.lower);
  w.line("  }}");
  if (rng.chance(60)) {
    w.blank();
    w.line("  on call isOverdue() -> Bool given Clock {{");
    w.line("    match deadline {{");
    w.line("      Some(d) => d < Clock.now,");
    w.line("      None => false,");
    w.line("    }}");
    w.line("  }}");
  }
  if (rng.chance(40)) {
    w.blank();
    w.line("  on call recentNotes() -> List[String] {{");
    w.line(
        "    if notes == [] {{ [\"no notes\", \"for \\(id.raw)\"] }} else {{ "
        "notes }}");
    w.line("  }}");
  }
}

}  // namespace

void emitEntityAgent(TextWriter& w, const Context& ctx, const Entity& x,
                     Rng& rng) {
  w.doc("One " + x.lower + ": its owner, lines and lifecycle.");
  w.line("agent {} {{", x.name);
  emitStores(w, x, rng);
  emitOpenHandlers(w, ctx, x, rng);
  emitLineHandler(w, x);
  emitHoldHandlers(w, ctx, x, rng);
  emitCloseHandler(w, x, rng);
  emitQueries(w, x, rng);
  w.line("}}");
  w.blank();
}

}  // namespace herald::bench
