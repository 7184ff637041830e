// Source files and byte-offset locations. Lines and columns are computed only
// when a location is rendered.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace herald {

using FileId = std::uint32_t;

// A half-open byte range [begin, end) in one file.
struct SourceRange {
  FileId file = 0;
  std::uint32_t begin = 0;
  std::uint32_t end = 0;

  [[nodiscard]] static SourceRange join(SourceRange a, SourceRange b) {
    return {a.file, a.begin < b.begin ? a.begin : b.begin,
            a.end > b.end ? a.end : b.end};
  }
  friend bool operator==(const SourceRange&, const SourceRange&) = default;
};

struct LineColumn {
  std::uint32_t line = 1;    // 1-based
  std::uint32_t column = 1;  // 1-based, in bytes
};

class SourceFile {
 public:
  SourceFile(FileId id, std::string name, std::string text);

  [[nodiscard]] FileId id() const { return id_; }
  // The name as given by the user (a relative path stays relative).
  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] std::string_view text() const { return text_; }
  [[nodiscard]] LineColumn lineColumn(std::uint32_t offset) const;
  // The text of the 1-based line `line`, without its line terminator.
  [[nodiscard]] std::string_view lineText(std::uint32_t line) const;
  [[nodiscard]] std::uint32_t lineCount() const;

 private:
  void computeLineStarts() const;

  FileId id_;
  std::string name_;
  std::string text_;
  mutable std::vector<std::uint32_t> lineStarts_;
};

// Owns every source file of a compilation. FileIds index into it; file 0 is
// the first file added. Files never move once added.
class SourceManager {
 public:
  FileId addFile(std::string name, std::string text);
  [[nodiscard]] const SourceFile& file(FileId id) const { return *files_[id]; }
  [[nodiscard]] std::size_t size() const { return files_.size(); }
  [[nodiscard]] std::string_view textOf(SourceRange r) const;

 private:
  std::vector<std::unique_ptr<SourceFile>> files_;
};

}  // namespace herald
