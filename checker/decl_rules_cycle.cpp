// `@cycle` on a service: the mark that a cycle of the event flow through
// this subscription is intended (event-cycle then stays quiet about it).
// Only a subscribing service can be on such a cycle, the mark has nothing
// to say beyond its presence, and it is the only annotation a service takes
// (bad-service-annotation).
#include <fmt/format.h>
#include <llvm/Support/Casting.h>

#include "checker/decl_rules.h"

namespace herald::check {

void checkServiceAnnotations(Sema& sema, ServiceInfo& service) {
  const auto* decl = llvm::dyn_cast_or_null<ast::ServiceDecl>(service.decl);
  if (decl == nullptr) return;
  const ast::Annotation* first = nullptr;
  for (const ast::Annotation& annotation : decl->annotations) {
    if (annotation.name.empty()) continue;
    if (annotation.name.name != "cycle") {
      sema.diags
          .report<diag::BadServiceAnnotation>(
              annotation.name.range,
              fmt::format("unknown annotation '@{}' on service '{}'",
                          annotation.name.name, service.name))
          .note(
              "the only annotation on a service is '@cycle', which marks a "
              "cycle of the event flow through its subscription as "
              "intended");
      continue;
    }
    if (first != nullptr) {
      sema.diags
          .report<diag::BadServiceAnnotation>(
              annotation.range,
              fmt::format("'@cycle' is given twice on service '{}'",
                          service.name))
          .note(first->range, "first given here")
          .fixit(annotation.range, "");
      continue;
    }
    first = &annotation;
    if (decl->from == nullptr) {
      sema.diags
          .report<diag::BadServiceAnnotation>(
              annotation.range,
              fmt::format("'@cycle' on service '{}', which subscribes to no "
                          "event",
                          service.name))
          .note(
              "every cycle of the event flow passes through a subscription; "
              "put '@cycle' on a service 'from Events(...)' on the cycle")
          .fixit(annotation.range, "");
      continue;
    }
    if (annotation.hasParens) {
      // The mark says one thing, that a cycle is intended; the runtime's
      // depth limit, not an argument, bounds the cascade.
      const SourceRange parens{annotation.range.file, annotation.name.range.end,
                               annotation.range.end};
      sema.diags
          .report<diag::BadServiceAnnotation>(parens,
                                              "'@cycle' takes no arguments")
          .note(
              "the runtime's cascade depth limit bounds every cycle; "
              "'@cycle' only marks this one as intended")
          .fixit(parens, "");
      // Still the mark: the cycle need not be reported on top.
    }
    service.cycleIntended = true;
  }
}

}  // namespace herald::check
