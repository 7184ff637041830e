// What every fuzz target here shares: libFuzzer's entry point (called by
// libFuzzer in a fuzz build and by replay_main.cpp otherwise), the input
// bound, and the invariants that hold for any input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "frontend/diagnostic.h"
#include "frontend/source.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size);

namespace herald::fuzz {

// Longer inputs are cut here, so the fuzzer spends its time on structure
// rather than size (sheer size is the hostile-input test's business).
inline constexpr std::size_t kMaxInputBytes = 64 * 1024;

[[nodiscard]] inline std::string inputText(const std::uint8_t* data,
                                           std::size_t size) {
  if (size > kMaxInputBytes) size = kMaxInputBytes;
  return std::string(reinterpret_cast<const char*>(data), size);
}

// An abort is what libFuzzer records as a finding.
inline void require(bool condition) {
  if (!condition) std::abort();
}

// Every diagnostic, note and fix-it points into a file of `sources`.
inline void requireRangesInside(const SourceManager& sources,
                                const DiagnosticEngine& diags) {
  auto inside = [&](const SourceRange& r) {
    return r.file < sources.size() && r.begin <= r.end &&
           r.end <= sources.file(r.file).text().size();
  };
  for (const Diagnostic& d : diags.diagnostics()) {
    require(inside(d.range));
    for (const DiagnosticNote& n : d.notes)
      require(!n.hasRange || inside(n.range));
    for (const FixIt& f : d.fixits) require(inside(f.range));
  }
}

}  // namespace herald::fuzz
