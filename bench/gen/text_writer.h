// Line-oriented output with indentation for the generated Herald text.
#pragma once

#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

namespace herald::bench {

class TextWriter {
 public:
  // One line at the current indentation.
  template <typename... A>
  void line(fmt::format_string<A...> format, A&&... args) {
    out_.append(static_cast<std::size_t>(indent_) * 2, ' ');
    fmt::format_to(std::back_inserter(out_), format, std::forward<A>(args)...);
    out_.push_back('\n');
    ++lines_;
  }
  void blank() {
    out_.push_back('\n');
    ++lines_;
  }
  // A `---` doc block; the markers follow the current indentation.
  void doc(std::string_view text) {
    line("---");
    line("{}", text);
    line("---");
  }

  void indent() { ++indent_; }
  void dedent() { --indent_; }

  [[nodiscard]] std::size_t lines() const { return lines_; }
  [[nodiscard]] const std::string& text() const { return out_; }
  std::string take() {
    std::string text = std::move(out_);
    out_.clear();
    lines_ = 0;
    return text;
  }

 private:
  std::string out_;
  std::size_t lines_ = 0;
  int indent_ = 0;
};

// Runs `body` one indentation level deeper.
template <typename F>
void indented(TextWriter& w, F&& body) {
  w.indent();
  body();
  w.dedent();
}

}  // namespace herald::bench
