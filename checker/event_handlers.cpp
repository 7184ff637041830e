// event-handler-shape: an Events service has exactly one handler,
// `on event(e: E)` or `on event(e: E, env: EventEnvelope)`, returning ();
// `on event` anywhere else is an error too.
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <llvm/Support/Casting.h>

#include "checker/subscription_check.h"

namespace herald::check {

namespace {

bool isEventHandler(const ast::HandlerDecl& h) {
  return !h.isCall && h.name.name == "event";
}

// The checked handler for a handler declaration, when signatures made one.
template <typename Owner>
const HandlerInfo* infoFor(const Owner& owner, const ast::HandlerDecl* decl) {
  for (const HandlerInfo& h : owner.handlers)
    if (h.decl == decl) return &h;
  return nullptr;
}

// The parameter's resolved type, or null when it is unknown or an error
// (then someone else has reported it).
const Type* paramType(const HandlerInfo* info, std::size_t i) {
  if (info == nullptr || i >= info->params.size()) return nullptr;
  const Type* t = info->params[i].type;
  return t != nullptr && isWellFormed(t) ? t : nullptr;
}

// `-> T` with the space before it, so removing it leaves `on event(...) {`.
SourceRange arrowAndType(const SourceManager& sources,
                         const ast::TypeExpr& result) {
  std::string_view text = sources.file(result.range.file).text();
  if (result.range.begin > text.size()) return result.range;
  std::size_t arrow = text.rfind("->", result.range.begin);
  if (arrow == std::string_view::npos) return result.range;
  while (arrow > 0 && (text[arrow - 1] == ' ' || text[arrow - 1] == '\t'))
    --arrow;
  return SourceRange{result.range.file, static_cast<std::uint32_t>(arrow),
                     result.range.end};
}

// `range` with the blanks before it, so removing it leaves `...) {`.
SourceRange withBlanksBefore(const SourceManager& sources, SourceRange range) {
  std::string_view text = sources.file(range.file).text();
  std::uint32_t begin = range.begin;
  if (begin > text.size()) return range;
  while (begin > 0 && (text[begin - 1] == ' ' || text[begin - 1] == '\t'))
    --begin;
  return SourceRange{range.file, begin, range.end};
}

void checkShape(Sema& sema, const ast::HandlerDecl& h, const HandlerInfo* info,
                const EventInfo* event, llvm::StringRef eventWritten) {
  if (h.by != nullptr) {
    // A delivery is the runtime handing over a committed event; no caller
    // presents an actor, so a `by` guard could never be satisfied.
    sema.diags
        .report<diag::EventHandlerShape>(
            h.by->range,
            "'on event' cannot have 'by': a delivery presents no actor")
        .note(
            "check who may trigger the event where it is emitted, in the "
            "handler that emits it")
        .fixit(withBlanksBefore(sema.sources, h.by->range), "");
  }
  std::string eventName = eventWritten.empty() ? "E" : eventWritten.str();
  if (h.params.empty()) {
    sema.diags
        .report<diag::EventHandlerShape>(
            h.name.range,
            "'on event' must take the delivered event as its first "
            "parameter")
        .note("write 'on event(e: {})'", eventName);
  }
  if (!h.params.empty() && event != nullptr && event->type != nullptr) {
    const Type* first = paramType(info, 0);
    const ast::TypeExpr* written = h.params[0].type;
    if (first != nullptr && first != event->type && written != nullptr) {
      sema.diags
          .report<diag::EventHandlerShape>(
              written->range,
              fmt::format("the first parameter of 'on event' must have the "
                          "subscribed event's type '{}', not '{}'",
                          event->name, displayName(first)))
          .fixit(written->range, eventName);
    }
  }
  if (h.params.size() >= 2) {
    const Type* second = paramType(info, 1);
    const ast::TypeExpr* written = h.params[1].type;
    if (second != nullptr && second->kind != TypeKind::Envelope &&
        written != nullptr) {
      sema.diags
          .report<diag::EventHandlerShape>(
              written->range,
              fmt::format("the second parameter of 'on event' must be the "
                          "'EventEnvelope', not '{}'",
                          displayName(second)))
          .fixit(written->range, "EventEnvelope");
    }
  }
  if (h.params.size() > 2) {
    SourceRange extra =
        SourceRange::join(h.params[2].range, h.params.back().range);
    sema.diags
        .report<diag::EventHandlerShape>(
            extra,
            "'on event' takes only the event and, optionally, its "
            "'EventEnvelope'")
        .fixit(SourceRange{extra.file, h.params[1].range.end, extra.end}, "");
  }
  if (h.returnType != nullptr && info != nullptr && info->result != nullptr &&
      isWellFormed(info->result) && info->result->kind != TypeKind::Unit) {
    sema.diags
        .report<diag::EventHandlerShape>(
            h.returnType->range,
            fmt::format("'on event' returns (), not '{}': nothing receives "
                        "a delivery's result",
                        displayName(info->result)))
        .fixit(arrowAndType(sema.sources, *h.returnType), "");
  }
}

}  // namespace

const HandlerInfo* eventHandler(const ServiceInfo& service) {
  for (const HandlerInfo& h : service.handlers)
    if (!h.isCall && h.name == "event") return &h;
  return nullptr;
}

void checkEventServiceHandlers(Sema& sema, const ServiceInfo& service,
                               const ast::ServiceDecl& decl,
                               const EventInfo* event,
                               llvm::StringRef eventWritten) {
  const ast::HandlerDecl* first = nullptr;
  for (const ast::Decl* member : decl.members) {
    const auto* h = llvm::dyn_cast_or_null<ast::HandlerDecl>(member);
    if (h == nullptr || h->name.empty()) continue;
    if (!isEventHandler(*h)) {
      sema.diags
          .report<diag::EventHandlerShape>(
              h->name.range,
              fmt::format("service '{}' subscribes to events, so its only "
                          "handler is 'on event'; '{}' cannot be called",
                          service.name, h->name.name.str()))
          .note("move '{}' to a service without 'from'", h->name.name.str());
      continue;
    }
    if (first != nullptr) {
      sema.diags
          .report<diag::EventHandlerShape>(
              h->name.range,
              fmt::format("service '{}' has more than one 'on event' handler",
                          service.name))
          .note(first->name.range, "the first 'on event' handler is here")
          .note(
              "an Events service has exactly one handler; merge their "
              "bodies, or subscribe with a second service");
      continue;
    }
    first = h;
    checkShape(sema, *h, infoFor(service, h), event, eventWritten);
  }
  if (first == nullptr && !decl.name.empty()) {
    std::string eventName = eventWritten.empty() ? "E" : eventWritten.str();
    sema.diags
        .report<diag::EventHandlerShape>(
            decl.name.range,
            fmt::format("service '{}' subscribes to '{}' but has no "
                        "'on event' handler",
                        service.name, eventName))
        .note("add 'on event(e: {}) {{ ... }}'", eventName);
  }
}

void rejectEventHandlers(Sema& sema, const ServiceInfo& service,
                         const ast::ServiceDecl& decl) {
  for (const ast::Decl* member : decl.members) {
    const auto* h = llvm::dyn_cast_or_null<ast::HandlerDecl>(member);
    if (h == nullptr || !isEventHandler(*h)) continue;
    sema.diags
        .report<diag::EventHandlerShape>(
            h->name.range,
            fmt::format("'on event' receives a subscription's events, but "
                        "service '{}' has no 'from Events(...)'",
                        service.name))
        .note(
            "add 'from Events(E)' after 'service {}', or give the "
            "handler another name",
            service.name);
  }
}

void rejectEventHandlers(Sema& sema, const AgentInfo& agent,
                         const ast::AgentDecl& decl) {
  for (const ast::Decl* member : decl.members) {
    const auto* h = llvm::dyn_cast_or_null<ast::HandlerDecl>(member);
    if (h == nullptr || !isEventHandler(*h)) continue;
    sema.diags
        .report<diag::EventHandlerShape>(
            h->name.range,
            fmt::format("agent '{}' cannot subscribe to events: 'on event' "
                        "belongs in a service 'from Events(E)'",
                        agent.name))
        .note(
            "subscribe with a service and have it message the agent "
            "through a 'Ref[{}]' dependency",
            agent.name);
  }
}

}  // namespace herald::check
