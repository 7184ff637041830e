// The problems of a pattern whose report depends on where it is written: a
// match arm reports in the body checker's catalogue (invalid-pattern,
// unknown-field, duplicate-field-init, unknown-variant), a subscription in
// the pattern catalogue (E0510-E0516), whose messages name the event's field
// and say how its type can be matched. The rules are the same.
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "checker/pattern_resolve.h"

namespace herald::check {

namespace {

std::string joinNames(llvm::ArrayRef<FieldInfo> fields) {
  std::string out;
  for (const FieldInfo& f : fields) {
    if (!out.empty()) out += ", ";
    out += f.name;
  }
  return out;
}

std::vector<std::string> namesOf(llvm::ArrayRef<FieldInfo> fields) {
  std::vector<std::string> names;
  names.reserve(fields.size());
  for (const FieldInfo& f : fields) names.push_back(f.name);
  return names;
}

// Where a closing `}`, `>` or `)` is: the last byte of its pattern.
SourceRange closingOf(SourceRange whole) {
  SourceRange r = whole;
  if (r.end > r.begin) r.begin = r.end - 1;
  return r;
}

std::string quoted(llvm::ArrayRef<std::string> names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i != 0) out += i + 1 == names.size() ? " and " : ", ";
    out += "'" + names[i] + "'";
  }
  return out;
}

}  // namespace

void PatternResolver::invalidPattern(SourceRange at,
                                     const std::string& message) {
  reported_ = true;
  sema_.diags.report<diag::InvalidPattern>(at, message);
}

void PatternResolver::mismatch(SourceRange range, const PatternText& text,
                               const Type* type,
                               const std::string& matchMessage) {
  reported_ = true;
  switch (use_) {
    case PatternUse::MatchArm:
      sema_.diags.report<diag::InvalidPattern>(range, matchMessage);
      return;
    case PatternUse::Subscription:
      sema_.diags
          .report<diag::PatternTypeMismatch>(range, text.describe(),
                                             displayName(type))
          .note("{}", howToMatch(type, from_));
      return;
  }
}

void PatternResolver::unknownField(const ast::Ident& label,
                                   const PatternShape& shape,
                                   const PatternText& fieldText) {
  reported_ = true;
  std::string closest = closestName(label.name, namesOf(shape.fields));
  switch (use_) {
    case PatternUse::MatchArm: {
      auto report = sema_.diags.report<diag::UnknownField>(
          label.range, shape.ownerName, label.name);
      if (!closest.empty()) {
        report.note("did you mean '{}'?", closest);
        report.fixit(label.range, closest);
      }
      return;
    }
    case PatternUse::Subscription: {
      auto report = sema_.diags.report<diag::PatternUnknownField>(
          label.range,
          event_ != nullptr ? llvm::StringRef(event_->name) : shape.ownerName,
          fieldText.str());
      if (!closest.empty()) {
        report.note("did you mean '{}'?", closest);
        report.fixit(label.range, closest);
      }
      if (shape.fields.empty()) {
        report.note(shape.declRange, "{} has no fields", shape.owner());
      } else {
        report.note(shape.declRange, "{} has fields: {}", shape.owner(),
                    joinNames(shape.fields));
      }
      return;
    }
  }
}

void PatternResolver::duplicateField(SourceRange at, SourceRange first,
                                     const std::string& fieldName,
                                     const PatternText& fieldText) {
  reported_ = true;
  switch (use_) {
    case PatternUse::MatchArm:
      sema_.diags.report<diag::DuplicateFieldInit>(at, fieldName);
      return;
    case PatternUse::Subscription:
      sema_.diags.report<diag::PatternDuplicateField>(at, fieldText.str())
          .note(first, "'{}' is first matched here", fieldText.str())
          .note("combine both patterns into one, with '|' for alternatives");
      return;
  }
}

void PatternResolver::missingFields(llvm::ArrayRef<ast::PatternField> items,
                                    SourceRange whole,
                                    const PatternShape& shape,
                                    llvm::ArrayRef<std::string> unlisted) {
  reported_ = true;
  if (use_ == PatternUse::MatchArm) {
    sema_.diags.report<diag::InvalidPattern>(
        whole, fmt::format("pattern for '{}' does not mention {}; list them "
                           "or end the pattern with '..'",
                           shape.ownerName, quoted(unlisted)));
    return;
  }
  SourceRange close = closingOf(whole);
  auto report = sema_.diags.report<diag::PatternMissingRest>(close);
  if (items.empty()) {
    report.fixit(SourceRange{close.file, close.begin, close.begin}, "..");
  } else {
    // After a trailing comma only the marker is missing.
    std::uint32_t lastEnd = std::min(items.back().range.end, close.begin);
    std::string_view between =
        sema_.sources.textOf(SourceRange{close.file, lastEnd, close.begin});
    std::size_t comma = between.find(',');
    if (comma == std::string_view::npos) {
      report.fixit(SourceRange{close.file, lastEnd, lastEnd}, ", ..");
    } else {
      auto at = static_cast<std::uint32_t>(lastEnd + comma + 1);
      report.fixit(SourceRange{close.file, at, at}, " ..");
    }
  }
  if (!unlisted.empty()) {
    std::string names;
    for (const std::string& n : unlisted) {
      if (!names.empty()) names += ", ";
      names += n;
    }
    report.note("with '..' the fields not listed ({}) match any value", names);
  }
}

void PatternResolver::unknownVariant(const ast::Ident& last, const Type* type) {
  reported_ = true;
  const TypeInfo* sum = type->named;
  std::vector<std::string> names;
  std::string list;
  for (const VariantInfo& v : sum->variants) {
    names.push_back(v.name);
    if (!list.empty()) list += ", ";
    list += v.name;
  }
  std::string closest = closestName(last.name, names);
  switch (use_) {
    case PatternUse::MatchArm: {
      auto report = sema_.diags.report<diag::UnknownVariant>(
          last.range, sum->name, last.name);
      if (!closest.empty()) {
        report.note("did you mean '{}'?", closest);
        report.fixit(last.range, closest);
      }
      return;
    }
    case PatternUse::Subscription: {
      auto report = sema_.diags.report<diag::PatternUnknownVariant>(
          last.range, displayName(type), last.name);
      if (!closest.empty()) {
        report.note("did you mean '{}'?", closest);
        report.fixit(last.range, closest);
      }
      report.note(sum->nameRange, "'{}' has variants: {}", sum->name, list);
      return;
    }
  }
}

void PatternResolver::bindingInSubscription(const ast::NamePattern& p,
                                            const PatternText& text) {
  reported_ = true;
  std::string written;
  for (const ast::Ident& part : p.name.parts) {
    if (!written.empty()) written += '.';
    written += part.name.str();
  }
  sema_.diags
      .report<diag::InvalidPattern>(
          p.range,
          fmt::format("a subscription pattern cannot bind a name; '{}' would "
                      "bind {}",
                      written, text.describe()))
      .note("use '_' to match any value of {}", text.describe())
      .fixit(p.range, "_");
}

}  // namespace herald::check
