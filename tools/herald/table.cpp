#include "tools/herald/table.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace herald::tool {
namespace {

// Display width of UTF-8 text: code points, not bytes.
std::size_t width(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(
      text.begin(), text.end(),
      [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

}  // namespace

Table::Table(std::vector<Column> columns) : columns_(std::move(columns)) {}

void Table::add_row(std::vector<std::string> cells) {
  if (cells.size() != columns_.size())
    throw std::logic_error("Table::add_row: wrong number of cells");
  rows_.push_back(std::move(cells));
}

std::string Table::render() const {
  std::vector<std::size_t> widths;
  for (const Column& column : columns_) widths.push_back(width(column.header));
  for (const auto& row : rows_)
    for (std::size_t i = 0; i < row.size(); ++i)
      widths[i] = std::max(widths[i], width(row[i]));

  std::string out;
  auto line = [&](auto cell_at) {
    std::string text;
    for (std::size_t i = 0; i < columns_.size(); ++i) {
      const std::string& cell = cell_at(i);
      const std::string pad(widths[i] - width(cell), ' ');
      if (i > 0) text += "  ";
      text += columns_[i].align == Align::Right ? pad + cell : cell + pad;
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text;
    out += '\n';
  };
  line([&](std::size_t i) -> const std::string& { return columns_[i].header; });
  for (const auto& row : rows_)
    line([&](std::size_t i) -> const std::string& { return row[i]; });
  return out;
}

}  // namespace herald::tool
