#include "frontend/source.h"

#include <algorithm>

namespace herald {

SourceFile::SourceFile(FileId id, std::string name, std::string text)
    : id_(id), name_(std::move(name)), text_(std::move(text)) {}

void SourceFile::computeLineStarts() const {
  if (!lineStarts_.empty()) return;
  lineStarts_.push_back(0);
  for (std::uint32_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') lineStarts_.push_back(i + 1);
  }
}

LineColumn SourceFile::lineColumn(std::uint32_t offset) const {
  computeLineStarts();
  auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
  auto line = static_cast<std::uint32_t>(it - lineStarts_.begin());
  return {line, offset - lineStarts_[line - 1] + 1};
}

std::string_view SourceFile::lineText(std::uint32_t line) const {
  computeLineStarts();
  if (line == 0 || line > lineStarts_.size()) return {};
  std::uint32_t begin = lineStarts_[line - 1];
  std::uint32_t end = line < lineStarts_.size()
                          ? lineStarts_[line] - 1
                          : static_cast<std::uint32_t>(text_.size());
  std::string_view text(text_.data() + begin, end - begin);
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  return text;
}

std::uint32_t SourceFile::lineCount() const {
  computeLineStarts();
  return static_cast<std::uint32_t>(lineStarts_.size());
}

FileId SourceManager::addFile(std::string name, std::string text) {
  auto id = static_cast<FileId>(files_.size());
  files_.push_back(
      std::make_unique<SourceFile>(id, std::move(name), std::move(text)));
  return id;
}

std::string_view SourceManager::textOf(SourceRange r) const {
  std::string_view text = file(r.file).text();
  if (r.begin > text.size()) return {};
  return text.substr(r.begin, r.end - r.begin);
}

}  // namespace herald
