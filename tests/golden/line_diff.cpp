#include "line_diff.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace herald::golden {
namespace {

std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    if (nl == std::string_view::npos) {
      lines.push_back(text);
      break;
    }
    lines.push_back(text.substr(0, nl));
    text.remove_prefix(nl + 1);
  }
  return lines;
}

enum class Op { Keep, Remove, Add };

struct Edit {
  Op op;
  std::string_view line;
  std::size_t oldLine;  // 1-based line in `expected` (Keep, Remove)
  std::size_t newLine;  // 1-based line in `actual` (Keep, Add)
};

// Longest common subsequence over the lines between the common prefix and
// suffix; golden files are small, and the trimming keeps the table smaller.
std::vector<Edit> diffLines(const std::vector<std::string_view>& a,
                            const std::vector<std::string_view>& b) {
  std::size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix])
    ++prefix;
  std::size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
    ++suffix;
  std::size_t n = a.size() - prefix - suffix;
  std::size_t m = b.size() - prefix - suffix;

  std::vector<Edit> edits;
  for (std::size_t i = 0; i < prefix; ++i)
    edits.push_back({Op::Keep, a[i], i + 1, i + 1});

  constexpr std::size_t kMaxCells = 16'000'000;
  if (n * m <= kMaxCells) {
    std::vector<std::vector<std::uint32_t>> lcs(
        n + 1, std::vector<std::uint32_t>(m + 1, 0));
    for (std::size_t i = n; i-- > 0;)
      for (std::size_t j = m; j-- > 0;)
        lcs[i][j] = a[prefix + i] == b[prefix + j]
                        ? lcs[i + 1][j + 1] + 1
                        : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < n || j < m) {
      std::size_t ai = prefix + i;
      std::size_t bj = prefix + j;
      if (i < n && j < m && a[ai] == b[bj]) {
        edits.push_back({Op::Keep, a[ai], ai + 1, bj + 1});
        ++i;
        ++j;
      } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
        edits.push_back({Op::Remove, a[ai], ai + 1, bj + 1});
        ++i;
      } else {
        edits.push_back({Op::Add, b[bj], ai + 1, bj + 1});
        ++j;
      }
    }
  } else {
    // Too large to align: show the whole middle as replaced.
    for (std::size_t i = 0; i < n; ++i)
      edits.push_back({Op::Remove, a[prefix + i], prefix + i + 1, prefix + 1});
    for (std::size_t j = 0; j < m; ++j)
      edits.push_back({Op::Add, b[prefix + j], prefix + 1, prefix + j + 1});
  }
  for (std::size_t k = 0; k < suffix; ++k) {
    std::size_t ai = a.size() - suffix + k;
    std::size_t bj = b.size() - suffix + k;
    edits.push_back({Op::Keep, a[ai], ai + 1, bj + 1});
  }
  return edits;
}

}  // namespace

std::string lineDiff(std::string_view expected, std::string_view actual,
                     std::size_t context, std::size_t maxLines) {
  std::vector<Edit> edits = diffLines(splitLines(expected), splitLines(actual));
  // Mark the edits within `context` of a change.
  std::vector<bool> shown(edits.size(), false);
  for (std::size_t k = 0; k < edits.size(); ++k) {
    if (edits[k].op == Op::Keep) continue;
    std::size_t lo = k >= context ? k - context : 0;
    std::size_t hi = std::min(edits.size(), k + context + 1);
    for (std::size_t x = lo; x < hi; ++x) shown[x] = true;
  }
  std::string out = "--- expected\n+++ actual\n";
  std::size_t lines = 0;
  std::size_t cut = 0;
  for (std::size_t k = 0; k < edits.size(); ++k) {
    if (!shown[k]) continue;
    if (k == 0 || !shown[k - 1]) {
      if (lines < maxLines) {
        out += "@@ expected line " + std::to_string(edits[k].oldLine) +
               ", actual line " + std::to_string(edits[k].newLine) + " @@\n";
      }
    }
    if (lines >= maxLines) {
      if (edits[k].op != Op::Keep) ++cut;
      continue;
    }
    char mark = edits[k].op == Op::Keep  ? ' '
                : edits[k].op == Op::Add ? '+'
                                         : '-';
    out += mark;
    out += edits[k].line;
    out += '\n';
    ++lines;
  }
  if (cut != 0) out += "... " + std::to_string(cut) + " more changed lines\n";
  bool anyChange = std::any_of(edits.begin(), edits.end(),
                               [](const Edit& e) { return e.op != Op::Keep; });
  if (!anyChange && expected != actual)
    out += "(the texts differ only in line endings or the final newline)\n";
  return out;
}

}  // namespace herald::golden
