#include "frontend/diagnostic.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <iterator>
#include <tuple>

namespace herald {
namespace {

constexpr std::array kInfos = {
#define DIAG(Id, Code, Sev, Name, Format, ...) \
  DiagInfo{Code, Severity::Sev, Name, Format},
#include "frontend/diagnostics.def"
#undef DIAG
};

auto sortKey(const Diagnostic& d) {
  return std::tie(d.range.file, d.range.begin, d.range.end,
                  diagInfo(d.kind).code, d.message);
}

auto noteKey(const DiagnosticNote& n) {
  return std::tie(n.hasRange, n.range.file, n.range.begin, n.range.end,
                  n.message);
}

auto fixitKey(const FixIt& f) {
  return std::tie(f.range.file, f.range.begin, f.range.end, f.replacement);
}

bool noteLess(const DiagnosticNote& x, const DiagnosticNote& y) {
  return noteKey(x) < noteKey(y);
}
bool fixitLess(const FixIt& x, const FixIt& y) {
  return fixitKey(x) < fixitKey(y);
}

// A total order over everything a diagnostic carries, so that exact repeats
// end up adjacent for de-duplication even when a different diagnostic at the
// same place was reported between them.
bool lessThan(const Diagnostic& a, const Diagnostic& b) {
  if (sortKey(a) != sortKey(b)) return sortKey(a) < sortKey(b);
  auto notesLess = [](const Diagnostic& x, const Diagnostic& y) {
    return std::lexicographical_compare(x.notes.begin(), x.notes.end(),
                                        y.notes.begin(), y.notes.end(),
                                        noteLess);
  };
  if (notesLess(a, b)) return true;
  if (notesLess(b, a)) return false;
  return std::lexicographical_compare(a.fixits.begin(), a.fixits.end(),
                                      b.fixits.begin(), b.fixits.end(),
                                      fixitLess);
}

bool sameDiagnostic(const Diagnostic& a, const Diagnostic& b) {
  return a.kind == b.kind && a.range == b.range && a.message == b.message &&
         std::equal(a.notes.begin(), a.notes.end(), b.notes.begin(),
                    b.notes.end(),
                    [](const auto& x, const auto& y) {
                      return noteKey(x) == noteKey(y);
                    }) &&
         std::equal(a.fixits.begin(), a.fixits.end(), b.fixits.begin(),
                    b.fixits.end(), [](const FixIt& x, const FixIt& y) {
                      return fixitKey(x) == fixitKey(y);
                    });
}

// Counts a report that is not kept, in the total of its severity.
void countOmitted(Severity severity, std::size_t& errors,
                  std::size_t& warnings) {
  switch (severity) {
    case Severity::Error:
      ++errors;
      break;
    case Severity::Warning:
      ++warnings;
      break;
    case Severity::Note:
      break;
  }
}

}  // namespace

const DiagInfo& diagInfo(DiagKind kind) {
  return kInfos[static_cast<std::size_t>(kind)];
}

const std::vector<DiagKind>& allDiagKinds() {
  static const std::vector<DiagKind> kinds = {
#define DIAG(Id, Code, Sev, Name, Format, ...) DiagKind::Id,
#include "frontend/diagnostics.def"
#undef DIAG
  };
  return kinds;
}

std::string_view severityName(Severity s) {
  switch (s) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Note:
      return "note";
  }
  return "error";
}

DiagnosticBuilder& DiagnosticBuilder::fixit(SourceRange range,
                                            std::string replacement) {
  if (index_ == kDropped) return *this;
  engine_.diagnostics_[index_].fixits.push_back(
      {range, std::move(replacement)});
  return *this;
}

void DiagnosticBuilder::addNote(std::string message, SourceRange range,
                                bool hasRange) {
  engine_.diagnostics_[index_].notes.push_back(
      {std::move(message), range, hasRange});
}

DiagnosticBuilder DiagnosticEngine::add(DiagKind kind, SourceRange range,
                                        std::string message) {
  diagnostics_.push_back({kind, range, std::move(message), {}, {}});
  if (diagInfo(kind).severity == Severity::Error) {
    ++errors_;
    // Amortised: a pass over the kept diagnostics each time `limit` more
    // errors were kept.
    if (errorLimit_ != 0 && errors_ >= errorsAtCutoff_ + errorLimit_)
      updateCutoff();
  }
  return {*this, diagnostics_.size() - 1};
}

DiagnosticBuilder DiagnosticEngine::drop(DiagKind kind) {
  const Severity severity = diagInfo(kind).severity;
  if (severity == Severity::Error) ++errors_;
  countOmitted(severity, omittedErrors_, omittedWarnings_);
  return {*this, DiagnosticBuilder::kDropped};
}

void DiagnosticEngine::updateCutoff() {
  errorsAtCutoff_ = errors_;
  std::vector<SourceRange> starts;
  for (const Diagnostic& d : diagnostics_)
    if (d.severity() == Severity::Error) starts.push_back(d.range);
  if (starts.size() < errorLimit_) return;
  auto before = [](const SourceRange& a, const SourceRange& b) {
    return std::tie(a.file, a.begin) < std::tie(b.file, b.begin);
  };
  auto nth = starts.begin() + static_cast<std::ptrdiff_t>(errorLimit_ - 1);
  std::nth_element(starts.begin(), nth, starts.end(), before);
  if (!hasCutoff_ || before(*nth, cutoff_)) cutoff_ = *nth;
  hasCutoff_ = true;
}

std::vector<Diagnostic> DiagnosticEngine::takeSince(std::size_t mark) {
  std::vector<Diagnostic> taken;
  if (mark >= diagnostics_.size()) return taken;
  taken.assign(std::make_move_iterator(diagnostics_.begin() +
                                       static_cast<std::ptrdiff_t>(mark)),
               std::make_move_iterator(diagnostics_.end()));
  diagnostics_.resize(mark);
  for (const Diagnostic& d : taken)
    if (d.severity() == Severity::Error) --errors_;
  return taken;
}

void DiagnosticEngine::restore(Diagnostic d) {
  if (d.severity() == Severity::Error) ++errors_;
  diagnostics_.push_back(std::move(d));
}

void DiagnosticEngine::finalize() {
  std::stable_sort(diagnostics_.begin(), diagnostics_.end(), lessThan);
  diagnostics_.erase(
      std::unique(diagnostics_.begin(), diagnostics_.end(), sameDiagnostic),
      diagnostics_.end());
  auto isError = [](const Diagnostic& d) {
    return d.severity() == Severity::Error;
  };
  errors_ = static_cast<std::size_t>(
      std::count_if(diagnostics_.begin(), diagnostics_.end(), isError));
  if (errorLimit_ == 0 || errors_ <= errorLimit_) return;
  auto cut = diagnostics_.begin();
  for (std::size_t kept = 0; kept < errorLimit_; ++cut)
    if (isError(*cut)) ++kept;
  for (auto it = cut; it != diagnostics_.end(); ++it)
    countOmitted(it->severity(), omittedErrors_, omittedWarnings_);
  diagnostics_.erase(cut, diagnostics_.end());
  errors_ = errorLimit_;
}

}  // namespace herald
