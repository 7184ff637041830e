#include "ir/predicate.h"

#include <string>

#include <fmt/format.h>

namespace herald::check {

namespace {

// `amount.cents`, `note?` for the value inside `Some`, `status.reason` for a
// variant's payload field (the VariantIs test beside it names the variant).
std::string renderPath(const std::vector<PathStep>& path) {
  std::string out;
  for (const PathStep& step : path) {
    switch (step.kind) {
      case PathStep::Kind::Field:
      case PathStep::Kind::VariantField:
        if (!out.empty()) out += '.';
        out += step.name;
        break;
      case PathStep::Kind::SomePayload:
        out += '?';
        break;
    }
  }
  return out.empty() ? std::string("event") : out;
}

void renderInto(const Predicate& p, std::string& out, bool insideAnd);

void renderJoined(const Predicate& p, std::string& out, const char* op,
                  bool insideAnd) {
  for (std::size_t i = 0; i < p.children.size(); ++i) {
    if (i != 0) out += op;
    renderInto(p.children[i], out, insideAnd);
  }
}

void renderInto(const Predicate& p, std::string& out, bool insideAnd) {
  switch (p.kind) {
    case Predicate::Kind::True:
      out += "true";
      return;
    case Predicate::Kind::And:
      renderJoined(p, out, " && ", true);
      return;
    case Predicate::Kind::Or:
      // `||` binds looser than `&&`: parenthesise a disjunction inside a
      // conjunction so the text reads as the predicate does.
      if (insideAnd) out += '(';
      renderJoined(p, out, " || ", false);
      if (insideAnd) out += ')';
      return;
    case Predicate::Kind::Equals:
      out += fmt::format("{} == {}", renderPath(p.path), render(p.value));
      return;
    case Predicate::Kind::IntRange:
      out += fmt::format("{} in {}..{}", renderPath(p.path),
                         p.low ? std::to_string(*p.low) : std::string(),
                         p.high ? std::to_string(*p.high) : std::string());
      return;
    case Predicate::Kind::VariantIs:
      out += fmt::format("{} is {}", renderPath(p.path), p.variant);
      return;
    case Predicate::Kind::IsNone:
      out += fmt::format("{} is None", renderPath(p.path));
      return;
    case Predicate::Kind::IsSome:
      out += fmt::format("{} is Some", renderPath(p.path));
      return;
  }
}

}  // namespace

std::string render(const Predicate& predicate) {
  std::string out;
  renderInto(predicate, out, false);
  return out;
}

}  // namespace herald::check
