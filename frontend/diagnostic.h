// The diagnostics engine: typed reports against the registry in
// diagnostics.def, collected, then sorted and de-duplicated for output.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "frontend/source.h"

namespace herald {

enum class Severity : std::uint8_t { Error, Warning, Note };

enum class DiagKind : std::uint16_t {
#define DIAG(Id, Code, Sev, Name, Format, ...) Id,
#include "frontend/diagnostics.def"
#undef DIAG
};

struct DiagInfo {
  std::string_view code;  // "E0501"
  Severity severity;
  std::string_view name;    // "emit-outside-owner"
  std::string_view format;  // fmt format string
};

[[nodiscard]] const DiagInfo& diagInfo(DiagKind kind);
// Every registry entry, in declaration order.
[[nodiscard]] const std::vector<DiagKind>& allDiagKinds();
[[nodiscard]] std::string_view severityName(Severity s);

// One type per registry entry, carrying the argument types its format takes,
// so a report with the wrong arguments does not compile.
namespace diag {
#define DIAG(Id, Code, Sev, Name, Format, ...)     \
  struct Id {                                      \
    static constexpr DiagKind kind = DiagKind::Id; \
    using Args = std::tuple<__VA_ARGS__>;          \
  };
#include "frontend/diagnostics.def"
#undef DIAG
}  // namespace diag

struct DiagnosticNote {
  std::string message;
  SourceRange range;
  bool hasRange = false;
};

// Replace `range` with `replacement`; an empty range inserts.
struct FixIt {
  SourceRange range;
  std::string replacement;
};

struct Diagnostic {
  DiagKind kind;
  SourceRange range;
  std::string message;
  std::vector<DiagnosticNote> notes;
  std::vector<FixIt> fixits;

  [[nodiscard]] Severity severity() const { return diagInfo(kind).severity; }
};

class DiagnosticEngine;

// Adds notes and fix-its to the diagnostic just reported.
class DiagnosticBuilder {
 public:
  DiagnosticBuilder(DiagnosticEngine& engine, std::size_t index)
      : engine_(engine), index_(index) {}

  // The builder of a report the error limit dropped: notes and fix-its
  // are ignored.
  static constexpr std::size_t kDropped = static_cast<std::size_t>(-1);

  template <typename... A>
  DiagnosticBuilder& note(SourceRange range, fmt::format_string<A...> format,
                          A&&... args) {
    if (index_ == kDropped) return *this;
    addNote(fmt::format(format, std::forward<A>(args)...), range, true);
    return *this;
  }
  template <typename... A>
  DiagnosticBuilder& note(fmt::format_string<A...> format, A&&... args) {
    if (index_ == kDropped) return *this;
    addNote(fmt::format(format, std::forward<A>(args)...), {}, false);
    return *this;
  }
  DiagnosticBuilder& fixit(SourceRange range, std::string replacement);

 private:
  void addNote(std::string message, SourceRange range, bool hasRange);

  DiagnosticEngine& engine_;
  std::size_t index_;
};

class DiagnosticEngine {
 public:
  template <typename D, typename... A>
  DiagnosticBuilder report(SourceRange range, A&&... args) {
    using Args = typename D::Args;
    static_assert(sizeof...(A) == std::tuple_size_v<Args>,
                  "wrong number of arguments for this diagnostic");
    if (beyondLimit(range)) [[unlikely]]
      return drop(D::kind);
    return reportTyped<D>(range, std::index_sequence_for<A...>{},
                          std::forward<A>(args)...);
  }

  [[nodiscard]] const std::vector<Diagnostic>& diagnostics() const {
    return diagnostics_;
  }
  // Errors reported so far (repeats included until finalize()).
  [[nodiscard]] std::size_t errorCount() const { return errors_; }
  [[nodiscard]] bool hasErrors() const { return errors_ != 0; }

  // At most `limit` errors are kept; 0 keeps all. Once more errors than
  // that are found, some will not be shown for sure: errorLimitReached()
  // tells a phase to stop work whose errors nobody would see, and the phase
  // says so with stopEarly().
  void setErrorLimit(std::size_t limit) { errorLimit_ = limit; }
  [[nodiscard]] std::size_t errorLimit() const { return errorLimit_; }
  [[nodiscard]] bool errorLimitReached() const {
    return errorLimit_ != 0 && errors_ > errorLimit_;
  }
  void stopEarly() { stoppedEarly_ = true; }
  // Whether a report at `range` would surely not be shown: it sorts after
  // the limit-th error already kept. A phase may skip costly work for it
  // (suggestions, notes); report() drops it without formatting or storing.
  [[nodiscard]] bool beyondLimit(SourceRange range) const {
    return hasCutoff_ &&
           (range.file > cutoff_.file ||
            (range.file == cutoff_.file && range.begin > cutoff_.begin));
  }
  // Whether some phase stopped at the limit, so more errors may exist than
  // were found.
  [[nodiscard]] bool stoppedEarly() const { return stoppedEarly_; }

  // The diagnostics reported since `mark` (a diagnostics().size() read
  // earlier), taken out of the engine and no longer counted: for a phase
  // that says what they found in its own words, as one report. Reports the
  // error limit dropped meanwhile stay counted as omitted.
  [[nodiscard]] std::vector<Diagnostic> takeSince(std::size_t mark);
  // Reports `d` again, as taken.
  void restore(Diagnostic d);

  // Sorts by location (file, begin, end, then code) and drops exact repeats,
  // so output is deterministic whatever order the phases reported in. Then,
  // under an error limit of N, keeps everything up to and including the
  // N-th error in that order and drops the rest, counting what it dropped.
  void finalize();
  // What finalize() dropped because of the error limit.
  [[nodiscard]] std::size_t omittedErrors() const { return omittedErrors_; }
  [[nodiscard]] std::size_t omittedWarnings() const { return omittedWarnings_; }

 private:
  friend class DiagnosticBuilder;

  template <typename D, std::size_t... I, typename... A>
  DiagnosticBuilder reportTyped(SourceRange range, std::index_sequence<I...>,
                                A&&... args) {
    using Args = typename D::Args;
    std::string message = fmt::format(
        fmt::runtime(diagInfo(D::kind).format),
        static_cast<std::tuple_element_t<I, Args>>(std::forward<A>(args))...);
    return add(D::kind, range, std::move(message));
  }
  DiagnosticBuilder add(DiagKind kind, SourceRange range, std::string message);
  DiagnosticBuilder drop(DiagKind kind);
  void updateCutoff();

  std::vector<Diagnostic> diagnostics_;
  std::size_t errors_ = 0;
  std::size_t errorLimit_ = 0;
  std::size_t omittedErrors_ = 0;
  std::size_t omittedWarnings_ = 0;
  bool stoppedEarly_ = false;
  // Under a limit, the position of the limit-th error in sorted order among
  // those kept (recomputed as errors arrive), so that the reports after it
  // cost neither time nor memory. Diagnostics already kept never move, as
  // builders hold their index.
  bool hasCutoff_ = false;
  SourceRange cutoff_;
  std::size_t errorsAtCutoff_ = 0;
};

}  // namespace herald
