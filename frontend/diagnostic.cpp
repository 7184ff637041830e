#include "frontend/diagnostic.h"

#include <algorithm>
#include <array>
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

bool sameNotes(const Diagnostic& a, const Diagnostic& b) {
  if (a.notes.size() != b.notes.size()) return false;
  for (std::size_t i = 0; i < a.notes.size(); ++i) {
    if (a.notes[i].message != b.notes[i].message ||
        a.notes[i].range != b.notes[i].range)
      return false;
  }
  return true;
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
  engine_.diagnostics_[index_].fixits.push_back({range, std::move(replacement)});
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
  return {*this, diagnostics_.size() - 1};
}

std::size_t DiagnosticEngine::errorCount() const {
  return static_cast<std::size_t>(
      std::count_if(diagnostics_.begin(), diagnostics_.end(),
                    [](const Diagnostic& d) {
                      return d.severity() == Severity::Error;
                    }));
}

void DiagnosticEngine::finalize() {
  std::stable_sort(diagnostics_.begin(), diagnostics_.end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     return sortKey(a) < sortKey(b);
                   });
  auto last = std::unique(diagnostics_.begin(), diagnostics_.end(),
                          [](const Diagnostic& a, const Diagnostic& b) {
                            return a.kind == b.kind && a.range == b.range &&
                                   a.message == b.message && sameNotes(a, b);
                          });
  diagnostics_.erase(last, diagnostics_.end());
}

}  // namespace herald
