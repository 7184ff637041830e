// `via schema(...)` on a subscription (bad-schema-dispatch).
#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "checker/subscription_check.h"

namespace herald::check {

namespace {

// Where each version is written inside `schema( ... )`, for precise ranges.
// The parser keeps the numbers but not their positions.
struct VersionRanges {
  SourceRange spec;  // between the parentheses
  SourceRange low;
  SourceRange high;
};

SourceRange trimmed(std::string_view text, SourceRange r) {
  while (r.begin < r.end && (text[r.begin] == ' ' || text[r.begin] == '\t' ||
                             text[r.begin] == '\n' || text[r.begin] == '\r'))
    ++r.begin;
  while (r.end > r.begin &&
         (text[r.end - 1] == ' ' || text[r.end - 1] == '\t' ||
          text[r.end - 1] == '\n' || text[r.end - 1] == '\r'))
    --r.end;
  return r;
}

VersionRanges locate(const SourceManager& sources, const ast::ViaClause& via) {
  VersionRanges out{via.range, via.range, via.range};
  std::string_view text = sources.file(via.range.file).text();
  if (via.range.end > text.size()) return out;
  std::size_t open = text.find('(', via.name.range.end);
  std::size_t close = text.rfind(')', via.range.end - 1);
  if (open == std::string_view::npos || close == std::string_view::npos ||
      open >= close || close >= via.range.end)
    return out;
  out.spec = trimmed(
      text, SourceRange{via.range.file, static_cast<std::uint32_t>(open + 1),
                        static_cast<std::uint32_t>(close)});
  std::string_view spec =
      text.substr(out.spec.begin, out.spec.end - out.spec.begin);
  std::size_t dots = spec.find("..");
  if (dots == std::string_view::npos) {
    out.low = out.high = out.spec;
    return out;
  }
  auto mid = static_cast<std::uint32_t>(out.spec.begin + dots);
  out.low = trimmed(text, SourceRange{via.range.file, out.spec.begin, mid});
  out.high = trimmed(text, SourceRange{via.range.file, mid + 2, out.spec.end});
  return out;
}

}  // namespace

std::optional<VersionRange> checkVia(Sema& sema, const ast::ViaClause& via) {
  bool ok = true;
  if (!via.name.empty() && via.name.name != "schema") {
    sema.diags
        .report<diag::BadSchemaDispatch>(
            via.name.range,
            fmt::format("unknown 'via' clause '{}'", via.name.name.str()))
        .note(
            "did you mean 'schema'? a subscription dispatches on the "
            "event's schema version with 'via schema(...)'")
        .fixit(via.name.range, "schema");
    ok = false;
  }
  VersionRanges at = locate(sema.sources, via);
  auto positive = [&](std::int64_t v, SourceRange r) {
    if (v > 0) return true;
    sema.diags
        .report<diag::BadSchemaDispatch>(
            r, fmt::format("schema version {} is not positive", v))
        .note("schema versions start at 1");
    return false;
  };
  VersionRange range;
  switch (via.spec) {
    case ast::VersionSpecKind::Exact:
      ok = positive(via.low, at.low) && ok;
      range = {via.low, via.low};
      break;
    case ast::VersionSpecKind::AtLeast:
      ok = positive(via.low, at.low) && ok;
      range = {via.low, std::nullopt};
      break;
    case ast::VersionSpecKind::AtMost:
      ok = positive(via.high, at.high) && ok;
      range = {std::nullopt, via.high};
      break;
    case ast::VersionSpecKind::Between: {
      bool lowOk = positive(via.low, at.low);
      bool highOk = positive(via.high, at.high);
      ok = lowOk && highOk && ok;
      if (lowOk && highOk && via.low > via.high) {
        std::string swapped = fmt::format("{}..{}", via.high, via.low);
        sema.diags
            .report<diag::BadSchemaDispatch>(
                at.spec, fmt::format("empty version range {}..{}: no version "
                                     "is at least {} and at most {}",
                                     via.low, via.high, via.low, via.high))
            .note("write the lower version first: 'schema({})'", swapped)
            .fixit(at.spec, swapped);
        ok = false;
      }
      range = {via.low, via.high};
      break;
    }
    case ast::VersionSpecKind::Any:
      range = {};
      break;
  }
  if (!ok) return std::nullopt;
  return range;
}

}  // namespace herald::check
