#include "bench/lsp/edits.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <stdexcept>
#include <utility>

namespace herald::bench {
namespace {

bool identStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_';
}
bool identChar(char c) {
  return identStart(c) || std::isdigit(static_cast<unsigned char>(c)) != 0;
}

constexpr const char* kField = "\n  benchExtra: Int = 0,";
constexpr const char* kBroken =
    "\nfn benchBroken() -> Int {\n  \"not an Int\"\n}\n";

}  // namespace

EditCycle::EditCycle(std::string original)
    : original_(std::move(original)), current_(original_) {
  std::smatch match;
  static const std::regex body(R"(\n *(fn|on) [^\n]*\{\n)");
  if (!std::regex_search(original_, match, body))
    throw std::runtime_error("the file has no handler or function body");
  bodyLine_ = static_cast<std::size_t>(match.position(0) + match.length(0));
  static const std::regex event(R"(\nevent [A-Za-z0-9_]+ = \{)");
  if (!std::regex_search(original_, match, event))
    throw std::runtime_error("the file declares no event");
  eventOpen_ = static_cast<std::size_t>(match.position(0) + match.length(0));
}

Edit EditCycle::next() {
  Edit edit;
  switch (step_) {
    case 0:
      edit = {"insert a space in a body",
              std::string(original_).insert(bodyLine_, " "), false};
      break;
    case 1:
      edit = {"delete the space", original_, false};
      break;
    case 2:
      edit = {"add a field to an event",
              std::string(original_).insert(eventOpen_, kField), false};
      break;
    case 3:
      edit = {"remove the field", original_, false};
      break;
    case 4:
      edit = {"append a function with a type error", original_ + kBroken, true};
      break;
    default:
      edit = {"remove the function", original_, false};
      break;
  }
  step_ = (step_ + 1) % 6;
  current_ = edit.text;
  return edit;
}

std::vector<std::size_t> identifierOffsets(const std::string& text,
                                           std::size_t count) {
  std::vector<std::size_t> all;
  bool docBlock = false;
  std::size_t lineStart = 0;
  while (lineStart < text.size()) {
    std::size_t lineEnd = std::min(text.find('\n', lineStart), text.size());
    std::string_view line(text.data() + lineStart, lineEnd - lineStart);
    std::size_t first = line.find_first_not_of(' ');
    std::string_view trimmed =
        first == std::string_view::npos ? "" : line.substr(first);
    if (trimmed.substr(0, 3) == "---") {
      docBlock = !docBlock;
    } else if (!docBlock) {
      // A `--` comment ends the code of its line (strings hold none in the
      // generated projects).
      std::size_t end = std::min(line.find("--"), line.size());
      for (std::size_t i = 0; i < end; ++i) {
        if (identStart(line[i]) && (i == 0 || !identChar(line[i - 1])))
          all.push_back(lineStart + i);
      }
    }
    lineStart = lineEnd + 1;
  }
  if (all.size() <= count) return all;
  std::vector<std::size_t> spread;
  spread.reserve(count);
  for (std::size_t i = 0; i < count; ++i)
    spread.push_back(all[i * all.size() / count]);
  return spread;
}

nlohmann::json lspPosition(const std::string& text, std::size_t offset) {
  std::size_t line = static_cast<std::size_t>(
      std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n'));
  std::size_t lineStart = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  lineStart =
      (lineStart == std::string::npos || offset == 0) ? 0 : lineStart + 1;
  return {{"line", line}, {"character", offset - lineStart}};
}

}  // namespace herald::bench
