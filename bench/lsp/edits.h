// The edits the language-server benchmark makes to one file, and the
// positions it asks about.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace herald::bench {

struct Edit {
  std::string kind;  // what the edit does, for messages
  std::string text;  // the whole document after it
  // Whether the file has diagnostics after it (the original file has none).
  bool expectsDiagnostics = false;
};

// A cycle of six edits of a file that checks clean, each undone by the
// next: a space inserted at the start of a line of the first handler or
// function body, and deleted; a field with a default value added to the
// first event, and removed; a function with a type error appended, and
// removed. Throws when the file has no body or no event.
class EditCycle {
 public:
  explicit EditCycle(std::string original);
  [[nodiscard]] Edit next();
  // The document as the last edit left it.
  [[nodiscard]] const std::string& text() const { return current_; }

 private:
  std::string original_;
  std::string current_;
  std::size_t bodyLine_ = 0;   // the offset where a space goes
  std::size_t eventOpen_ = 0;  // the offset after the event's `{`
  int step_ = 0;
};

// Up to `count` offsets where an identifier starts, spread evenly over the
// identifiers of `text` outside comments.
[[nodiscard]] std::vector<std::size_t> identifierOffsets(
    const std::string& text, std::size_t count);

// An LSP Position for a byte offset of an ASCII text (where UTF-16
// characters are bytes).
[[nodiscard]] nlohmann::json lspPosition(const std::string& text,
                                         std::size_t offset);

}  // namespace herald::bench
